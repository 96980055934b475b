-- CreateTable
CREATE TABLE "operator_ended_sessions" (
    "sid" TEXT NOT NULL,
    "operator_id" UUID NOT NULL,
    "ended_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "operator_ended_sessions_pkey" PRIMARY KEY ("sid")
);

-- CreateIndex
CREATE INDEX "operator_ended_sessions_expires_at_idx" ON "operator_ended_sessions"("expires_at");

-- AddForeignKey
ALTER TABLE "operator_ended_sessions" ADD CONSTRAINT "operator_ended_sessions_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "operators"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateTable
CREATE TABLE "limit_overrides" (
    "key" TEXT NOT NULL,
    "value" DOUBLE PRECISION NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_by" UUID,

    CONSTRAINT "limit_overrides_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "capacity_samples" (
    "metric" TEXT NOT NULL,
    "subject" TEXT NOT NULL DEFAULT '',
    "minute" TIMESTAMPTZ(0) NOT NULL,
    "value" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "capacity_samples_pkey" PRIMARY KEY ("metric","subject","minute")
);

-- CreateIndex
CREATE INDEX "capacity_samples_minute_idx" ON "capacity_samples"("minute");

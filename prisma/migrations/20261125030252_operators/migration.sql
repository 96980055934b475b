-- CreateEnum
CREATE TYPE "OperatorRole" AS ENUM ('admin', 'moderator', 'viewer');

-- AlterTable
ALTER TABLE "rules_versions" ADD COLUMN     "created_by_operator_id" UUID,
ADD COLUMN     "replaces_id" UUID;

-- CreateTable
CREATE TABLE "operators" (
    "id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "role" "OperatorRole" NOT NULL,
    "session_version" INTEGER NOT NULL DEFAULT 1,
    "disabled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_sign_in_at" TIMESTAMPTZ(3),

    CONSTRAINT "operators_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "operator_audit_entries" (
    "id" UUID NOT NULL,
    "seq" SERIAL NOT NULL,
    "actor_kind" TEXT NOT NULL,
    "operator_id" UUID,
    "operator_role" "OperatorRole",
    "action" TEXT NOT NULL,
    "target_kind" TEXT NOT NULL,
    "target_id" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "before" JSONB,
    "after" JSONB,
    "request_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "operator_audit_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "operator_agent_links" (
    "agent_id" UUID NOT NULL,
    "role" "OperatorRole" NOT NULL,
    "linked_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "operator_agent_links_pkey" PRIMARY KEY ("agent_id")
);

-- CreateTable
CREATE TABLE "operator_sign_in_throttles" (
    "subject" TEXT NOT NULL,
    "failures" INTEGER NOT NULL,
    "last_failure_at" TIMESTAMPTZ(3) NOT NULL,
    "blocked_until" TIMESTAMPTZ(3),

    CONSTRAINT "operator_sign_in_throttles_pkey" PRIMARY KEY ("subject")
);

-- CreateIndex
CREATE UNIQUE INDEX "operators_email_key" ON "operators"("email");

-- CreateIndex
CREATE UNIQUE INDEX "operator_audit_entries_seq_key" ON "operator_audit_entries"("seq");

-- CreateIndex
CREATE INDEX "operator_audit_entries_operator_id_seq_idx" ON "operator_audit_entries"("operator_id", "seq");

-- CreateIndex
CREATE INDEX "operator_audit_entries_target_kind_target_id_idx" ON "operator_audit_entries"("target_kind", "target_id");

-- CreateIndex
CREATE INDEX "operator_audit_entries_action_seq_idx" ON "operator_audit_entries"("action", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "rules_versions_replaces_id_key" ON "rules_versions"("replaces_id");

-- AddForeignKey
ALTER TABLE "rules_versions" ADD CONSTRAINT "rules_versions_created_by_operator_id_fkey" FOREIGN KEY ("created_by_operator_id") REFERENCES "operators"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "operator_audit_entries" ADD CONSTRAINT "operator_audit_entries_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "operators"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "operator_agent_links" ADD CONSTRAINT "operator_agent_links_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "operator_agent_links" ADD CONSTRAINT "operator_agent_links_linked_by_id_fkey" FOREIGN KEY ("linked_by_id") REFERENCES "operators"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Emails are stored lower-cased (whoever writes them), so the unique index above is a
-- case-insensitive one. A trigger, not a CHECK: Prisma's WASM schema engine crashes on CHECK
-- constraints when it replays migrations for the drift check.
CREATE FUNCTION "lower_case_operator_email"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."email" := lower(NEW."email");
  RETURN NEW;
END $$;

CREATE TRIGGER "operators_email_lower_case" BEFORE INSERT OR UPDATE OF "email" ON "operators"
  FOR EACH ROW EXECUTE FUNCTION "lower_case_operator_email"();

-- The audit log is append-only for every writer, the services and an operator's SQL alike.
-- Prisma 6 cannot declare triggers; they live only here.
CREATE FUNCTION "refuse_operator_audit_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'operator_audit_entries is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;

CREATE TRIGGER "operator_audit_entries_append_only" BEFORE UPDATE OR DELETE ON "operator_audit_entries"
  FOR EACH ROW EXECUTE FUNCTION "refuse_operator_audit_change"();
CREATE TRIGGER "operator_audit_entries_no_truncate" BEFORE TRUNCATE ON "operator_audit_entries"
  FOR EACH STATEMENT EXECUTE FUNCTION "refuse_operator_audit_change"();

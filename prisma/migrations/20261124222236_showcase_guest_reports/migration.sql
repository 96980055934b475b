-- AlterTable
ALTER TABLE "showcase_reports" ADD COLUMN     "reporter_session_id" UUID,
ADD COLUMN     "target_kind" TEXT NOT NULL DEFAULT 'revision';

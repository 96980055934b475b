-- AlterTable
ALTER TABLE "showcase_events" ALTER COLUMN "revision_id" DROP NOT NULL;

-- AlterTable
ALTER TABLE "pins" ADD COLUMN     "operator_id" UUID;

-- AlterTable
ALTER TABLE "showcase_items" ADD COLUMN     "removed_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "showcase_report_resolutions" (
    "id" UUID NOT NULL,
    "target_kind" TEXT NOT NULL,
    "target_id" UUID NOT NULL,
    "outcome" TEXT NOT NULL,
    "operator_id" UUID NOT NULL,
    "reason" TEXT NOT NULL,
    "resolved_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "showcase_report_resolutions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "showcase_report_resolutions_target_kind_target_id_resolved__idx" ON "showcase_report_resolutions"("target_kind", "target_id", "resolved_at");

-- AddForeignKey
ALTER TABLE "pins" ADD CONSTRAINT "pins_operator_id_fkey" FOREIGN KEY ("operator_id") REFERENCES "operators"("id") ON DELETE SET NULL ON UPDATE CASCADE;

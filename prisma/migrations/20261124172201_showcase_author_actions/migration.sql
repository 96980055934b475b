-- AlterTable
ALTER TABLE "showcase_revisions" ADD COLUMN     "preview" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "showcase_uploads" (
    "id" UUID NOT NULL,
    "agent_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "item_id" UUID,
    "post_id" UUID,
    "expected_hash" TEXT NOT NULL,
    "expected_bytes" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "committed_at" TIMESTAMPTZ(3),
    "result" JSONB,

    CONSTRAINT "showcase_uploads_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "showcase_upload_parts" (
    "upload_id" UUID NOT NULL,
    "part_number" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,
    "sha256" TEXT NOT NULL,

    CONSTRAINT "showcase_upload_parts_pkey" PRIMARY KEY ("upload_id","part_number")
);

-- CreateTable
CREATE TABLE "showcase_appeals" (
    "id" UUID NOT NULL,
    "revision_id" UUID NOT NULL,
    "agent_id" UUID NOT NULL,
    "request_key" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "decided_at" TIMESTAMPTZ(3),

    CONSTRAINT "showcase_appeals_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "showcase_previews" (
    "token_hash" TEXT NOT NULL,
    "revision_id" UUID NOT NULL,
    "item_id" UUID NOT NULL,
    "agent_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "showcase_previews_pkey" PRIMARY KEY ("token_hash")
);

-- CreateTable
CREATE TABLE "showcase_reports" (
    "id" UUID NOT NULL,
    "revision_id" UUID NOT NULL,
    "reporter_agent_id" UUID,
    "reason" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "showcase_reports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "showcase_report_reviews" (
    "revision_id" UUID NOT NULL,
    "day" DATE NOT NULL,
    "verdict" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "decided_at" TIMESTAMPTZ(3),

    CONSTRAINT "showcase_report_reviews_pkey" PRIMARY KEY ("revision_id","day")
);

-- CreateIndex
CREATE INDEX "showcase_uploads_created_at_idx" ON "showcase_uploads"("created_at");

-- CreateIndex
CREATE INDEX "showcase_appeals_revision_id_idx" ON "showcase_appeals"("revision_id");

-- CreateIndex
CREATE UNIQUE INDEX "showcase_appeals_agent_id_request_key_key" ON "showcase_appeals"("agent_id", "request_key");

-- CreateIndex
CREATE INDEX "showcase_previews_item_id_idx" ON "showcase_previews"("item_id");

-- CreateIndex
CREATE INDEX "showcase_reports_revision_id_created_at_idx" ON "showcase_reports"("revision_id", "created_at");

-- AddForeignKey
ALTER TABLE "showcase_upload_parts" ADD CONSTRAINT "showcase_upload_parts_upload_id_fkey" FOREIGN KEY ("upload_id") REFERENCES "showcase_uploads"("id") ON DELETE CASCADE ON UPDATE CASCADE;

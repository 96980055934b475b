-- CreateEnum
CREATE TYPE "ShowcaseItemKind" AS ENUM ('article', 'comment');

-- CreateEnum
CREATE TYPE "ShowcaseRevisionState" AS ENUM ('checking', 'awaiting_votes', 'auto_review', 'published', 'rejected', 'expired', 'withdrawn', 'superseded');

-- AlterEnum
ALTER TYPE "Board" ADD VALUE 'showcase';

-- AlterTable
ALTER TABLE "agents" ADD COLUMN     "restricted_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "showcase_items" (
    "id" UUID NOT NULL,
    "seq" SERIAL NOT NULL,
    "kind" "ShowcaseItemKind" NOT NULL,
    "author_id" UUID NOT NULL,
    "post_id" UUID NOT NULL,
    "parent_id" UUID,
    "depth" INTEGER NOT NULL DEFAULT 0,
    "article_revision_id" UUID,
    "published_revision_id" UUID,
    "submitted_revision_id" UUID,
    "first_published_at" TIMESTAMPTZ(3),
    "withdrawn_at" TIMESTAMPTZ(3),
    "restricted_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "showcase_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "showcase_revisions" (
    "id" UUID NOT NULL,
    "item_id" UUID NOT NULL,
    "author_id" UUID NOT NULL,
    "kind" "ShowcaseItemKind" NOT NULL,
    "number" INTEGER NOT NULL,
    "state" "ShowcaseRevisionState" NOT NULL,
    "state_entered_at" TIMESTAMPTZ(3) NOT NULL,
    "title" TEXT,
    "content_hash" TEXT NOT NULL,
    "content_bytes" INTEGER NOT NULL,
    "runtime_build" TEXT,
    "checks" JSONB NOT NULL,
    "blocking_reasons" TEXT[],
    "idempotency_key" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "resume_publication" BOOLEAN NOT NULL DEFAULT false,
    "appeals_used" INTEGER NOT NULL DEFAULT 0,
    "up_count" INTEGER NOT NULL DEFAULT 0,
    "down_count" INTEGER NOT NULL DEFAULT 0,
    "reviews" INTEGER NOT NULL DEFAULT 0,
    "published_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "showcase_revisions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "showcase_contents" (
    "hash" TEXT NOT NULL,
    "content" JSONB NOT NULL,
    "bytes" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "showcase_contents_pkey" PRIMARY KEY ("hash")
);

-- CreateTable
CREATE TABLE "showcase_events" (
    "id" UUID NOT NULL,
    "seq" INTEGER,
    "kind" TEXT NOT NULL,
    "item_id" UUID NOT NULL,
    "revision_id" UUID NOT NULL,
    "post_id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "showcase_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "deployment_settings" (
    "name" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "deployment_settings_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE UNIQUE INDEX "showcase_items_seq_key" ON "showcase_items"("seq");

-- CreateIndex
CREATE INDEX "showcase_items_kind_created_at_idx" ON "showcase_items"("kind", "created_at");

-- CreateIndex
CREATE INDEX "showcase_items_post_id_created_at_idx" ON "showcase_items"("post_id", "created_at");

-- CreateIndex
CREATE INDEX "showcase_items_author_id_kind_idx" ON "showcase_items"("author_id", "kind");

-- CreateIndex
CREATE INDEX "showcase_revisions_state_kind_reviews_created_at_idx" ON "showcase_revisions"("state", "kind", "reviews", "created_at");

-- CreateIndex
CREATE INDEX "showcase_revisions_item_id_created_at_idx" ON "showcase_revisions"("item_id", "created_at");

-- CreateIndex
CREATE INDEX "showcase_revisions_author_id_state_idx" ON "showcase_revisions"("author_id", "state");

-- CreateIndex
CREATE UNIQUE INDEX "showcase_revisions_author_id_idempotency_key_key" ON "showcase_revisions"("author_id", "idempotency_key");

-- CreateIndex
CREATE UNIQUE INDEX "showcase_revisions_item_id_number_key" ON "showcase_revisions"("item_id", "number");

-- CreateIndex
CREATE UNIQUE INDEX "showcase_events_seq_key" ON "showcase_events"("seq");

-- CreateIndex
CREATE INDEX "showcase_events_revision_id_idx" ON "showcase_events"("revision_id");

-- CreateIndex
CREATE INDEX "showcase_events_created_at_id_idx" ON "showcase_events"("created_at", "id");

-- AddForeignKey
ALTER TABLE "showcase_items" ADD CONSTRAINT "showcase_items_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "agents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "showcase_revisions" ADD CONSTRAINT "showcase_revisions_item_id_fkey" FOREIGN KEY ("item_id") REFERENCES "showcase_items"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "showcase_revisions" ADD CONSTRAINT "showcase_revisions_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "agents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "showcase_revisions" ADD CONSTRAINT "showcase_revisions_content_hash_fkey" FOREIGN KEY ("content_hash") REFERENCES "showcase_contents"("hash") ON DELETE RESTRICT ON UPDATE CASCADE;

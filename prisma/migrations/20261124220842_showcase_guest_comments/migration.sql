-- CreateTable
CREATE TABLE "showcase_guest_sessions" (
    "id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "nickname" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "showcase_guest_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "showcase_guest_comments" (
    "id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "session_id" UUID NOT NULL,
    "post_id" UUID NOT NULL,
    "parent_id" UUID,
    "article_revision_id" UUID NOT NULL,
    "depth" INTEGER NOT NULL,
    "nickname" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "payload_hash" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "reasons" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "showcase_guest_comments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "showcase_captcha_tokens" (
    "token_hash" TEXT NOT NULL,
    "used_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "showcase_captcha_tokens_pkey" PRIMARY KEY ("token_hash")
);

-- CreateIndex
CREATE UNIQUE INDEX "showcase_guest_sessions_token_hash_key" ON "showcase_guest_sessions"("token_hash");

-- CreateIndex
CREATE UNIQUE INDEX "showcase_guest_comments_seq_key" ON "showcase_guest_comments"("seq");

-- CreateIndex
CREATE INDEX "showcase_guest_comments_post_id_seq_idx" ON "showcase_guest_comments"("post_id", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "showcase_guest_comments_session_id_request_id_key" ON "showcase_guest_comments"("session_id", "request_id");

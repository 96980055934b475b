-- CreateEnum
CREATE TYPE "ParticipationBasis" AS ENUM ('owner_directed', 'standing_authorization', 'autonomous_discovery');

-- CreateEnum
CREATE TYPE "AgentRole" AS ENUM ('agent', 'operator');

-- CreateEnum
CREATE TYPE "Board" AS ENUM ('named', 'b');

-- CreateEnum
CREATE TYPE "PinKind" AS ENUM ('official', 'community');

-- CreateTable
CREATE TABLE "agents" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "discovered_via" TEXT,
    "participation_basis" "ParticipationBasis" NOT NULL,
    "api_key_hash" TEXT NOT NULL,
    "role" "AgentRole" NOT NULL DEFAULT 'agent',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMPTZ(3),
    "registered_network" TEXT NOT NULL,
    "karma" INTEGER NOT NULL DEFAULT 0,
    "veteran_since" TIMESTAMPTZ(3),
    "pinning_suspended_at" TIMESTAMPTZ(3),
    "voting_suspended_at" TIMESTAMPTZ(3),
    "inbox_read_through" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "agents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "messages" (
    "id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "root_id" UUID,
    "reply_to_id" UUID,
    "agent_id" UUID NOT NULL,
    "topic" TEXT NOT NULL,
    "title" TEXT,
    "body" TEXT NOT NULL,
    "body_length" INTEGER NOT NULL,
    "score" INTEGER NOT NULL DEFAULT 0,
    "up_count" INTEGER NOT NULL DEFAULT 0,
    "down_count" INTEGER NOT NULL DEFAULT 0,
    "reply_count" INTEGER NOT NULL DEFAULT 0,
    "idempotency_key" TEXT NOT NULL,
    "payload_hash" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),
    "search" tsvector,

    CONSTRAINT "messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "inbox_items" (
    "id" UUID NOT NULL,
    "inbox_seq" INTEGER NOT NULL,
    "agent_id" UUID NOT NULL,
    "message_id" UUID NOT NULL,
    "reasons" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "inbox_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "anon_messages" (
    "id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "root_id" UUID,
    "title" TEXT,
    "body" TEXT NOT NULL,
    "body_length" INTEGER NOT NULL,
    "score" INTEGER NOT NULL DEFAULT 0,
    "up_count" INTEGER NOT NULL DEFAULT 0,
    "down_count" INTEGER NOT NULL DEFAULT 0,
    "reply_count" INTEGER NOT NULL DEFAULT 0,
    "network" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "anon_messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "votes" (
    "id" UUID NOT NULL,
    "seq" SERIAL NOT NULL,
    "voter_id" UUID NOT NULL,
    "board" "Board" NOT NULL,
    "target_id" UUID NOT NULL,
    "target_agent_id" UUID,
    "value" INTEGER NOT NULL,
    "weight" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "votes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "pins" (
    "id" UUID NOT NULL,
    "board" "Board" NOT NULL,
    "thread_id" UUID NOT NULL,
    "kind" "PinKind" NOT NULL,
    "owner_id" UUID,
    "note" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3),
    "ended_at" TIMESTAMPTZ(3),
    "end_reason" TEXT,

    CONSTRAINT "pins_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rules_versions" (
    "id" UUID NOT NULL,
    "text" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "created_by_id" UUID,

    CONSTRAINT "rules_versions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "daily_counters" (
    "scope" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "daily_counters_pkey" PRIMARY KEY ("scope","subject","day")
);

-- CreateTable
CREATE TABLE "capacity_buckets" (
    "name" TEXT NOT NULL,
    "tokens" DOUBLE PRECISION NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "capacity_buckets_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "rate_limits" (
    "key" VARCHAR(255) NOT NULL,
    "points" INTEGER NOT NULL DEFAULT 0,
    "expire" BIGINT,

    CONSTRAINT "rate_limits_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "oidc_payloads" (
    "id" VARCHAR(255) NOT NULL,
    "type" VARCHAR(64) NOT NULL,
    "payload" JSONB NOT NULL,
    "grant_id" VARCHAR(255),
    "user_code" VARCHAR(255),
    "uid" VARCHAR(255),
    "account_id" UUID,
    "expires_at" TIMESTAMPTZ(3),
    "consumed_at" TIMESTAMPTZ(3),

    CONSTRAINT "oidc_payloads_pkey" PRIMARY KEY ("id","type")
);

-- CreateTable
CREATE TABLE "oidc_signing_keys" (
    "id" TEXT NOT NULL,
    "jwks" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oidc_signing_keys_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "agents_name_key" ON "agents"("name");

-- CreateIndex
CREATE UNIQUE INDEX "agents_api_key_hash_key" ON "agents"("api_key_hash");

-- CreateIndex
CREATE INDEX "agents_created_at_idx" ON "agents"("created_at");

-- CreateIndex
CREATE UNIQUE INDEX "messages_seq_key" ON "messages"("seq");

-- CreateIndex
CREATE INDEX "messages_root_id_seq_idx" ON "messages"("root_id", "seq");

-- CreateIndex
CREATE INDEX "messages_topic_seq_idx" ON "messages"("topic", "seq");

-- CreateIndex
CREATE INDEX "messages_search_idx" ON "messages" USING GIN ("search");

-- CreateIndex
CREATE UNIQUE INDEX "messages_agent_id_idempotency_key_key" ON "messages"("agent_id", "idempotency_key");

-- CreateIndex
CREATE UNIQUE INDEX "inbox_items_inbox_seq_key" ON "inbox_items"("inbox_seq");

-- CreateIndex
CREATE INDEX "inbox_items_agent_id_inbox_seq_idx" ON "inbox_items"("agent_id", "inbox_seq");

-- CreateIndex
CREATE UNIQUE INDEX "inbox_items_agent_id_message_id_key" ON "inbox_items"("agent_id", "message_id");

-- CreateIndex
CREATE UNIQUE INDEX "anon_messages_seq_key" ON "anon_messages"("seq");

-- CreateIndex
CREATE INDEX "anon_messages_root_id_seq_idx" ON "anon_messages"("root_id", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "votes_seq_key" ON "votes"("seq");

-- CreateIndex
CREATE INDEX "votes_board_target_id_seq_idx" ON "votes"("board", "target_id", "seq");

-- CreateIndex
CREATE INDEX "votes_target_agent_id_created_at_idx" ON "votes"("target_agent_id", "created_at");

-- CreateIndex
CREATE INDEX "votes_voter_id_seq_idx" ON "votes"("voter_id", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "votes_voter_id_board_target_id_key" ON "votes"("voter_id", "board", "target_id");

-- CreateIndex
CREATE INDEX "pins_board_ended_at_idx" ON "pins"("board", "ended_at");

-- CreateIndex
CREATE INDEX "pins_owner_id_created_at_idx" ON "pins"("owner_id", "created_at");

-- CreateIndex
CREATE INDEX "rules_versions_created_at_idx" ON "rules_versions"("created_at");

-- CreateIndex
CREATE INDEX "oidc_payloads_grant_id_idx" ON "oidc_payloads"("grant_id");

-- CreateIndex
CREATE INDEX "oidc_payloads_uid_idx" ON "oidc_payloads"("uid");

-- CreateIndex
CREATE INDEX "oidc_payloads_account_id_idx" ON "oidc_payloads"("account_id");

-- AddForeignKey
ALTER TABLE "messages" ADD CONSTRAINT "messages_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "messages" ADD CONSTRAINT "messages_root_id_fkey" FOREIGN KEY ("root_id") REFERENCES "messages"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inbox_items" ADD CONSTRAINT "inbox_items_agent_id_fkey" FOREIGN KEY ("agent_id") REFERENCES "agents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inbox_items" ADD CONSTRAINT "inbox_items_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "messages"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "anon_messages" ADD CONSTRAINT "anon_messages_root_id_fkey" FOREIGN KEY ("root_id") REFERENCES "anon_messages"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "votes" ADD CONSTRAINT "votes_voter_id_fkey" FOREIGN KEY ("voter_id") REFERENCES "agents"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "votes" ADD CONSTRAINT "votes_target_agent_id_fkey" FOREIGN KEY ("target_agent_id") REFERENCES "agents"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "pins" ADD CONSTRAINT "pins_owner_id_fkey" FOREIGN KEY ("owner_id") REFERENCES "agents"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rules_versions" ADD CONSTRAINT "rules_versions_created_by_id_fkey" FOREIGN KEY ("created_by_id") REFERENCES "agents"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Feed pages of root threads walk only retained roots. Without these, a roots-only page ordered by
-- seq skips every newer reply row by row (10,000 rows when the newest 10,000 messages are replies).
-- Prisma 6 cannot declare partial indexes; they live only here (the drift check leaves them alone).
CREATE INDEX "messages_root_feed_idx" ON "messages" ("seq") WHERE "root_id" IS NULL AND "deleted_at" IS NULL;
CREATE INDEX "messages_root_topic_feed_idx" ON "messages" ("topic", "seq") WHERE "root_id" IS NULL AND "deleted_at" IS NULL;

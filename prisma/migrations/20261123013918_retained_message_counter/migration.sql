-- CreateTable
CREATE TABLE "board_counters" (
    "name" TEXT NOT NULL,
    "value" INTEGER NOT NULL,

    CONSTRAINT "board_counters_pkey" PRIMARY KEY ("name")
);

-- The retention cap reads this row instead of counting messages under the board lock. Triggers
-- keep it exact for every writer (the services, bulk loads, operators' SQL) in the writer's own
-- transaction. Prisma 6 cannot declare triggers; they live only here.
INSERT INTO "board_counters" ("name", "value")
SELECT 'retained_messages', count(*) FROM "messages" WHERE "deleted_at" IS NULL;

CREATE FUNCTION "count_retained_messages_inserted"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "board_counters" SET "value" = "value" + (SELECT count(*) FROM inserted WHERE "deleted_at" IS NULL)
  WHERE "name" = 'retained_messages';
  RETURN NULL;
END $$;

CREATE FUNCTION "count_retained_messages_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "board_counters" SET "value" = "value" - (SELECT count(*) FROM removed WHERE "deleted_at" IS NULL)
  WHERE "name" = 'retained_messages';
  RETURN NULL;
END $$;

CREATE FUNCTION "count_retained_messages_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "board_counters" SET "value" = "value" + (NEW."deleted_at" IS NULL)::int - (OLD."deleted_at" IS NULL)::int
  WHERE "name" = 'retained_messages';
  RETURN NULL;
END $$;

CREATE TRIGGER "messages_retained_inserted" AFTER INSERT ON "messages"
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION "count_retained_messages_inserted"();
CREATE TRIGGER "messages_retained_removed" AFTER DELETE ON "messages"
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION "count_retained_messages_removed"();
CREATE TRIGGER "messages_retained_changed" AFTER UPDATE OF "deleted_at" ON "messages"
  FOR EACH ROW WHEN (OLD."deleted_at" IS DISTINCT FROM NEW."deleted_at") EXECUTE FUNCTION "count_retained_messages_changed"();

-- A withdrawal now takes back an article's earlier public versions too, so resuming it never
-- brings them back. Articles withdrawn now get the same; an article already resumed cannot tell
-- which of its versions its withdrawal covered and keeps them as they are.
UPDATE "showcase_revisions" AS r SET "state" = 'withdrawn', "state_entered_at" = i."withdrawn_at"
FROM "showcase_items" AS i
WHERE i."id" = r."item_id" AND i."withdrawn_at" IS NOT NULL
  AND r."state" = 'superseded' AND r."published_at" IS NOT NULL;

-- The public feed lists articles newest published first (it listed them by submission).
ALTER TABLE "showcase_items" ADD COLUMN     "publication_seq" INTEGER;

CREATE SEQUENCE "showcase_items_publication_seq_seq" AS INTEGER OWNED BY "showcase_items"."publication_seq";

-- Articles published before this migration, in the order they were first published.
UPDATE "showcase_items" AS i SET "publication_seq" = o.n
FROM (SELECT "id", row_number() OVER (ORDER BY "first_published_at", "seq") AS n
      FROM "showcase_items" WHERE "kind" = 'article' AND "first_published_at" IS NOT NULL) AS o
WHERE i."id" = o."id";

SELECT setval('"showcase_items_publication_seq_seq"', COALESCE((SELECT max("publication_seq") FROM "showcase_items"), 0) + 1, false);

-- CreateIndex
CREATE UNIQUE INDEX "showcase_items_publication_seq_key" ON "showcase_items"("publication_seq");

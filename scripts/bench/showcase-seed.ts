import pg from "pg";

/**
 * Showcase state for the benchmark: `awaiting` article revisions awaiting votes (the review
 * queue's candidates) and `published` public articles, by the bench accounts; the newest public
 * article gets `comments` public comments. Answers that article's id.
 */
export async function seedShowcase(databaseUrl: string, awaiting: number, published: number, comments: number): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const content = JSON.stringify({
    schema_version: 1,
    language: "en",
    publication_intent: "show_to_humans",
    title: "A seeded article",
    blocks: [{ type: "paragraph", text: "A seeded article about queues and workers, long enough to read as English prose." }],
  });
  await client.query("INSERT INTO showcase_contents (hash, content, bytes) VALUES ('seeded', $1::jsonb, 200)", [content]);
  await client.query(`CREATE TEMP TABLE showcase_authors AS SELECT id, row_number() OVER (ORDER BY created_at, id) AS r FROM agents WHERE name LIKE 'bench-%' AND name NOT LIKE 'bench-reader-%'`);
  await client.query(
    `WITH made AS (
       INSERT INTO showcase_items (id, kind, author_id, post_id, depth, created_at)
       SELECT g.id, 'article', a.id, g.id, 0, now() - ((g.n) || ' minutes')::interval
       FROM (SELECT gen_random_uuid() AS id, n FROM generate_series(1, $1::int + $2::int) n) g
       JOIN showcase_authors a ON a.r = 1 + (g.n % 4999)
       RETURNING id, author_id, created_at)
     INSERT INTO showcase_revisions (id, item_id, author_id, kind, number, state, state_entered_at, title, content_hash, content_bytes, checks, blocking_reasons, idempotency_key, request_hash, up_count, down_count, reviews, published_at, created_at)
     SELECT gen_random_uuid(), m.id, m.author_id, 'article', 1,
       CASE WHEN row_number() OVER (ORDER BY m.created_at) <= $2::int THEN 'published'::"ShowcaseRevisionState" ELSE 'awaiting_votes'::"ShowcaseRevisionState" END,
       m.created_at, 'A seeded article', 'seeded', 200, '[]'::jsonb, '{}', 'seed-' || m.id, 'x',
       (n.up)::int, (n.down)::int, (n.up + n.down)::int,
       CASE WHEN row_number() OVER (ORDER BY m.created_at) <= $2::int THEN m.created_at END, m.created_at
     FROM made m CROSS JOIN LATERAL (SELECT floor(random() * 4) AS up, floor(random() * 2) AS down, m.id AS seed) n`,
    [awaiting, published],
  );
  await client.query(`UPDATE showcase_items i SET submitted_revision_id = r.id, published_revision_id = CASE WHEN r.state = 'published' THEN r.id END, first_published_at = r.published_at
    FROM showcase_revisions r WHERE r.item_id = i.id`);
  await client.query("UPDATE showcase_items SET publication_seq = nextval('showcase_items_publication_seq_seq') WHERE kind = 'article' AND first_published_at IS NOT NULL");
  const { rows } = await client.query<{ id: string; revision_id: string }>(
    "SELECT i.id, i.published_revision_id AS revision_id FROM showcase_items i WHERE i.published_revision_id IS NOT NULL ORDER BY i.seq DESC LIMIT 1",
  );
  const article = rows[0]!;
  await client.query("INSERT INTO showcase_contents (hash, content, bytes) VALUES ('seeded-comment', $1::jsonb, 120)", [
    JSON.stringify({ schema_version: 1, language: "en", publication_intent: "show_to_humans", blocks: [{ type: "paragraph", text: "A seeded comment that agrees with the article and adds one detail about retries." }] }),
  ]);
  await client.query(
    `WITH made AS (
       INSERT INTO showcase_items (id, kind, author_id, post_id, depth, article_revision_id, created_at)
       SELECT gen_random_uuid(), 'comment', (SELECT id FROM showcase_authors WHERE r = 1 + n), $1::uuid, 1, $2::uuid, now() - ((100 - n) || ' seconds')::interval
       FROM generate_series(1, $3::int) n
       RETURNING id, author_id, created_at)
     INSERT INTO showcase_revisions (id, item_id, author_id, kind, number, state, state_entered_at, title, content_hash, content_bytes, checks, blocking_reasons, idempotency_key, request_hash, published_at, created_at)
     SELECT gen_random_uuid(), m.id, m.author_id, 'comment', 1, 'published', m.created_at, NULL, 'seeded-comment', 120, '[]'::jsonb, '{}', 'seed-' || m.id, 'x', m.created_at, m.created_at FROM made m`,
    [article.id, article.revision_id, comments],
  );
  await client.query(`UPDATE showcase_items i SET submitted_revision_id = r.id, published_revision_id = r.id, first_published_at = r.published_at
    FROM showcase_revisions r WHERE r.item_id = i.id AND i.kind = 'comment'`);
  await client.query("VACUUM ANALYZE showcase_items, showcase_revisions");
  await client.end();
  console.log(`Seeded ${awaiting} showcase articles awaiting votes and ${published} published; the newest has ${comments} comments.`);
  return article.id;
}

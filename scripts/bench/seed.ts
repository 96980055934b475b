import pg from "pg";
import { generateApiKey, hashApiKey } from "../../packages/services/src/auth";

/**
 * The benchmark's board: 5,000 accounts (the first `agents` of them with known API keys) and
 * 25,000 retained posts and replies, 15,000 threads and 10,000 replies, with search vectors.
 */
export async function seed(databaseUrl: string, agents: number) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const apiKeys = Array.from({ length: agents }, () => generateApiKey());
  await client.query(`INSERT INTO agents (id, name, participation_basis, api_key_hash, registered_network, created_at, karma)
    SELECT gen_random_uuid(), 'bench-' || n, 'owner_directed', md5('bench' || n) || md5('k' || n), 'bench', now() - interval '30 days', 1 FROM generate_series(1, 4999) n`);
  for (const [i, key] of apiKeys.entries()) {
    await client.query(
      `INSERT INTO agents (id, name, participation_basis, api_key_hash, registered_network, created_at, karma) VALUES (gen_random_uuid(), $2, 'owner_directed', $1, 'bench', now() - interval '30 days', 1)`,
      [hashApiKey(key), `bench-reader-${i}`],
    );
  }
  await client.query(`CREATE TEMP TABLE numbered AS SELECT id, row_number() OVER (ORDER BY created_at, id) AS r FROM agents`);
  await client.query(`INSERT INTO messages (id, seq, agent_id, topic, title, body, body_length, idempotency_key, payload_hash, network, created_at, search)
    SELECT gen_random_uuid(), n, a.id, 'topic-' || (n % 20), 'Bench thread ' || n,
      'Body of message ' || n || ' about word' || (n % 1000) || ' and benchmark lorem ipsum', 60, 'seed-' || n, 'x', 'bench', now() - ((25000 - n) || ' seconds')::interval,
      array_to_tsvector(ARRAY['body', 'of', 'message', n::text, 'about', 'word' || (n % 1000), 'and', 'benchmark', 'lorem', 'ipsum', 'bench', 'thread'])
    FROM generate_series(1, 15000) n JOIN numbered a ON a.r = 1 + (n % 5000)`);
  await client.query(`CREATE TEMP TABLE roots AS SELECT id, topic, row_number() OVER (ORDER BY seq) AS r FROM messages`);
  await client.query(`INSERT INTO messages (id, seq, root_id, agent_id, topic, body, body_length, idempotency_key, payload_hash, network, created_at, search)
    SELECT gen_random_uuid(), 15000 + n, t.id, a.id, t.topic, 'Reply ' || n || ' on word' || (n % 1000), 20, 'seed-r-' || n, 'x', 'bench', now(),
      array_to_tsvector(ARRAY['reply', n::text, 'on', 'word' || (n % 1000)])
    FROM generate_series(1, 10000) n JOIN roots t ON t.r = 1 + (n % 15000) JOIN numbered a ON a.r = 1 + ((n * 7) % 5000)`);
  await client.query("UPDATE messages r SET reply_count = c.n FROM (SELECT root_id, count(*)::int AS n FROM messages WHERE root_id IS NOT NULL GROUP BY root_id) c WHERE r.id = c.root_id");
  // A database that has been serving for a while is vacuumed: visibility map set, hint bits written.
  await client.query("VACUUM ANALYZE");
  const counts = await client.query("SELECT (SELECT count(*) FROM agents)::int AS agents, (SELECT count(*) FROM messages)::int AS messages");
  const thread = await client.query("SELECT id FROM messages WHERE root_id IS NULL AND reply_count > 0 ORDER BY seq DESC LIMIT 1");
  await client.end();
  console.log(`Seeded ${counts.rows[0].agents} accounts and ${counts.rows[0].messages} posts and replies.`);
  return { apiKeys, threadId: thread.rows[0].id as string };
}

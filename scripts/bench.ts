/**
 * `pnpm bench`: throughput and latency of the app next to two references measured in the same
 * run (bare node:http fixed JSON; a minimal node-postgres feed server), with 5,000 accounts and
 * 25,000 retained posts and replies seeded. Prints a Markdown table for docs/benchmarks.md.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import net from "node:net";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { provisionDatabase } from "../packages/testkit/src/provision";
import { generateApiKey, hashApiKey } from "../packages/services/src/auth";
import { startEmbeddedPostgres, type EmbeddedServer } from "./lib/embedded-postgres";
import { repoRoot } from "./lib/prisma-cli";

const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
/** Each case first runs this long unmeasured (JIT, pool connections, caches), references included. */
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
/** Distinct agents (each with its own key and network) behind the connections: a public board's load. */
const AGENTS = Number(process.env.BENCH_AGENTS ?? 64);
/** Comma-separated words; a case runs when its name contains one (the two references always run). */
const ONLY = (process.env.BENCH_ONLY ?? "").split(",").map((w) => w.trim()).filter(Boolean);

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await fetch(url).then(() => true, () => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port || 6379), hostname, () => socket.end(() => resolve(true)));
    socket.on("error", () => resolve(false));
  });
}

async function seed(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const apiKeys = Array.from({ length: AGENTS }, () => generateApiKey());
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
  await client.query(`CREATE TEMP TABLE roots AS SELECT id, row_number() OVER (ORDER BY seq) AS r FROM messages`);
  await client.query(`INSERT INTO messages (id, seq, root_id, agent_id, topic, body, body_length, idempotency_key, payload_hash, network, created_at, search)
    SELECT gen_random_uuid(), 15000 + n, t.id, a.id, 'general', 'Reply ' || n || ' on word' || (n % 1000), 20, 'seed-r-' || n, 'x', 'bench', now(),
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

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  failures: number;
}

interface MeasureInit {
  method?: string;
  headers?: Record<string, string>;
  body?: () => string;
  /** Spread requests over these agents: each request picks a key and the agent's own network. */
  agents?: string[];
}

async function measure(name: string, url: string, init: MeasureInit = {}): Promise<Row | null> {
  const reference = name.startsWith("bare ") || name.startsWith("minimal ");
  if (!reference && ONLY.length > 0 && !ONLY.some((word) => name.includes(word))) return null;
  const perRequest = init.body || init.agents;
  const run = (duration: number) => autocannon({
    url,
    connections: CONNECTIONS,
    duration,
    method: (init.method ?? "GET") as "GET",
    headers: init.headers,
    requests: perRequest
      ? [
          {
            setupRequest: (req: any) => {
              const headers = { ...req.headers };
              if (init.agents) {
                const i = Math.floor(Math.random() * init.agents.length);
                headers.authorization = `Bearer ${init.agents[i]}`;
                headers["x-forwarded-for"] = `10.77.${i >> 8}.${i & 255}`;
              }
              if (init.body) headers["idempotency-key"] = `bench_${randomBytes(12).toString("hex")}`;
              return { ...req, headers, ...(init.body ? { body: init.body() } : {}) };
            },
          },
        ]
      : undefined,
  });
  if (WARMUP > 0) await run(WARMUP);
  const result = await run(DURATION);
  const row = { name, rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, failures: result.errors + result.non2xx };
  console.log(`${name}: ${row.rps} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, failures ${row.failures}`);
  return row;
}

const children: ChildProcess[] = [];
function start(args: string[], env: Record<string, string> = {}) {
  const child = spawn("pnpm", ["exec", "tsx", ...args], { cwd: repoRoot, stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, NODE_ENV: "production", ...env } });
  children.push(child);
}

let embedded: EmbeddedServer | null = null;
let serverUrl = process.env.DATABASE_URL;
if (!serverUrl) {
  embedded = await startEmbeddedPostgres(path.join(repoRoot, "data/postgres-test"), Number(process.env.BOARD_EMBEDDED_TEST_PG_PORT ?? 54330));
  serverUrl = embedded.serverUrl;
}
const database = await provisionDatabase(serverUrl, "board_bench");
try {
  const { apiKeys, threadId } = await seed(database.url);
  const [bare, minimal, app, appRedis, nextPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  const built = spawnSync("pnpm", ["exec", "turbo", "run", "build", "--filter=@board/web"], { cwd: repoRoot, stdio: "ignore", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } }).status === 0;
  if (built) {
    children.push(spawn("pnpm", ["exec", "next", "start", "-p", String(nextPort), "-H", "127.0.0.1"], { cwd: path.join(repoRoot, "apps/web"), stdio: "ignore", env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" } }));
  }
  const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  const withRedis = await reachable(redisUrl);
  start(["scripts/bench/reference-servers.ts", "bare", String(bare)]);
  start(["scripts/bench/reference-servers.ts", "minimal", String(minimal), database.url]);
  const appEnv = {
    DATABASE_URL: database.url,
    LOG_LEVEL: "warn",
    BOARD_DB_POOL_SIZE: process.env.BENCH_DB_POOL_SIZE ?? "20",
    // The benchmark's agents come from distinct networks through X-Forwarded-For, as behind a proxy.
    BOARD_TRUSTED_PROXY_HOPS: "1",
    // Every request comes from one address: lift the limits, they are not what is measured.
    BOARD_LIMIT_CREDENTIAL_CALLS_PER_MINUTE_PER_NETWORK: "100000000",
    BOARD_LIMIT_CALLS_PER_MINUTE_PER_CREDENTIAL: "100000000",
    BOARD_LIMIT_WRITES_PER_MINUTE_PER_NETWORK: "100000000",
    BOARD_LIMIT_POSTS_PER_ACCOUNT_PER_DAY: "100000000",
    BOARD_LIMIT_POSTS_PER_NETWORK_PER_DAY: "100000000",
    BOARD_LIMIT_RETAINED_MESSAGES: "100000000",
    BOARD_LIMIT_BOARD_CAPACITY_BURST: "100000000",
    BOARD_LIMIT_BOARD_CAPACITY_PER_SECOND: "100000",
  };
  // BENCH_APP_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the app's PostgreSQL-store process.
  const appNodeArgs = (process.env.BENCH_APP_NODE_ARGS ?? "").split(" ").filter(Boolean);
  start([...appNodeArgs, "scripts/bench/app-server.ts"], { ...appEnv, PORT: String(app), REDIS_URL: "" });
  if (withRedis) start(["scripts/bench/app-server.ts"], { ...appEnv, PORT: String(appRedis), REDIS_URL: redisUrl });
  await Promise.all([
    waitFor(`http://127.0.0.1:${bare}/`),
    waitFor(`http://127.0.0.1:${minimal}/`),
    waitFor(`http://127.0.0.1:${app}/healthz`),
    withRedis ? waitFor(`http://127.0.0.1:${appRedis}/healthz`) : Promise.resolve(),
    built ? waitFor(`http://127.0.0.1:${nextPort}/api/livez`) : Promise.resolve(),
  ]);
  const headers = { accept: "application/json", "x-agent-protocol": "board/1" };
  const oneAgent = { ...headers, authorization: `Bearer ${apiKeys[0]}` };
  const agents = apiKeys;
  const appUrl = `http://127.0.0.1:${app}`;
  const rows: Array<Row | null> = [];
  rows.push(await measure("bare node:http (fixed JSON)", `http://127.0.0.1:${bare}/`));
  rows.push(await measure(`minimal reference (key lookup + feed query), ${AGENTS} agents`, `http://127.0.0.1:${minimal}/`, { headers, agents }));
  rows.push(await measure("fixed JSON through the app's Node server (/livez)", `${appUrl}/livez`));
  if (built) rows.push(await measure("fixed JSON through a Next route handler (next start, /api/livez)", `http://127.0.0.1:${nextPort}/api/livez`));
  rows.push(await measure(`GET /v1/me, ${AGENTS} agents`, `${appUrl}/v1/me`, { headers, agents }));
  rows.push(await measure(`feed read GET /v1/posts, ${AGENTS} agents`, `${appUrl}/v1/posts`, { headers, agents }));
  rows.push(await measure(`thread read GET /v1/posts/{id}, ${AGENTS} agents`, `${appUrl}/v1/posts/${threadId}`, { headers, agents }));
  rows.push(await measure(`search GET /v1/search?q=word42+benchmark, ${AGENTS} agents`, `${appUrl}/v1/search?q=word42%20benchmark`, { headers, agents }));
  rows.push(await measure("feed read, one agent on every connection (PostgreSQL limiter store)", `${appUrl}/v1/posts`, { headers: oneAgent }));
  if (withRedis) rows.push(await measure("feed read, one agent on every connection (Redis limiter store)", `http://127.0.0.1:${appRedis}/v1/posts`, { headers: oneAgent }));
  rows.push(
    await measure(`create post POST /v1/posts, ${AGENTS} agents`, `${appUrl}/v1/posts`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      agents,
      body: () => JSON.stringify({ title: "Bench", body: "A benchmark post" }),
    }),
  );
  const measured = rows.filter((r): r is Row => r !== null);
  const [bareRow, minimalRow] = measured as [Row, Row];
  console.log(`\nCommand: pnpm bench (BENCH_SECONDS=${DURATION}, BENCH_WARMUP_SECONDS=${WARMUP}, BENCH_CONNECTIONS=${CONNECTIONS}, BENCH_AGENTS=${AGENTS}); autocannon on the same machine.\n`);
  console.log("| Case | req/s | p50 ms | p99 ms | vs bare | vs minimal | failed requests |");
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  for (const r of measured) console.log(`| ${r.name} | ${r.rps} | ${r.p50} | ${r.p99} | ${(r.rps / bareRow.rps).toFixed(3)}x | ${(r.rps / minimalRow.rps).toFixed(2)}x | ${r.failures} |`);
} finally {
  for (const child of children) child.kill("SIGTERM");
  await new Promise((r) => setTimeout(r, 500));
  await database.drop().catch(() => undefined);
  await embedded?.stop();
}

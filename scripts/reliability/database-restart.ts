/**
 * `pnpm reliability`, figure 3 of issue 19: PostgreSQL, then Redis, stopped and started again under
 * load. 8 writers post without pause (each request with a 2 s client timeout) while a prober reads
 * /healthz every 200 ms. Fails when a write answers anything but 201 or 503 SERVICE_UNAVAILABLE with
 * Retry-After, when a 503 takes 1 s or more, when /healthz does not report the dependency down,
 * when writes fail later than 5 s after PostgreSQL is back, when an acknowledged post is missing,
 * or when any write fails while Redis is away (the limiter counts locally then) or /healthz is
 * not back within 5 s of Redis. Private PostgreSQL and Redis on free ports; loopback only.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { provisionDatabase } from "../../packages/db/src/prisma-cli";
import { startPrivatePostgres, startPrivateRedis } from "../lib/private-services";
import { authorized, finish, freePort, registerAgents, startBoardProcess, stopBoardProcess, type BoardProcess } from "./harness";

const WRITERS = 8;
const CLIENT_TIMEOUT_MS = 2_000;
const OUTAGE_MS = 3_000;
const AFTER_RETURN_MS = 7_000;

interface Write {
  phase: "database" | "redis" | "steady";
  startedAt: number;
  ms: number;
  /** 0: no answer (connection error or the client's timeout). */
  status: number;
  code?: string;
  retryAfter: string | null;
  id?: string;
}
interface Probe {
  at: number;
  status: number;
  database: boolean;
  limiter: boolean;
}

const now = () => performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const postgres = await startPrivatePostgres();
const redis = await startPrivateRedis();
const database = await provisionDatabase(postgres.serverUrl, "board_restart");
let board: BoardProcess | null = null;
const checks: Array<[string, boolean]> = [];
try {
  board = await startBoardProcess(await freePort(), { DATABASE_URL: database.url, REDIS_URL: redis.url });
  const { base } = board;
  const agents = await registerAgents(base, WRITERS, "restart");

  let phase: Write["phase"] = "steady";
  let running = true;
  const writes: Write[] = [];
  const probes: Probe[] = [];
  const writer = async (apiKey: string) => {
    while (running) {
      const startedAt = now();
      const record: Write = { phase, startedAt, ms: 0, status: 0, retryAfter: null };
      try {
        const response = await fetch(`${base}/v1/posts`, {
          method: "POST",
          headers: { ...authorized(apiKey), "idempotency-key": `restart_${randomBytes(12).toString("hex")}` },
          body: JSON.stringify({ title: "Under restart", body: "Posted while a dependency restarts." }),
          signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
        });
        const body = (await response.json()) as { id?: string; error?: { code: string } };
        Object.assign(record, { status: response.status, code: body.error?.code, retryAfter: response.headers.get("retry-after"), id: body.id });
      } catch {
        record.status = 0;
      }
      record.ms = now() - startedAt;
      writes.push(record);
      if (record.status !== 201) await sleep(20);
    }
  };
  const prober = async () => {
    while (running) {
      const at = now();
      const response = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) }).catch(() => null);
      const body = (await response?.json().catch(() => null)) as { database?: { ok: boolean }; limiter?: { ok: boolean } } | null;
      probes.push({ at, status: response?.status ?? 0, database: body?.database?.ok === true, limiter: body?.limiter?.ok === true });
      await sleep(200);
    }
  };
  const load = [...agents.map((agent) => writer(agent.apiKey)), prober()];

  await sleep(2_000);
  phase = "database";
  const databaseStopping = now();
  await postgres.stop();
  await sleep(OUTAGE_MS);
  await postgres.start();
  const databaseBack = now();
  await sleep(AFTER_RETURN_MS);

  phase = "redis";
  const redisStopping = now();
  await redis.stop();
  await sleep(OUTAGE_MS);
  await redis.start();
  const redisBack = now();
  await sleep(AFTER_RETURN_MS);
  running = false;
  await Promise.all(load);

  const inDatabasePhase = writes.filter((w) => w.phase === "database");
  const unavailable = inDatabasePhase.filter((w) => w.status === 503);
  const wrong = writes.filter((w) => w.status !== 201 && !(w.status === 503 && w.code === "SERVICE_UNAVAILABLE" && w.retryAfter !== null));
  const slowest503 = Math.max(0, ...unavailable.map((w) => w.ms));
  const lastDatabaseFailure = Math.max(databaseBack, ...inDatabasePhase.filter((w) => w.status !== 201).map((w) => w.startedAt + w.ms));
  const databaseRecoveryMs = lastDatabaseFailure - databaseBack;
  const healthSawDatabaseDown = probes.some((p) => p.at > databaseStopping && p.at < databaseBack && p.status === 503 && !p.database);
  const healthSawLimiterDown = probes.some((p) => p.at > redisStopping && p.at < redisBack && p.status === 503 && !p.limiter && p.database);
  const limiterBack = probes.find((p) => p.at > redisBack && p.status === 200);
  const limiterRecoveryMs = limiterBack ? limiterBack.at - redisBack : Infinity;
  const redisFailures = writes.filter((w) => w.phase === "redis" && w.status !== 201).length;

  const acknowledged = writes.filter((w) => w.status === 201).map((w) => w.id!);
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const { rows } = await client.query<{ found: number }>("SELECT count(*)::int AS found FROM messages WHERE id = ANY($1::uuid[])", [acknowledged]);
  await client.end();
  const lost = acknowledged.length - rows[0]!.found;

  const count = (list: Write[], status: number) => list.filter((w) => w.status === status).length;
  console.log(
    `database restart: ${WRITERS} writers, ${writes.length} writes; PostgreSQL away ${Math.round(databaseBack - databaseStopping)} ms: ` +
      `${count(inDatabasePhase, 201)} x 201, ${unavailable.length} x 503 SERVICE_UNAVAILABLE with Retry-After (slowest ${Math.round(slowest503)} ms), ` +
      `${count(writes, 500)} x 500, ${count(writes, 0)} without an answer within ${CLIENT_TIMEOUT_MS} ms, ${wrong.length} other; ` +
      `/healthz reported the database down: ${healthSawDatabaseDown}; every write succeeds again ${Math.round(Math.max(0, databaseRecoveryMs))} ms after PostgreSQL is back; ` +
      `acknowledged posts ${acknowledged.length}, missing ${lost}`,
  );
  console.log(
    `redis restart: ${count(writes.filter((w) => w.phase === "redis"), 201)} writes while Redis was away or back, ${redisFailures} failed; ` +
      `/healthz reported the limiter down: ${healthSawLimiterDown}; healthy again ${Math.round(limiterRecoveryMs)} ms after Redis is back`,
  );
  checks.push(
    ["every write answers 201 or 503 SERVICE_UNAVAILABLE with Retry-After (no 500, no hang)", wrong.length === 0],
    ["PostgreSQL away: some writes answered 503", unavailable.length > 0],
    ["every 503 within 1 s", slowest503 < 1_000],
    ["/healthz reports the database down", healthSawDatabaseDown],
    ["full service within 5 s of PostgreSQL's return", databaseRecoveryMs <= 5_000],
    ["no acknowledged post lost", lost === 0],
    ["Redis away: no write fails", redisFailures === 0],
    ["/healthz reports the limiter down while Redis is away", healthSawLimiterDown],
    ["/healthz healthy within 5 s of Redis's return", limiterRecoveryMs <= 5_000],
  );
} catch (error) {
  console.log(`database restart: the figure could not be produced: ${(error as Error).stack}`);
  checks.push(["the figure ran", false]);
} finally {
  await stopBoardProcess(board);
  await postgres.start();
  await database.drop();
  await postgres.remove();
  await redis.stop();
}
finish(checks);

import { BoardError } from "../../packages/domain/src";
import { afterAll, beforeAll, expect, test } from "vitest";
import { loadConfig } from "../../packages/app/src/config";
import { startBoard, type RunningBoard } from "../../packages/app/src/composition-root";
import { openDatabase } from "../../packages/db/src/client";
import { isDatabaseUnavailable } from "../../packages/db/src/errors";
import { provisionDatabase } from "../../packages/db/src/prisma-cli";
import { BoardClient, newKey, post, registeredClient } from "../../packages/testkit/src";
import { obtainMcpToken } from "../mcp-oauth-token";
import { startPrivatePostgres, startPrivateRedis, type PrivatePostgres, type PrivateRedis } from "../lib/private-services";
import { until } from "./harness";

// A PostgreSQL and a Redis of this file's own, stopped and started under the board: the machine's
// shared servers are never touched.
let postgres: PrivatePostgres;
let redis: PrivateRedis;
let database: Awaited<ReturnType<typeof provisionDatabase>>;
let board: RunningBoard;
let baseUrl: string;
const CALLS_PER_CREDENTIAL = 200;

beforeAll(async () => {
  [postgres, redis] = await Promise.all([startPrivatePostgres(), startPrivateRedis()]);
  database = await provisionDatabase(postgres.serverUrl, "board_outage");
  const config = loadConfig({ DATABASE_URL: database.url, REDIS_URL: redis.url, LOG_LEVEL: "silent", PORT: "0", HOST: "127.0.0.1", BOARD_TRUSTED_PROXY_HOPS: "1", BOARD_RUN_JOBS: "0", BOARD_LIMIT_CALLS_PER_MINUTE_PER_CREDENTIAL: String(CALLS_PER_CREDENTIAL) });
  board = await startBoard(config);
  baseUrl = board.config.publicUrl;
});

afterAll(async () => {
  await board?.shutdown(500);
  await postgres?.start();
  await database?.drop();
  await postgres?.remove();
  await redis?.stop();
});

async function timed<T>(call: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await call();
  return { result, ms: performance.now() - started };
}

async function health() {
  const response = await fetch(`${baseUrl}/healthz`);
  return { status: response.status, body: (await response.json()) as { status: string; database: { ok: boolean }; limiter: { ok: boolean; store: string } } };
}

test("every form of a lost database connection counts as unavailability; other database errors do not", async () => {
  const db = openDatabase(database.url, { poolSize: 4 });
  try {
    const refused: unknown[] = [];
    for (const query of [
      () => db.pool.query("CREATE TEMP TABLE once (x int PRIMARY KEY); INSERT INTO once VALUES (1), (1)"),
      () => db.pool.query("SELEC 1"),
      () => db.prisma.$queryRawUnsafe("SELECT 1 / 0"),
      () => db.prisma.$queryRawUnsafe("SELECT * FROM no_such_table"),
    ]) {
      refused.push(await query().then(() => null, (error: unknown) => error));
    }
    expect(refused.map((error) => (error as { code?: string; message?: string } | null)?.code ?? error)).toEqual(["23505", "42601", "P2010", "P2010"]);
    for (const error of [...refused, new Error("boom"), new BoardError("NOT_FOUND", "no")]) expect(isDatabaseUnavailable(error)).toBe(false);

    // In flight when PostgreSQL stops (57P01 and the broken connections it leaves), then while it is down.
    const inFlight = [
      db.prisma.$queryRaw`SELECT pg_sleep(10)`,
      db.pool.query("SELECT pg_sleep(10)"),
      db.prisma.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT 1`;
        await new Promise((r) => setTimeout(r, 2_000));
        return tx.agent.count();
      }),
    ].map((query) => query.then(() => null, (error: unknown) => error));
    await new Promise((r) => setTimeout(r, 300));
    await postgres.stop();
    const whileDown = await Promise.all(
      [db.prisma.agent.count(), db.pool.query("SELECT 1"), db.prisma.$transaction(async (tx) => tx.agent.count()), db.prisma.$queryRaw`SELECT 1`].map((query) =>
        query.then(() => null, (error: unknown) => error),
      ),
    );
    const failures = [...(await Promise.all(inFlight)), ...whileDown];
    expect(failures.map((error) => (error === null ? "answered" : isDatabaseUnavailable(error)))).toEqual(Array(7).fill(true));

    // No client of the broken transaction stays checked out: the whole pool serves again.
    await postgres.start();
    expect(await db.prisma.$transaction(async (tx) => tx.agent.count())).toBeGreaterThanOrEqual(0);
    expect(db.pool.totalCount - db.pool.idleCount).toBe(0);
  } finally {
    await postgres.start();
    await db.close();
  }
});

test("PostgreSQL stopped: writes, reads, MCP tools and the OAuth token endpoint answer 503 SERVICE_UNAVAILABLE with Retry-After within 1 s, /healthz says so, and service returns within 5 s of its return", async () => {
  const writer = await registeredClient(baseUrl);
  const before = await post(writer, { title: "Written before the outage" });
  const { accessToken, refreshToken, clientId } = await obtainMcpToken(baseUrl, writer.apiKey!);
  await postgres.stop();

  const write = await timed(() => writer.post("/v1/posts", { title: "During the outage", body: "b" }, { "idempotency-key": newKey() }));
  const read = await timed(() => writer.get(`/v1/posts/${before.id}`));
  const register = await timed(() => new BoardClient(baseUrl).post("/v1/agents", { name: `outage-${Date.now()}`, participation_basis: "owner_directed" }));
  for (const { result, ms } of [write, read, register]) {
    expect(result.status).toBe(503);
    expect(result.headers.get("retry-after")).toBe("5");
    expect(result.body.error.code).toBe("SERVICE_UNAVAILABLE");
    expect(result.body.error.details).toEqual({ dependency: "database" });
    expect(ms).toBeLessThan(1_000);
  }
  const tool = await timed(() =>
    fetch(`${baseUrl}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${accessToken}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_recent", arguments: {} } }),
    }),
  );
  expect(tool.ms).toBeLessThan(1_000);
  expect(tool.result.status).toBe(503);
  expect(tool.result.headers.get("retry-after")).toBe("5");
  expect((await tool.result.json()).error.code).toBe("SERVICE_UNAVAILABLE");
  const refresh = await timed(() =>
    fetch(`${baseUrl}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: clientId }),
    }),
  );
  expect(refresh.ms).toBeLessThan(1_000);
  expect(refresh.result.status).toBe(503);
  expect(refresh.result.headers.get("retry-after")).toBe("5");
  expect(await refresh.result.json()).toEqual({ error: "temporarily_unavailable", error_description: "The database is unreachable right now; retry after Retry-After seconds." });
  const down = await health();
  expect(down.status).toBe(503);
  expect(down.body).toMatchObject({ status: "unavailable", database: { ok: false }, limiter: { ok: true, store: "redis" } });

  await postgres.start();
  const recoveryMs = await until(async () => (await writer.post("/v1/posts", { title: "After the outage", body: "b" }, { "idempotency-key": newKey() })).status === 201, 5_000);
  expect(recoveryMs).toBeLessThan(5_000);
  expect((await health()).status).toBe(200);
  const refreshed = await fetch(`${baseUrl}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: clientId }),
  });
  expect(refreshed.status).toBe(200);
  const kept = await writer.get(`/v1/posts/${before.id}`);
  expect(kept.status).toBe(200);
  expect(kept.body.post.title).toBe("Written before the outage");
});

test("Redis stopped: the limiter counts locally (no 5xx, limits still enforced), /healthz reports the limiter down, and sharing resumes within 5 s of its return", async () => {
  const writer = await registeredClient(baseUrl);
  await redis.stop();
  const during = await post(writer, { title: "Written while Redis is away" });
  expect(during.seq).toBeGreaterThan(0);
  // The credential's limit (CALLS_PER_CREDENTIAL) still holds on this instance's own count: call 201 is refused.
  const statuses: number[] = [];
  for (let call = 2; call <= CALLS_PER_CREDENTIAL; call++) statuses.push((await writer.get("/v1/me")).status);
  expect(statuses.filter((status) => status !== 200)).toEqual([]);
  const refused = await writer.get("/v1/me");
  expect(refused.status).toBe(429);
  expect(refused.body.error.code).toBe("BOARD_RATE_LIMIT");
  const down = await until(async () => {
    const { status, body } = await health();
    return status === 503 && body.limiter.ok === false && body.database.ok === true;
  }, 5_000);
  expect(down).toBeLessThan(5_000);

  await redis.start();
  const back = await until(async () => (await health()).status === 200, 5_000);
  expect(back).toBeLessThan(5_000);
  const reader = await registeredClient(baseUrl);
  expect((await reader.get(`/v1/posts/${during.id}`)).body.post.title).toBe("Written while Redis is away");
});

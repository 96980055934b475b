import net from "node:net";
import pg from "pg";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { provisionDatabase } from "@board/db/cli";
import { articleBody, BoardClient, roomyLimits, uniqueName } from "@board/testkit";
import { loadConfig } from "./config";
import { startBoard, type RunningBoard } from "./composition-root";

/** A TCP door in front of PostgreSQL: while shut, every connection is cut at once; once opened, bytes pass. */
async function databaseDoor(target: URL) {
  let open = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (!open) return void client.destroy();
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = new URL(target);
  url.hostname = "127.0.0.1";
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    open: () => void (open = true),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Polls until `ready` holds (true) or the time is up (false). */
async function waitFor(ready: () => Promise<boolean>, limitMs: number): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (await ready()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

let database: Awaited<ReturnType<typeof provisionDatabase>>;
let door: Awaited<ReturnType<typeof databaseDoor>>;
let board: RunningBoard;

beforeAll(async () => {
  // Its own database: the runner's crontab sweeps the whole board.
  database = await provisionDatabase(inject("databaseUrl"), "board_jobs_outage");
  door = await databaseDoor(new URL(database.url));
  const config = loadConfig({ DATABASE_URL: door.url, LOG_LEVEL: "silent", PORT: "0", HOST: "127.0.0.1", BOARD_RUN_JOBS: "1", BOARD_DB_CONNECT_TIMEOUT_MS: "500" });
  config.limits = roomyLimits;
  config.showcaseActivatedAt = new Date(Date.now() - 30 * 86_400_000);
  // OAuth mounted, as in production: its signing keys are in the database too.
  board = await startBoard(config);
});

afterAll(async () => {
  await board?.shutdown(1_000);
  await door?.close();
  await database?.drop();
});

test("while PostgreSQL is away the board listens: the OAuth endpoints and /mcp answer 503 with Retry-After in the OAuth shape", async () => {
  const base = board.config.publicUrl;
  const metadata = await fetch(`${base}/.well-known/oauth-authorization-server`);
  expect([metadata.status, metadata.headers.get("retry-after"), metadata.headers.get("cache-control")]).toEqual([503, "1", "no-store"]);
  expect(await metadata.json()).toEqual({ error: "temporarily_unavailable", error_description: expect.stringContaining("signing keys") });
  const mcp = await fetch(`${base}/mcp`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
  expect([mcp.status, mcp.headers.get("retry-after")]).toEqual([503, "1"]);
  expect((await mcp.json()).error).toBe("temporarily_unavailable");
  expect(board.oauth).toBeNull();
});

/** Sends until the answer is not 503, checking that each 503 names what is not ready yet. */
async function sendUntilServed(send: () => Promise<{ status: number; body: any }>, limitMs: number) {
  const deadline = Date.now() + limitMs;
  let answer = await send();
  while (answer.status === 503 && Date.now() < deadline) {
    expect(answer.body.error.code).toBe("SERVICE_UNAVAILABLE");
    expect(["job_queue", "database"]).toContain(answer.body.error.details.dependency);
    await new Promise((r) => setTimeout(r, 100));
    answer = await send();
  }
  return answer;
}

test("a board started while PostgreSQL is away starts its job runner and its authorization server once the database answers: an article submitted while the queue installs is 503 until it is installed, then checked", { timeout: 90_000 }, async () => {
  door.open();
  // At once, while the runner installs the queue that submissions write to: every answer is a 503
  // that names what is not ready (nothing written) or the submission's 202, never a 500.
  const author = new BoardClient(board.config.publicUrl);
  const registered = await sendUntilServed(() => author.post("/v1/agents", { name: uniqueName("outage"), participation_basis: "owner_directed" }), 30_000);
  expect(registered.status).toBe(201);
  author.apiKey = registered.body.api_key;
  const body = articleBody();
  const submitted = await sendUntilServed(() => author.post("/v1/showcase/posts", body), 30_000);
  expect(submitted.status).toBe(202);
  const queueInstalled = await (async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      return (await client.query<{ latest: number }>("SELECT max(id)::int AS latest FROM graphile_worker.migrations")).rows[0]!.latest;
    } finally {
      await client.end();
    }
  })();
  expect(queueInstalled, "the runner installed the job queue once PostgreSQL answered").toBeGreaterThanOrEqual(20);
  const oauthStarted = await waitFor(async () => (await fetch(`${board.config.publicUrl}/.well-known/oauth-authorization-server`)).status === 200, 30_000);
  expect(oauthStarted, "the authorization server started once its keys could be read").toBe(true);
  const challenge = await fetch(`${board.config.publicUrl}/mcp`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  expect([challenge.status, challenge.headers.get("www-authenticate")]).toEqual([401, `Bearer resource_metadata="${board.config.publicUrl}/.well-known/oauth-protected-resource/mcp"`]);
  // Generous for a loaded 2-core machine; without a runner the article stays `checking` for good.
  let state = "checking";
  await waitFor(async () => (state = (await author.get(`/v1/showcase/revisions/${submitted.body.revision_id}`)).body.state) !== "checking", 45_000);
  expect(state).toBe("awaiting_votes");
});

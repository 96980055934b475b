import net from "node:net";
import pg from "pg";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { provisionDatabase } from "@board/db/cli";
import { articleBody, BoardClient, roomyLimits } from "@board/testkit";
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

test("a board started while PostgreSQL is away starts its job runner and its authorization server once the database answers: an article submitted afterwards is checked", { timeout: 90_000 }, async () => {
  door.open();
  // On a fresh database the runner's first start installs the queue that submissions write to.
  const queueInstalled = await waitFor(async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      return (await client.query<{ jobs: string | null }>("SELECT to_regclass('graphile_worker.jobs')::text AS jobs")).rows[0]!.jobs !== null;
    } finally {
      await client.end();
    }
  }, 30_000);
  expect(queueInstalled, "the job queue was installed once PostgreSQL answered").toBe(true);
  const oauthStarted = await waitFor(async () => (await fetch(`${board.config.publicUrl}/.well-known/oauth-authorization-server`)).status === 200, 30_000);
  expect(oauthStarted, "the authorization server started once its keys could be read").toBe(true);
  const challenge = await fetch(`${board.config.publicUrl}/mcp`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  expect([challenge.status, challenge.headers.get("www-authenticate")]).toEqual([401, `Bearer resource_metadata="${board.config.publicUrl}/.well-known/oauth-protected-resource/mcp"`]);
  const author = new BoardClient(board.config.publicUrl);
  await author.register();
  // While the queue's install is still finishing a submission is 503 (nothing written): a client retries it.
  const body = articleBody();
  let submitted = await author.post("/v1/showcase/posts", body);
  for (let retries = 0; submitted.status === 503 && retries < 30; retries++) {
    expect(submitted.body.error.details).toEqual({ dependency: "job_queue" });
    await new Promise((r) => setTimeout(r, 1_000));
    submitted = await author.post("/v1/showcase/posts", body);
  }
  expect(submitted.status).toBe(202);
  // Generous for a loaded 2-core machine; without a runner the article stays `checking` for good.
  let state = "checking";
  await waitFor(async () => (state = (await author.get(`/v1/showcase/revisions/${submitted.body.revision_id}`)).body.state) !== "checking", 45_000);
  expect(state).toBe("awaiting_votes");
});

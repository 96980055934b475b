import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BoardClient, post, registeredClient, reply, startTestServer, type TestServer } from "@board/testkit";

/**
 * Two instances serving one database: a change made through one drops the other's cache entries
 * a moment later (PostgreSQL NOTIFY), long before they would expire. Entries live a minute here, so
 * only an announcement can refresh them within a test.
 */
let first: TestServer;
let second: TestServer;
let deaf: TestServer;
beforeAll(async () => {
  first = await startTestServer({ cacheMs: 60_000, ownDatabase: true });
  [second, deaf] = await Promise.all([
    startTestServer({ cacheMs: 60_000, database: first.databaseUrl, config: { cacheChannel: first.board.config.cacheChannel } }),
    // Same database, a channel of its own: it never hears the others.
    startTestServer({ cacheMs: 60_000, database: first.databaseUrl }),
  ]);
});
afterAll(async () => {
  await Promise.all([second?.close(), deaf?.close()]);
  await first?.close();
});

const retitle = (id: string, title: string) => first.app.deps.db.prisma.message.update({ where: { id }, data: { title } });
/** The same account calling another instance. */
const on = (server: TestServer, client: BoardClient) => new BoardClient(server.baseUrl, client.network, client.apiKey);
const titleOn = async (server: TestServer, client: BoardClient, id: string) => (await on(server, client).get(`/v1/posts/${id}`)).body.post.title as string;

describe("cache invalidations shared between instances", () => {
  test("a reply through one instance refreshes the thread the other had cached; an instance on another channel keeps its copy until it expires", async () => {
    const agent = await registeredClient(first.baseUrl);
    const thread = await post(agent, { title: "as first written" });
    expect(await titleOn(second, agent, thread.id)).toBe("as first written");
    expect(await titleOn(deaf, agent, thread.id)).toBe("as first written");

    await retitle(thread.id, "changed behind the caches");
    expect(await titleOn(second, agent, thread.id)).toBe("as first written");
    await reply(agent, thread.id, "a reply through the first instance");

    await expect.poll(() => titleOn(second, agent, thread.id), { timeout: 3_000, interval: 50 }).toBe("changed behind the caches");
    expect(await titleOn(deaf, agent, thread.id)).toBe("as first written");
  });

  test("a key revoked through one instance stops working on the other at once", async () => {
    const agent = await registeredClient(first.baseUrl);
    expect((await on(second, agent).get("/v1/posts")).status).toBe(200);
    expect((await on(deaf, agent).get("/v1/posts")).status).toBe(200);
    expect((await agent.post("/v1/me/revoke", {})).status).toBe(200);
    await expect.poll(async () => (await on(second, agent).get("/v1/posts")).status, { timeout: 3_000, interval: 50 }).toBe(401);
    const refused = await on(second, agent).get("/v1/posts");
    expect(refused.body.error.code).toBe("UNAUTHORIZED");
    // The instance on another channel still has the account's snapshot from before the revocation.
    expect((await on(deaf, agent).get("/v1/posts")).status).toBe(200);
  });

  test("an instance whose listening connection is lost listens again and drops what it cached meanwhile", async () => {
    const agent = await registeredClient(first.baseUrl);
    const thread = await post(agent, { title: "before the loss" });
    expect(await titleOn(second, agent, thread.id)).toBe("before the loss");
    const channel = second.board.config.cacheChannel;
    const listeners = async () =>
      (await first.app.deps.db.pool.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE query = $1", [`LISTEN "${channel}"`])).rows.map((row) => row.pid);
    const before = await listeners();
    expect(before).toHaveLength(2);
    // Both instances listen on this channel; end both connections, so nothing can be heard until they are back.
    await first.app.deps.db.pool.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = $1", [`LISTEN "${channel}"`]);
    await retitle(thread.id, "changed while nobody listened");

    await expect.poll(async () => (await listeners()).filter((pid) => !before.includes(pid)).length, { timeout: 5_000, interval: 100 }).toBe(2);
    expect(await titleOn(second, agent, thread.id)).toBe("changed while nobody listened");

    await retitle(thread.id, "changed once listening again");
    await reply(agent, thread.id, "heard by the second instance");
    await expect.poll(() => titleOn(second, agent, thread.id), { timeout: 3_000, interval: 50 }).toBe("changed once listening again");
  });
});

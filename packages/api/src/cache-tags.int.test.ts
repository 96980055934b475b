import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { post, registeredClient, reply, startTestServer, type TestServer } from "@board/testkit";

/**
 * Changes invalidate only the cache tags they touch. Each test changes a row behind the services'
 * back (a direct UPDATE), so a cached answer stays visibly stale until something invalidates it.
 */
let server: TestServer;
beforeAll(async () => {
  // Long enough that nothing expires during a test: only invalidation can refresh an entry.
  server = await startTestServer({ cacheMs: 60_000 });
});
afterAll(() => server.close());

const karmaSeenBy = async (client: Awaited<ReturnType<typeof registeredClient>>) => (await client.get("/v1/posts")).body.viewer.karma as number;
const setKarma = (agentId: string, karma: number) => server.app.deps.db.prisma.agent.update({ where: { id: agentId }, data: { karma } });
const retitle = (id: string, title: string) => server.app.deps.db.prisma.message.update({ where: { id }, data: { title } });

describe("tagged invalidation (cache entries name what they depend on)", () => {
  test("a post invalidates the named feed and the author's snapshot, not another account's snapshot or an unrelated thread", async () => {
    const author = await registeredClient(server.baseUrl);
    const other = await registeredClient(server.baseUrl);
    const unrelated = await post(other, { title: "unrelated, as first written" });
    expect((await other.get(`/v1/posts/${unrelated.id}`)).body.post.title).toBe("unrelated, as first written");
    expect(await karmaSeenBy(other)).toBe(0);
    expect(await karmaSeenBy(author)).toBe(0);

    await retitle(unrelated.id, "unrelated, changed behind the cache");
    await setKarma(other.id, 7);
    await setKarma(author.id, 3);
    const created = await post(author, { title: "the new post" });

    const feed = (await author.get("/v1/posts")).body;
    expect(feed.items[0].id).toBe(created.id);
    expect(feed.viewer.karma).toBe(3);
    expect(await karmaSeenBy(other)).toBe(0);
    expect((await other.get(`/v1/posts/${unrelated.id}`)).body.post.title).toBe("unrelated, as first written");
  });

  test("a reply invalidates its own thread only", async () => {
    const agent = await registeredClient(server.baseUrl);
    const thread = await post(agent, { title: "thread" });
    const elsewhere = await post(agent, { title: "elsewhere" });
    await agent.get(`/v1/posts/${thread.id}`);
    await agent.get(`/v1/posts/${elsewhere.id}`);
    await retitle(elsewhere.id, "elsewhere, changed");
    await retitle(thread.id, "thread, changed");
    await reply(agent, thread.id, "a reply");
    const read = (await agent.get(`/v1/posts/${thread.id}`)).body;
    expect(read.post.title).toBe("thread, changed");
    expect(read.replies.items).toHaveLength(1);
    expect((await agent.get(`/v1/posts/${elsewhere.id}`)).body.post.title).toBe("elsewhere");
  });

  test("a revocation invalidates that account's snapshot only", async () => {
    const leaving = await registeredClient(server.baseUrl);
    const staying = await registeredClient(server.baseUrl);
    expect(await karmaSeenBy(staying)).toBe(0);
    await setKarma(staying.id, 9);
    expect((await leaving.post("/v1/me/revoke", {})).status).toBe(200);
    expect((await leaving.get("/v1/posts")).status).toBe(401);
    expect(await karmaSeenBy(staying)).toBe(0);
  });

  test("a vote invalidates the target's thread and both accounts' snapshots", async () => {
    const author = await registeredClient(server.baseUrl);
    const voter = await registeredClient(server.baseUrl);
    const target = await post(author);
    await author.get(`/v1/posts/${target.id}`);
    expect(await karmaSeenBy(author)).toBe(0);
    expect((await voter.post("/ballot", { board: "named", post_id: target.id, value: 1 })).status).toBe(200);
    expect((await author.get(`/v1/posts/${target.id}`)).body.post.score).toBe(1);
    expect(await karmaSeenBy(author)).toBe(1);
  });
});

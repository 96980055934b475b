import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BoardClient, makeAgent, newKey, post, startTestServer, type TestServer } from "@board/testkit";

// Two instances on one database, as behind a load balancer. Each keeps its own read cache.
let first: TestServer;
let second: TestServer;
beforeAll(async () => {
  [first, second] = await Promise.all([startTestServer(), startTestServer()]);
});
afterAll(async () => {
  await Promise.all([first.close(), second.close()]);
});

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("what one instance changes, another one sees", () => {
  test("a key revoked through one instance is refused there at once and by the other within the cache lifetime (1 s)", async () => {
    const onFirst = new BoardClient(first.baseUrl);
    await onFirst.register();
    const onSecond = new BoardClient(second.baseUrl, onFirst.network, onFirst.apiKey);
    expect((await onSecond.get("/v1/posts")).status).toBe(200);
    expect((await onFirst.post("/v1/me/revoke")).status).toBe(200);
    expect((await onFirst.get("/v1/posts")).status).toBe(401);
    await pause(1_100);
    const refused = await onSecond.get("/v1/posts");
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe("UNAUTHORIZED");
  });

  test("posting_quota in /v1/me is exact on every instance right after a post", async () => {
    const onFirst = new BoardClient(first.baseUrl);
    await onFirst.register();
    const onSecond = new BoardClient(second.baseUrl, onFirst.network, onFirst.apiKey);
    expect((await onSecond.get("/v1/me")).body.posting_quota.used).toBe(0);
    await post(onFirst);
    expect((await onSecond.get("/v1/me")).body.posting_quota.used).toBe(1);
  });

  test("rules read the account as stored, not the cached snapshot: a suspension made elsewhere refuses the next vote at once", async () => {
    const author = new BoardClient(first.baseUrl);
    await author.register();
    const target = await post(author);
    const made = await makeAgent(second.app.deps.db, { ageDays: 30, karma: 10 });
    const voter = new BoardClient(second.baseUrl, undefined, made.apiKey);
    // The snapshot of the voter is now cached by the second instance.
    expect((await voter.get("/v1/posts")).body.viewer.voting.suspended).toBe(false);
    await second.app.deps.db.prisma.agent.update({ where: { id: made.id }, data: { votingSuspendedAt: new Date(), karma: -25 } });
    const vote = await voter.post("/ballot", { board: "named", post_id: target.id, value: 1 });
    expect(vote.status).toBe(403);
    expect(vote.body.error.code).toBe("VOTING_SUSPENDED");
  });

  test("the inbox checkpoint moved through one instance holds on the other at once", async () => {
    const [owner, replier] = [new BoardClient(first.baseUrl), new BoardClient(first.baseUrl)];
    await Promise.all([owner.register(), replier.register()]);
    const root = await post(owner);
    await replier.post(`/v1/posts/${root.id}/replies`, { body: "first" }, { "idempotency-key": newKey() });
    const ownerOnSecond = new BoardClient(second.baseUrl, owner.network, owner.apiKey);
    const unread = await ownerOnSecond.get("/v1/inbox");
    expect(unread.body.items).toHaveLength(1);
    expect((await owner.post("/v1/inbox/ack", { through: unread.body.items[0].inbox_seq })).status).toBe(200);
    const after = await ownerOnSecond.get("/v1/inbox");
    expect(after.body.items).toEqual([]);
    expect(after.body.read_through).toBe(unread.body.items[0].inbox_seq);
  });

  test("a new post shows in the other instance's feed within the cache lifetime, and at once in its own", async () => {
    const writer = new BoardClient(first.baseUrl);
    await writer.register();
    const reader = new BoardClient(second.baseUrl);
    await reader.register();
    await reader.get("/v1/posts");
    const created = await post(writer);
    const ids = async (client: BoardClient) => (await client.get("/v1/posts?limit=30")).body.items.map((i: { id: string }) => i.id);
    expect(await ids(writer)).toContain(created.id);
    await pause(1_100);
    expect(await ids(reader)).toContain(created.id);
  });
});

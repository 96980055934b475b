import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BoardClient, newKey, post, reply, startTestServer, type TestServer, type TestServerOptions } from "@board/testkit";

/**
 * Board-wide state (the retained-message count, the order of commits), each on a database of its
 * own: other test files writing and deleting at the same time would move it under these tests.
 */
function ownBoard(limits: TestServerOptions["limits"] = {}) {
  const board = { server: undefined as unknown as TestServer };
  beforeAll(async () => {
    board.server = await startTestServer({ ownDatabase: true, limits });
  });
  afterAll(() => board.server?.close());
  return board;
}

async function register(server: TestServer): Promise<BoardClient & { id: string }> {
  const client = new BoardClient(server.baseUrl);
  const { id } = await client.register();
  return Object.assign(client, { id });
}

const RETAINED_CAP = 3;

describe("retention cap (503 CAPACITY_EXHAUSTED, nothing evicted)", () => {
  const board = ownBoard({ retainedMessages: RETAINED_CAP });
  test("at the cap new posts and replies are refused and cost nothing; exact retries still replay; a delete frees a slot", async () => {
    const { server } = board;
    const agent = await register(server);
    const other = await register(server);
    const rootKey = newKey();
    const root = await post(agent, { title: "first" }, rootKey);
    const replyKey = newKey();
    const first = await reply(agent, root.id, "kept", {}, replyKey);
    const second = await post(other, { title: "third" });
    const retainedBefore = await server.app.deps.db.prisma.message.findMany({ where: { deletedAt: null }, select: { id: true }, orderBy: { seq: "asc" } });
    expect(retainedBefore.map((m) => m.id)).toEqual([root.id, first.id, second.id]);

    const refusedPost = await agent.post("/v1/posts", { title: "T", body: "B" }, { "idempotency-key": newKey() });
    expect(refusedPost.status).toBe(503);
    expect(refusedPost.body.error).toMatchObject({ code: "CAPACITY_EXHAUSTED", details: { scope: "retained_messages", limit: RETAINED_CAP } });
    expect(Number(refusedPost.headers.get("retry-after"))).toBeGreaterThan(0);
    const refusedReply = await other.post(`/v1/posts/${root.id}/replies`, { body: "R" }, { "idempotency-key": newKey() });
    expect(refusedReply.status).toBe(503);
    expect(refusedReply.body.error).toMatchObject({ code: "CAPACITY_EXHAUSTED", details: { scope: "retained_messages" } });
    expect((await agent.get("/v1/me")).body.posting_quota).toMatchObject({ used: 2, remaining: 498 });
    expect((await other.get("/v1/me")).body.posting_quota).toMatchObject({ used: 1, remaining: 499 });

    const replayedPost = await agent.post("/v1/posts", { title: "first", body: "A body" }, { "idempotency-key": rootKey });
    expect(replayedPost.status).toBe(200);
    expect(replayedPost.body).toEqual({ id: root.id, seq: root.seq, replayed: true });
    const replayedReply = await agent.post(`/v1/posts/${root.id}/replies`, { body: "kept" }, { "idempotency-key": replyKey });
    expect(replayedReply.body).toEqual({ id: first.id, seq: first.seq, replayed: true });

    const retainedAfter = await server.app.deps.db.prisma.message.findMany({ where: { deletedAt: null }, select: { id: true }, orderBy: { seq: "asc" } });
    expect(retainedAfter).toEqual(retainedBefore);

    expect((await other.delete(`/v1/posts/${second.id}`)).status).toBe(200);
    const afterDelete = await agent.post("/v1/posts", { title: "T", body: "B" }, { "idempotency-key": newKey() });
    expect(afterDelete.status).toBe(201);
    expect((await agent.get("/v1/me")).body.posting_quota.used).toBe(3);
    expect((await other.get("/v1/me")).body.posting_quota.used).toBe(1);
  });
});

describe("sequence order is commit order", () => {
  const board = ownBoard();

  test("a writer that commits late holds back the writer after it, so a poller following `after` misses nothing", async () => {
    const { server } = board;
    const prisma = server.app.deps.db.prisma;
    // A trigger on this test's own database makes one insert slow: its seq is taken, its commit is late.
    await prisma.$executeRawUnsafe(`CREATE FUNCTION test_slow_insert() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.title = 'slow writer' THEN PERFORM pg_sleep(1.5); END IF; RETURN NEW; END $$`);
    await prisma.$executeRawUnsafe("CREATE TRIGGER test_slow_insert BEFORE INSERT ON messages FOR EACH ROW EXECUTE FUNCTION test_slow_insert()");
    const sleeping = async () => (await prisma.$queryRaw<Array<{ n: number }>>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event = 'PgSleep'`)[0]!.n > 0;
    const [slowWriter, fastWriter, reader] = await Promise.all([register(server), register(server), register(server)]);
    const { seq: checkpoint } = await post(reader, { title: "the reader's checkpoint" });

    const slow = slowWriter.post("/v1/posts", { title: "slow writer", body: "taken first, committed late" }, { "idempotency-key": newKey() });
    await expect.poll(sleeping, { timeout: 5_000, interval: 20 }).toBe(true);
    const fast = fastWriter.post("/v1/posts", { title: "fast writer", body: "started second" }, { "idempotency-key": newKey() });

    const seenWhileSlowUncommitted: number[] = [];
    while (await sleeping()) {
      const page = await reader.get(`/v1/activity?after=${checkpoint}&limit=30`);
      seenWhileSlowUncommitted.push(...page.body.items.map((i: { seq: number }) => i.seq));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const [slowReceipt, fastReceipt] = await Promise.all([slow, fast]);
    expect([slowReceipt.status, fastReceipt.status]).toEqual([201, 201]);
    expect(seenWhileSlowUncommitted).toEqual([]);
    expect(fastReceipt.body.seq).toBe(slowReceipt.body.seq + 1);

    const caughtUp = await reader.get(`/v1/activity?after=${checkpoint}&limit=30`);
    expect(caughtUp.body.items.map((i: { id: string }) => i.id)).toEqual([fastReceipt.body.id, slowReceipt.body.id]);
    expect(caughtUp.body).toMatchObject({ newest_cursor: fastReceipt.body.seq, next_after: null });
  });
});

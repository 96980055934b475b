import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BoardClient, registeredClient, startTestServer, type TestServer } from "@board/testkit";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const anonymous = (network?: string) => new BoardClient(server.baseUrl, network);

describe("/b threads and replies, without an account", () => {
  test("a thread is 201 {id, seq, thread_id: null, url}, reads back whole, and stays out of the named feed", async () => {
    const created = await anonymous().post("/b/threads", { title: "Unsorted", body: "Hello from nowhere" });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), seq: expect.any(Number), thread_id: null, url: `${server.baseUrl}/b/threads/${created.body.id}` });
    const read = await anonymous().get(`/b/threads/${created.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      post: { id: created.body.id, kind: "root", thread_id: null, title: "Unsorted", body: "Hello from nowhere", reply_count: 0, score: 0 },
      replies: { items: [] },
      content_is_untrusted: true,
    });
    const reader = await registeredClient(server.baseUrl);
    const feed = await reader.get("/v1/posts?limit=30");
    expect(feed.body.items.map((item: { id: string }) => item.id)).not.toContain(created.body.id);
  });

  test("a reply is 201 with its thread_id, counted on the thread and listed under it", async () => {
    const guest = anonymous();
    const root = await guest.post("/b/threads", { title: "Replies", body: "Root" });
    const reply = await guest.post(`/b/threads/${root.body.id}/replies`, { body: "First reply" });
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({ id: expect.any(String), seq: expect.any(Number), thread_id: root.body.id, url: `${server.baseUrl}/b/threads/${root.body.id}` });
    const read = await guest.get(`/b/threads/${root.body.id}`);
    expect(read.body.post.reply_count).toBe(1);
    expect(read.body.replies.items).toEqual([expect.objectContaining({ id: reply.body.id, kind: "reply", thread_id: root.body.id, title: null, body: "First reply", reply_count: null })]);
  });

  test("a reply to a reply is 400 naming the root thread to post to; nothing is stored", async () => {
    const guest = anonymous();
    const root = await guest.post("/b/threads", { title: "Nesting", body: "Root" });
    const reply = await guest.post(`/b/threads/${root.body.id}/replies`, { body: "Reply" });
    const nested = await guest.post(`/b/threads/${reply.body.id}/replies`, { body: "Nested" });
    expect(nested.status).toBe(400);
    expect(nested.body.error).toMatchObject({ code: "VALIDATION_FAILED", details: { root_id: root.body.id, issues: [{ field: "id" }] } });
    expect(nested.body.error.message).toContain(`/b/threads/${root.body.id}/replies`);
    expect((await guest.get(`/b/threads/${root.body.id}`)).body.post.reply_count).toBe(1);
  });

  test("a reply to an unknown thread is 404; a malformed id is 400", async () => {
    const unknown = await anonymous().post("/b/threads/00000000-0000-4000-8000-000000000000/replies", { body: "Anyone?" });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, "NOT_FOUND"]);
    const malformed = await anonymous().post("/b/threads/not-a-uuid/replies", { body: "Anyone?" });
    expect([malformed.status, malformed.body.error.code, malformed.body.error.details.issues[0].field]).toEqual([400, "VALIDATION_FAILED", "id"]);
    const unknownRead = await anonymous().get("/b/threads/00000000-0000-4000-8000-000000000000");
    expect([unknownRead.status, unknownRead.body.error]).toEqual([404, { code: "NOT_FOUND", message: "No /b message 00000000-0000-4000-8000-000000000000.", details: { field: "id" } }]);
  });

  test.each([
    ["no title", { body: "B" }, "title"],
    ["an empty title", { title: "", body: "B" }, "title"],
    ["a title of 161 characters", { title: "t".repeat(161), body: "B" }, "title"],
    ["an empty body", { title: "T", body: "" }, "body"],
    ["an unknown field", { title: "T", body: "B", topic: "general" }, "topic"],
  ])("a thread with %s is 400 naming the field", async (_case, body, field) => {
    const res = await anonymous().post("/b/threads", body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_FAILED");
    expect(res.body.error.details.issues.map((issue: { field: string }) => issue.field)).toContain(field);
  });

  test("a body over the byte limit is 413 with its measured size", async () => {
    const limit = server.app.deps.limits.bodyBytes;
    const res = await anonymous().post("/b/threads", { title: "Big", body: "é".repeat(limit / 2 + 1) });
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({ code: "PAYLOAD_TOO_LARGE", details: { field: "body", actual_bytes: limit + 2, max_bytes: limit } });
  });

  test("threads list newest first with before cursors, replies not among them", async () => {
    const guest = anonymous();
    const ids: string[] = [];
    for (const title of ["one", "two", "three"]) ids.push((await guest.post("/b/threads", { title, body: title })).body.id);
    await guest.post(`/b/threads/${ids[0]}/replies`, { body: "a reply" });
    const first = await guest.get("/b/threads?limit=2");
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(2);
    expect(first.body.items.every((item: { kind: string }) => item.kind === "root")).toBe(true);
    const seen: string[] = first.body.items.map((item: { id: string }) => item.id);
    let cursor = first.body.next_before;
    while (cursor !== null && !seen.includes(ids[0]!)) {
      const page = await guest.get(`/b/threads?limit=2&before=${cursor}`);
      seen.push(...page.body.items.map((item: { id: string }) => item.id));
      cursor = page.body.next_before;
    }
    const mine = seen.filter((id) => ids.includes(id));
    expect(mine).toEqual([...ids].reverse());
    expect((await guest.get("/b/threads?limit=0")).status).toBe(400);
    expect((await guest.get("/b/threads?limit=31")).status).toBe(400);
  });
});

describe("/b posts per network per UTC day", () => {
  test("threads and replies share the allowance: 429 DAILY_LIMIT anonymous_posts_per_network with Retry-After; the refusal stores nothing; other networks and the named board are unaffected", async () => {
    const capped = await startTestServer({ limits: { postsPerNetworkPerDay: 2 } });
    try {
      const guest = new BoardClient(capped.baseUrl);
      const root = await guest.post("/b/threads", { title: "Capped", body: "one" });
      expect((await guest.post(`/b/threads/${root.body.id}/replies`, { body: "two" })).status).toBe(201);
      const refused = await guest.post(`/b/threads/${root.body.id}/replies`, { body: "three" });
      expect(refused.status).toBe(429);
      expect(refused.body.error).toMatchObject({ code: "DAILY_LIMIT", details: { scope: "anonymous_posts_per_network", limit: 2 } });
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await guest.post("/b/threads", { title: "Again", body: "four" })).status).toBe(429);
      expect((await guest.get(`/b/threads/${root.body.id}`)).body.post.reply_count).toBe(1);

      expect((await new BoardClient(capped.baseUrl).post("/b/threads", { title: "Elsewhere", body: "fine" })).status).toBe(201);
      const agent = new BoardClient(capped.baseUrl, guest.network);
      await agent.register();
      expect((await agent.post("/v1/posts", { title: "Named", body: "separate allowance" }, { "idempotency-key": crypto.randomUUID() })).status).toBe(201);
    } finally {
      await capped.close();
    }
  });
});

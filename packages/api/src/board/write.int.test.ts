import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BoardClient, newKey, post, registeredClient, reply, startTestServer, type TestServer } from "@board/testkit";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe("POST /v1/posts", () => {
  test("201 receipt {id, seq, thread_id: null, url}; default topic general", async () => {
    const agent = await registeredClient(server.baseUrl);
    const res = await agent.post("/v1/posts", { title: "Hello", body: "World" }, { "idempotency-key": newKey() });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(String), seq: expect.any(Number), thread_id: null, url: `${server.baseUrl}/v1/posts/${res.body.id}` });
    const row = await server.app.deps.db.prisma.message.findUniqueOrThrow({ where: { id: res.body.id }, select: { topic: true, title: true, body: true } });
    expect(row).toEqual({ topic: "general", title: "Hello", body: "World" });
  });

  test("same key, same payload replays {id, seq, replayed: true} with 200 and costs no quota", async () => {
    const agent = await registeredClient(server.baseUrl);
    const key = newKey();
    const first = await agent.post("/v1/posts", { title: "T", body: "B" }, { "idempotency-key": key });
    const again = await agent.post("/v1/posts", { title: "T", body: "B" }, { "idempotency-key": key });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ id: first.body.id, seq: first.body.seq, replayed: true });
    const me = await agent.get("/v1/me");
    expect(me.body.posting_quota).toMatchObject({ used: 1, remaining: 499 });
  });

  test("same key, different payload is 409 IDEMPOTENCY_CONFLICT linking the lookup route", async () => {
    const agent = await registeredClient(server.baseUrl);
    const key = newKey();
    await agent.post("/v1/posts", { title: "T", body: "B" }, { "idempotency-key": key });
    const res = await agent.post("/v1/posts", { title: "T", body: "changed" }, { "idempotency-key": key });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: "IDEMPOTENCY_CONFLICT", details: { lookup_url: `${server.baseUrl}/v1/me/publications/lookup` } });
  });

  test("keys are scoped per account", async () => {
    const [a, b] = await Promise.all([registeredClient(server.baseUrl), registeredClient(server.baseUrl)]);
    const key = newKey();
    const first = await a.post("/v1/posts", { title: "T", body: "B" }, { "idempotency-key": key });
    const second = await b.post("/v1/posts", { title: "T", body: "B" }, { "idempotency-key": key });
    expect(second.status).toBe(201);
    expect(second.body.id).not.toBe(first.body.id);
  });

  test("parallel requests with one key produce exactly one message", async () => {
    const agent = await registeredClient(server.baseUrl);
    const key = newKey();
    const results = await Promise.all(Array.from({ length: 8 }, () => agent.post("/v1/posts", { title: "Race", body: "once" }, { "idempotency-key": key })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(await server.app.deps.db.prisma.message.count({ where: { agentId: agent.id, idempotencyKey: key } })).toBe(1);
    expect((await agent.get("/v1/me")).body.posting_quota.used).toBe(1);
  });

  test.each([
    ["missing", undefined],
    ["15 characters", "a".repeat(15)],
    ["129 characters", "a".repeat(129)],
    ["a forbidden character", "abcdefghijklmnop!"],
  ])("Idempotency-Key %s is 400 IDEMPOTENCY_KEY_REQUIRED", async (_label, key) => {
    const agent = await registeredClient(server.baseUrl);
    const res = await agent.post("/v1/posts", { title: "T", body: "B" }, key === undefined ? {} : { "idempotency-key": key });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("IDEMPOTENCY_KEY_REQUIRED");
  });

  test("16 and 128 character keys are accepted", async () => {
    const agent = await registeredClient(server.baseUrl);
    expect((await agent.post("/v1/posts", { title: "T", body: "B" }, { "idempotency-key": "a".repeat(16) })).status).toBe(201);
    expect((await agent.post("/v1/posts", { title: "T", body: "B" }, { "idempotency-key": "b".repeat(128) })).status).toBe(201);
  });

  test.each([
    ["empty title", { title: "", body: "B" }, "title"],
    ["161-character title", { title: "t".repeat(161), body: "B" }, "title"],
    ["missing title", { body: "B" }, "title"],
    ["empty body", { title: "T", body: "" }, "body"],
    ["topic with capitals", { title: "T", body: "B", topic: "News" }, "topic"],
    ["41-character topic", { title: "T", body: "B", topic: "t".repeat(41) }, "topic"],
    ["topic starting with a hyphen", { title: "T", body: "B", topic: "-news" }, "topic"],
    ["an unknown field", { title: "T", body: "B", weight: 5 }, "weight"],
    ["NUL in the title", { title: "T\u0000", body: "B" }, "title"],
    ["NUL in the body", { title: "T", body: "a\u0000b" }, "body"],
    ["an unpaired high surrogate in the body", { title: "T", body: "a\ud800b" }, "body"],
    ["an unpaired low surrogate in the title", { title: "\udc00", body: "B" }, "title"],
  ])("%s is 400 VALIDATION_FAILED naming the field, and costs nothing", async (_label, payload, field) => {
    const agent = await registeredClient(server.baseUrl);
    const res = await agent.post("/v1/posts", payload, { "idempotency-key": newKey() });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_FAILED");
    expect(res.body.error.details.issues.map((i: { field: string }) => i.field)).toContain(field);
    expect((await agent.get("/v1/me")).body.posting_quota.used).toBe(0);
    expect(await server.app.deps.db.prisma.message.count({ where: { agentId: agent.id } })).toBe(0);
  });

  test("a paired astral character next to a combining mark is stored exactly", async () => {
    const agent = await registeredClient(server.baseUrl);
    const res = await agent.post("/v1/posts", { title: "😀\u0301", body: "e\u0301 😀" }, { "idempotency-key": newKey() });
    expect(res.status).toBe(201);
    const row = await server.app.deps.db.prisma.message.findUniqueOrThrow({ where: { id: res.body.id }, select: { title: true, body: true } });
    expect(row).toEqual({ title: "😀\u0301", body: "e\u0301 😀" });
  });

  test("a 160-code-point title of astral characters and a 40-character topic are accepted", async () => {
    const agent = await registeredClient(server.baseUrl);
    const res = await agent.post("/v1/posts", { title: "😀".repeat(160), body: "B", topic: "t".repeat(40) }, { "idempotency-key": newKey() });
    expect(res.status).toBe(201);
  });

  test("a body of 8192 UTF-8 bytes is accepted; 8193 is 413 with actual_bytes", async () => {
    const agent = await registeredClient(server.baseUrl);
    const ok = await agent.post("/v1/posts", { title: "T", body: "€".repeat(2730) + "ab" }, { "idempotency-key": newKey() });
    expect(ok.status).toBe(201);
    const tooBig = await agent.post("/v1/posts", { title: "T", body: "€".repeat(2731) }, { "idempotency-key": newKey() });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error).toMatchObject({ code: "PAYLOAD_TOO_LARGE", details: { field: "body", actual_bytes: 8193, max_bytes: 8192 } });
  });
});

describe("POST /v1/posts/{id}/replies", () => {
  test("201 receipt with thread_id; reply_count on the root grows", async () => {
    const [author, replier] = await Promise.all([registeredClient(server.baseUrl), registeredClient(server.baseUrl)]);
    const root = await post(author);
    const res = await replier.post(`/v1/posts/${root.id}/replies`, { body: "hi" }, { "idempotency-key": newKey() });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(String), seq: expect.any(Number), thread_id: root.id, url: `${server.baseUrl}/v1/posts/${res.body.id}` });
    expect(res.body.seq).toBeGreaterThan(root.seq);
    const rootRow = await server.app.deps.db.prisma.message.findUniqueOrThrow({ where: { id: root.id }, select: { replyCount: true } });
    expect(rootRow.replyCount).toBe(1);
  });

  test("replying to a reply id is 400 naming the root: replies attach to the root, and the refusal costs nothing", async () => {
    const agent = await registeredClient(server.baseUrl);
    const root = await post(agent);
    const first = await reply(agent, root.id);
    const key = newKey();
    const res = await agent.post(`/v1/posts/${first.id}/replies`, { body: "nested" }, { "idempotency-key": key });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      code: "VALIDATION_FAILED",
      message: `${first.id} is a reply; replies attach to the root thread ${root.id}. Post to that id and set reply_to_id to ${first.id}.`,
      details: { issues: [{ field: "id", message: "is a reply, not a root thread" }], root_id: root.id },
    });
    expect((await agent.get("/v1/me")).body.posting_quota.used).toBe(2);
    expect(await server.app.deps.db.prisma.message.count({ where: { agentId: agent.id, idempotencyKey: key } })).toBe(0);
  });

  test("reply_to_id to a message of the discussion is stored; the root itself is allowed", async () => {
    const agent = await registeredClient(server.baseUrl);
    const root = await post(agent);
    const inThread = await reply(agent, root.id);
    const toReply = await reply(agent, root.id, "x", { reply_to_id: inThread.id });
    const toRoot = await reply(agent, root.id, "x", { reply_to_id: root.id });
    const rows = await server.app.deps.db.prisma.message.findMany({ where: { id: { in: [toReply.id, toRoot.id] } }, select: { id: true, replyToId: true, rootId: true } });
    expect(rows.sort((a, b) => (a.id === toReply.id ? -1 : b.id === toReply.id ? 1 : 0))).toEqual([
      { id: toReply.id, replyToId: inThread.id, rootId: root.id },
      { id: toRoot.id, replyToId: root.id, rootId: root.id },
    ]);
  });

  test("reply_to_id: null means not a direct reply, as reads show it; a retry with the field absent replays it, and the other way round", async () => {
    const agent = await registeredClient(server.baseUrl);
    const root = await post(agent);
    const key = newKey();
    const created = await agent.post(`/v1/posts/${root.id}/replies`, { body: "plain", reply_to_id: null }, { "idempotency-key": key });
    expect(created.status).toBe(201);
    const row = await server.app.deps.db.prisma.message.findUniqueOrThrow({ where: { id: created.body.id }, select: { replyToId: true, rootId: true } });
    expect(row).toEqual({ replyToId: null, rootId: root.id });
    const absent = await agent.post(`/v1/posts/${root.id}/replies`, { body: "plain" }, { "idempotency-key": key });
    expect(absent.status).toBe(200);
    expect(absent.body).toMatchObject({ id: created.body.id, replayed: true });
    const otherKey = newKey();
    const first = await agent.post(`/v1/posts/${root.id}/replies`, { body: "plain 2" }, { "idempotency-key": otherKey });
    const withNull = await agent.post(`/v1/posts/${root.id}/replies`, { body: "plain 2", reply_to_id: null }, { "idempotency-key": otherKey });
    expect(withNull.status).toBe(200);
    expect(withNull.body).toMatchObject({ id: first.body.id, replayed: true });
    expect(await server.app.deps.db.prisma.message.count({ where: { rootId: root.id } })).toBe(2);
  });

  test.each([
    ["a reply in another thread", "elsewhere"],
    ["an id that never existed", "unknown"],
    ["a deleted reply of this thread", "deleted"],
  ])("reply_to_id naming %s is 400 VALIDATION_FAILED and costs nothing", async (_label, kind) => {
    const agent = await registeredClient(server.baseUrl);
    const [root, other] = await Promise.all([post(agent), post(agent)]);
    const target =
      kind === "elsewhere"
        ? (await reply(agent, other.id)).id
        : kind === "unknown"
          ? "00000000-0000-4000-8000-00000000beef"
          : await reply(agent, root.id).then(async (r) => (await agent.delete(`/v1/posts/${r.id}`), r.id));
    const usedBefore = (await agent.get("/v1/me")).body.posting_quota.used;
    const { replyCount } = await server.app.deps.db.prisma.message.findUniqueOrThrow({ where: { id: root.id }, select: { replyCount: true } });
    const key = newKey();
    const res = await agent.post(`/v1/posts/${root.id}/replies`, { body: "x", reply_to_id: target }, { "idempotency-key": key });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "VALIDATION_FAILED", details: { issues: [{ field: "reply_to_id", message: "not a message of this discussion" }] } });
    expect((await agent.get("/v1/me")).body.posting_quota.used).toBe(usedBefore);
    expect((await server.app.deps.db.prisma.message.findUniqueOrThrow({ where: { id: root.id }, select: { replyCount: true } })).replyCount).toBe(replyCount);
    expect(await server.app.deps.db.prisma.message.count({ where: { agentId: agent.id, idempotencyKey: key } })).toBe(0);
  });

  test.each([
    ["title", { title: "Replies have no title" }],
    ["topic", { topic: "general" }],
    ["thread_id", { thread_id: "00000000-0000-4000-8000-000000000000" }],
  ])("a reply body with %s is refused: 400 naming the field", async (field, extra) => {
    const agent = await registeredClient(server.baseUrl);
    const root = await post(agent);
    const res = await agent.post(`/v1/posts/${root.id}/replies`, { body: "x", ...extra }, { "idempotency-key": newKey() });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_FAILED");
    expect(res.body.error.details.issues.map((i: { field: string }) => i.field)).toContain(field);
  });

  test("unknown or deleted roots are 404; failed writes cost no quota", async () => {
    const agent = await registeredClient(server.baseUrl);
    const missing = await agent.post(`/v1/posts/00000000-0000-4000-8000-000000000000/replies`, { body: "x" }, { "idempotency-key": newKey() });
    expect(missing.status).toBe(404);
    const root = await post(agent);
    await agent.delete(`/v1/posts/${root.id}`);
    expect((await agent.post(`/v1/posts/${root.id}/replies`, { body: "x" }, { "idempotency-key": newKey() })).status).toBe(404);
    expect((await agent.get("/v1/me")).body.posting_quota.used).toBe(1);
  });

  test("a malformed id is 400", async () => {
    const agent = await registeredClient(server.baseUrl);
    const res = await agent.post(`/v1/posts/not-a-uuid/replies`, { body: "x" }, { "idempotency-key": newKey() });
    expect(res.status).toBe(400);
  });

  test("same key, same payload replays {id, seq, replayed: true} with 200 and costs no quota", async () => {
    const agent = await registeredClient(server.baseUrl);
    const root = await post(agent);
    const key = newKey();
    const first = await agent.post(`/v1/posts/${root.id}/replies`, { body: "again" }, { "idempotency-key": key });
    expect(first.status).toBe(201);
    const again = await agent.post(`/v1/posts/${root.id}/replies`, { body: "again" }, { "idempotency-key": key });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ id: first.body.id, seq: first.body.seq, replayed: true });
    expect((await agent.get("/v1/me")).body.posting_quota).toMatchObject({ used: 2, remaining: 498 });
    expect(await server.app.deps.db.prisma.message.count({ where: { agentId: agent.id, idempotencyKey: key } })).toBe(1);
    const rootRow = await server.app.deps.db.prisma.message.findUniqueOrThrow({ where: { id: root.id }, select: { replyCount: true } });
    expect(rootRow.replyCount).toBe(1);
  });

  test("same key, different body, target, reply_to_id or kind is 409 IDEMPOTENCY_CONFLICT linking the lookup route", async () => {
    const agent = await registeredClient(server.baseUrl);
    const [root, other] = await Promise.all([post(agent), post(agent)]);
    const key = newKey();
    const original = await reply(agent, root.id, "original", {}, key);
    const conflicts = [
      await agent.post(`/v1/posts/${root.id}/replies`, { body: "changed" }, { "idempotency-key": key }),
      await agent.post(`/v1/posts/${other.id}/replies`, { body: "original" }, { "idempotency-key": key }),
      await agent.post(`/v1/posts/${root.id}/replies`, { body: "original", reply_to_id: root.id }, { "idempotency-key": key }),
      await agent.post("/v1/posts", { title: "A title", body: "original" }, { "idempotency-key": key }),
    ];
    for (const res of conflicts) {
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ code: "IDEMPOTENCY_CONFLICT", details: { lookup_url: `${server.baseUrl}/v1/me/publications/lookup` } });
    }
    expect(await server.app.deps.db.prisma.message.count({ where: { agentId: agent.id, idempotencyKey: key } })).toBe(1);
    expect((await agent.get("/v1/me")).body.posting_quota.used).toBe(3);
    expect((await agent.get("/v1/me/publications/lookup", { "idempotency-key": key })).body.publication).toMatchObject({ id: original.id, thread_id: root.id });
  });

  test("parallel replies with one key produce exactly one reply", async () => {
    const agent = await registeredClient(server.baseUrl);
    const root = await post(agent);
    const key = newKey();
    const results = await Promise.all(Array.from({ length: 8 }, () => agent.post(`/v1/posts/${root.id}/replies`, { body: "once" }, { "idempotency-key": key })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    const created = results.find((r) => r.status === 201)!;
    expect(created.body).toEqual({ id: expect.any(String), seq: expect.any(Number), thread_id: root.id, url: `${server.baseUrl}/v1/posts/${created.body.id}` });
    for (const replayed of results.filter((r) => r.status === 200)) expect(replayed.body).toEqual({ id: created.body.id, seq: created.body.seq, replayed: true });
    expect(await server.app.deps.db.prisma.message.count({ where: { agentId: agent.id, idempotencyKey: key } })).toBe(1);
    const rootRow = await server.app.deps.db.prisma.message.findUniqueOrThrow({ where: { id: root.id }, select: { replyCount: true } });
    expect(rootRow.replyCount).toBe(1);
    expect((await agent.get("/v1/me")).body.posting_quota.used).toBe(2);
  });

  test("a reply body of 8192 UTF-8 bytes is accepted; 8193 is 413 with actual_bytes and costs nothing", async () => {
    const agent = await registeredClient(server.baseUrl);
    const root = await post(agent);
    const ok = await agent.post(`/v1/posts/${root.id}/replies`, { body: "€".repeat(2730) + "ab" }, { "idempotency-key": newKey() });
    expect(ok.status).toBe(201);
    const key = newKey();
    const tooBig = await agent.post(`/v1/posts/${root.id}/replies`, { body: "€".repeat(2731) }, { "idempotency-key": key });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error).toMatchObject({ code: "PAYLOAD_TOO_LARGE", details: { field: "body", actual_bytes: 8193, max_bytes: 8192 } });
    expect(await server.app.deps.db.prisma.message.count({ where: { agentId: agent.id, idempotencyKey: key } })).toBe(0);
    expect((await agent.get("/v1/me")).body.posting_quota.used).toBe(2);
    const rootRow = await server.app.deps.db.prisma.message.findUniqueOrThrow({ where: { id: root.id }, select: { replyCount: true } });
    expect(rootRow.replyCount).toBe(1);
  });

  test.each([["NUL", "a\u0000b"], ["an unpaired surrogate", "a\udbffb"]])("a reply body with %s is 400 VALIDATION_FAILED and writes nothing", async (_label, body) => {
    const agent = await registeredClient(server.baseUrl);
    const root = await post(agent);
    const res = await agent.post(`/v1/posts/${root.id}/replies`, { body }, { "idempotency-key": newKey() });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "VALIDATION_FAILED", details: { issues: [{ field: "body" }] } });
    expect(await server.app.deps.db.prisma.message.count({ where: { rootId: root.id } })).toBe(0);
    expect((await agent.get("/v1/me")).body.posting_quota.used).toBe(1);
  });

  test.each([
    ["missing", undefined],
    ["15 characters", "a".repeat(15)],
    ["129 characters", "a".repeat(129)],
    ["a forbidden character", "abcdefghijklmnop!"],
  ])("Idempotency-Key %s on a reply is 400 IDEMPOTENCY_KEY_REQUIRED and writes nothing", async (_label, key) => {
    const agent = await registeredClient(server.baseUrl);
    const root = await post(agent);
    const res = await agent.post(`/v1/posts/${root.id}/replies`, { body: "x" }, key === undefined ? {} : { "idempotency-key": key });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "IDEMPOTENCY_KEY_REQUIRED", details: { header: "Idempotency-Key" } });
    expect(await server.app.deps.db.prisma.message.count({ where: { rootId: root.id } })).toBe(0);
    expect((await agent.get("/v1/me")).body.posting_quota.used).toBe(1);
  });
});

describe("after a delete", () => {
  test("the key stays consumed: an exact retry replays the deleted receipt without re-publishing, lookup says found:false", async () => {
    const agent = await registeredClient(server.baseUrl);
    const key = newKey();
    const created = await post(agent, { title: "Gone", body: "soon" }, key);
    expect((await agent.delete(`/v1/posts/${created.id}`)).status).toBe(200);
    const retry = await agent.post("/v1/posts", { title: "Gone", body: "soon" }, { "idempotency-key": key });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual({ id: created.id, seq: created.seq, replayed: true });
    const changed = await agent.post("/v1/posts", { title: "Gone", body: "different" }, { "idempotency-key": key });
    expect(changed.status).toBe(409);
    expect(changed.body.error.code).toBe("IDEMPOTENCY_CONFLICT");
    expect(await server.app.deps.db.prisma.message.findMany({ where: { agentId: agent.id }, select: { id: true, deletedAt: true } })).toEqual([{ id: created.id, deletedAt: expect.any(Date) }]);
    expect((await agent.get("/v1/me")).body.posting_quota.used).toBe(1);
    expect((await agent.get("/v1/me/publications/lookup", { "idempotency-key": key })).body).toEqual({ found: false });
    expect((await agent.get(`/v1/posts/${created.id}`)).status).toBe(404);
  });
});

describe("seq never repeats", () => {
  test("a hard-deleted newest message's seq is not handed out again (a poller holding it would skip the next one)", async () => {
    const own = await startTestServer({ ownDatabase: true });
    try {
      const agent = new BoardClient(own.baseUrl);
      await agent.register();
      const first = await post(agent);
      const newest = await post(agent);
      await own.app.deps.db.prisma.$executeRaw`DELETE FROM messages WHERE id = ${newest.id}::uuid`;
      const next = await post(agent);
      expect(next.seq).toBe(newest.seq + 1);
      const polled = await agent.get(`/v1/posts?after=${newest.seq}`);
      expect(polled.body.items.map((m: { id: string }) => m.id)).toEqual([next.id]);
      expect(first.seq).toBeLessThan(newest.seq);
    } finally {
      await own.close();
    }
  });

  test("messages inserted without the counter (a restore, a seed) are still passed: the next seq is above them", async () => {
    const own = await startTestServer({ ownDatabase: true });
    try {
      const agent = new BoardClient(own.baseUrl);
      const { id } = await agent.register();
      await post(agent);
      await own.app.deps.db.prisma.$executeRaw`INSERT INTO messages (id, seq, agent_id, topic, title, body, body_length, idempotency_key, payload_hash, network)
        VALUES (gen_random_uuid(), 500, ${id}::uuid, 'general', 'Restored', 'from a backup', 13, 'restored-key-0001', 'x', 'restore')`;
      expect((await post(agent)).seq).toBe(501);
    } finally {
      await own.close();
    }
  });
});

describe("seq ordering under concurrent writers", () => {
  test("a poller following `after` sees every message exactly once, in commit order", async () => {
    const writers = await Promise.all(Array.from({ length: 4 }, () => registeredClient(server.baseUrl)));
    const reader = await registeredClient(server.baseUrl);
    const start = (await reader.get("/v1/activity?limit=1")).body.newest_cursor ?? 0;
    const seen: number[] = [];
    let checkpoint = start;
    let writing = true;
    const poller = (async () => {
      for (;;) {
        // Only a page asked for after every write was acknowledged can prove the poller caught up:
        // an empty page asked for earlier may have been read just before the last commit.
        const askedAfterWrites = !writing;
        const page = await reader.get(`/v1/activity?after=${checkpoint}&limit=30`);
        const seqs: number[] = page.body.items.map((i: { seq: number }) => i.seq);
        seen.push(...[...seqs].reverse());
        if (page.body.newest_cursor !== null) checkpoint = page.body.newest_cursor;
        if (askedAfterWrites && page.body.next_after === null && seqs.length === 0) break;
      }
    })();
    const receipts = (await Promise.all(writers.map(async (w) => {
      const out: number[] = [];
      for (let i = 0; i < 10; i++) out.push((await post(w, { title: `w${i}` })).seq);
      return out;
    }))).flat();
    writing = false;
    await poller;
    const mine = seen.filter((s) => receipts.includes(s));
    expect(mine.sort((a, b) => a - b)).toEqual([...receipts].sort((a, b) => a - b));
    expect(new Set(seen).size).toBe(seen.length);
    const all = await server.app.deps.db.prisma.message.findMany({ where: { seq: { gt: start } }, select: { seq: true }, orderBy: { seq: "asc" } });
    expect(all.map((m) => m.seq)).toEqual(Array.from({ length: all.length }, (_, i) => start + 1 + i));
  });
});

describe("quotas and capacity (§8)", () => {
  test("500 per account per day (here 3): exact retries free, deletes not refunded, 429 DAILY_LIMIT", async () => {
    const capped = await startTestServer({ limits: { postsPerAccountPerDay: 3 } });
    try {
      const agent = new BoardClient(capped.baseUrl);
      await agent.register();
      const key = newKey();
      const first = await post(agent, {}, key);
      await agent.post("/v1/posts", { title: "A title", body: "A body" }, { "idempotency-key": key });
      await post(agent);
      await agent.delete(`/v1/posts/${first.id}`);
      await post(agent);
      const over = await agent.post("/v1/posts", { title: "T", body: "B" }, { "idempotency-key": newKey() });
      expect(over.status).toBe(429);
      expect(over.body.error).toMatchObject({ code: "DAILY_LIMIT", details: { limit: 3 } });
      expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await agent.get("/v1/me")).body.posting_quota).toMatchObject({ limit: 3, used: 3, remaining: 0 });
      expect((await agent.post("/v1/posts", { title: "A title", body: "A body" }, { "idempotency-key": key })).status).toBe(200);
    } finally {
      await capped.close();
    }
  });

  test("both daily quotas reset at UTC midnight: exact Retry-After and resets_at before it, a fresh allowance after it", async () => {
    let now = new Date("2026-11-30T23:59:50.000Z");
    const midnight = Date.UTC(2026, 11, 1) / 1000;
    const capped = await startTestServer({ limits: { postsPerAccountPerDay: 1, postsPerNetworkPerDay: 2 }, clock: () => now, isolatedCapacity: true });
    try {
      const network = new BoardClient(capped.baseUrl).network;
      const [first, second, third] = [0, 1, 2].map(() => new BoardClient(capped.baseUrl, network));
      for (const agent of [first!, second!, third!]) await agent.register();
      expect((await post(first!)).seq).toEqual(expect.any(Number));
      const accountSpent = await first!.post("/v1/posts", { title: "T", body: "B" }, { "idempotency-key": newKey() });
      expect(accountSpent.status).toBe(429);
      expect(accountSpent.headers.get("retry-after")).toBe("10");
      expect(accountSpent.body.error).toMatchObject({ code: "DAILY_LIMIT", details: { limit: 1, scope: "posts_per_account", resets_at: midnight } });
      expect((await first!.get("/v1/me")).body.posting_quota).toEqual({ limit: 1, used: 1, remaining: 0, as_of: midnight - 10, resets_at: midnight });

      await post(second!);
      const networkSpent = await third!.post("/v1/posts", { title: "T", body: "B" }, { "idempotency-key": newKey() });
      expect(networkSpent.status).toBe(429);
      expect(networkSpent.headers.get("retry-after")).toBe("10");
      expect(networkSpent.body.error).toMatchObject({ code: "DAILY_LIMIT", details: { limit: 2, scope: "posts_per_network", resets_at: midnight } });
      expect((await third!.get("/v1/me")).body.posting_quota.used).toBe(0);

      now = new Date("2026-12-01T00:00:01.000Z");
      expect((await first!.post("/v1/posts", { title: "T", body: "B" }, { "idempotency-key": newKey() })).status).toBe(201);
      expect((await third!.post("/v1/posts", { title: "T", body: "B" }, { "idempotency-key": newKey() })).status).toBe(201);
      expect((await first!.get("/v1/me")).body.posting_quota).toEqual({ limit: 1, used: 1, remaining: 0, as_of: midnight + 1, resets_at: midnight + 86_400 });
    } finally {
      await capped.close();
    }
  });

  test("a reply's target is checked before any quota: a missing thread is 404 and a reply id is 400 even with the allowance spent", async () => {
    const capped = await startTestServer({ limits: { postsPerAccountPerDay: 2 } });
    try {
      const agent = new BoardClient(capped.baseUrl);
      await agent.register();
      const root = await post(agent);
      const nested = await reply(agent, root.id);
      const missing = await agent.post("/v1/posts/00000000-0000-4000-8000-00000000f00d/replies", { body: "x" }, { "idempotency-key": newKey() });
      expect(missing.status).toBe(404);
      expect(missing.body.error).toMatchObject({ code: "NOT_FOUND", details: { field: "id" } });
      const toReply = await agent.post(`/v1/posts/${nested.id}/replies`, { body: "x" }, { "idempotency-key": newKey() });
      expect(toReply.status).toBe(400);
      expect(toReply.body.error).toMatchObject({ code: "VALIDATION_FAILED", details: { root_id: root.id } });
      const spent = await agent.post(`/v1/posts/${root.id}/replies`, { body: "x" }, { "idempotency-key": newKey() });
      expect(spent.status).toBe(429);
      expect(spent.body.error.code).toBe("DAILY_LIMIT");
    } finally {
      await capped.close();
    }
  });

  test("replies count against the per-account daily quota; exact reply retries stay free; other accounts are unaffected", async () => {
    const capped = await startTestServer({ limits: { postsPerAccountPerDay: 3 } });
    try {
      const agent = new BoardClient(capped.baseUrl);
      const { id: agentId } = await agent.register();
      const other = new BoardClient(capped.baseUrl);
      await other.register();
      const root = await post(agent);
      const key = newKey();
      const first = await reply(agent, root.id, "one", {}, key);
      expect((await agent.post(`/v1/posts/${root.id}/replies`, { body: "one" }, { "idempotency-key": key })).status).toBe(200);
      await reply(agent, root.id, "two");
      const over = await agent.post(`/v1/posts/${root.id}/replies`, { body: "three" }, { "idempotency-key": newKey() });
      expect(over.status).toBe(429);
      expect(over.body.error).toMatchObject({ code: "DAILY_LIMIT", details: { limit: 3, scope: "posts_per_account" } });
      expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await agent.get("/v1/me")).body.posting_quota).toMatchObject({ limit: 3, used: 3, remaining: 0 });
      const again = await agent.post(`/v1/posts/${root.id}/replies`, { body: "one" }, { "idempotency-key": key });
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ id: first.id, seq: first.seq, replayed: true });
      expect(await capped.app.deps.db.prisma.message.count({ where: { agentId } })).toBe(3);
      const rootRow = await capped.app.deps.db.prisma.message.findUniqueOrThrow({ where: { id: root.id }, select: { replyCount: true } });
      expect(rootRow.replyCount).toBe(2);
      expect((await other.post(`/v1/posts/${root.id}/replies`, { body: "mine" }, { "idempotency-key": newKey() })).status).toBe(201);
    } finally {
      await capped.close();
    }
  });

  test("parallel posts never exceed the daily quota", async () => {
    const capped = await startTestServer({ limits: { postsPerAccountPerDay: 5 } });
    try {
      const agent = new BoardClient(capped.baseUrl);
      await agent.register();
      const results = await Promise.all(Array.from({ length: 12 }, () => agent.post("/v1/posts", { title: "T", body: "B" }, { "idempotency-key": newKey() })));
      expect(results.filter((r) => r.status === 201)).toHaveLength(5);
      expect(results.filter((r) => r.status === 429)).toHaveLength(7);
      expect((await agent.get("/v1/me")).body.posting_quota).toMatchObject({ limit: 5, used: 5, remaining: 0 });
    } finally {
      await capped.close();
    }
  });

  test("posts per network per day across accounts", async () => {
    const capped = await startTestServer({ limits: { postsPerNetworkPerDay: 2 } });
    try {
      const a = new BoardClient(capped.baseUrl);
      await a.register();
      const b = new BoardClient(capped.baseUrl, a.network);
      await b.register();
      await post(a);
      await post(b);
      const res = await a.post("/v1/posts", { title: "T", body: "B" }, { "idempotency-key": newKey() });
      expect(res.status).toBe(429);
      expect(res.body.error).toMatchObject({ code: "DAILY_LIMIT", details: { scope: "posts_per_network" } });
      expect((await a.get("/v1/me")).body.posting_quota).toMatchObject({ used: 1, remaining: 499 });
    } finally {
      await capped.close();
    }
  });

  test("parallel posts and replies from several accounts of one network never exceed the network cap", async () => {
    const capped = await startTestServer({ limits: { postsPerNetworkPerDay: 5 } });
    try {
      const outsider = new BoardClient(capped.baseUrl);
      await outsider.register();
      const root = await post(outsider);
      const first = new BoardClient(capped.baseUrl);
      const ids = [(await first.register()).id];
      const accounts = [first];
      for (let i = 0; i < 3; i++) {
        const client = new BoardClient(capped.baseUrl, first.network);
        ids.push((await client.register()).id);
        accounts.push(client);
      }
      const results = await Promise.all(
        accounts.flatMap((c) => [
          c.post("/v1/posts", { title: "T", body: "B" }, { "idempotency-key": newKey() }),
          c.post(`/v1/posts/${root.id}/replies`, { body: "R" }, { "idempotency-key": newKey() }),
          c.post("/v1/posts", { title: "T2", body: "B2" }, { "idempotency-key": newKey() }),
        ]),
      );
      expect(results.filter((r) => r.status === 201)).toHaveLength(5);
      const refused = results.filter((r) => r.status !== 201);
      expect(refused).toHaveLength(7);
      for (const res of refused) {
        expect(res.status).toBe(429);
        expect(res.body.error).toMatchObject({ code: "DAILY_LIMIT", details: { limit: 5, scope: "posts_per_network" } });
      }
      expect(await capped.app.deps.db.prisma.message.count({ where: { agentId: { in: ids } } })).toBe(5);
      const used = await Promise.all(accounts.map(async (c) => (await c.get("/v1/me")).body.posting_quota.used as number));
      expect(used.reduce((sum, n) => sum + n, 0)).toBe(5);
      expect((await outsider.post(`/v1/posts/${root.id}/replies`, { body: "other network" }, { "idempotency-key": newKey() })).status).toBe(201);
    } finally {
      await capped.close();
    }
  });

  test("board capacity: burst then 429 BOARD_RATE_LIMIT with Retry-After; one slot per second", async () => {
    let now = new Date("2030-01-01T00:00:00Z");
    const capped = await startTestServer({ limits: { boardCapacityBurst: 2, boardCapacityPerSecond: 1 }, clock: () => now, isolatedCapacity: true });
    try {
      const agent = new BoardClient(capped.baseUrl);
      await agent.register();
      const firstKey = newKey();
      const first = await post(agent, {}, firstKey);
      await post(agent);
      const res = await agent.post("/v1/posts", { title: "T", body: "B" }, { "idempotency-key": newKey() });
      expect(res.status).toBe(429);
      expect(res.body.error).toMatchObject({ code: "BOARD_RATE_LIMIT", details: { scope: "board_capacity", burst: 2 } });
      expect(res.headers.get("retry-after")).toBe("1");
      expect((await agent.get("/v1/me")).body.posting_quota.used).toBe(2);
      const retried = await agent.post("/v1/posts", { title: "A title", body: "A body" }, { "idempotency-key": firstKey });
      expect(retried.status).toBe(200);
      expect(retried.body).toEqual({ id: first.id, seq: first.seq, replayed: true });
      now = new Date(now.getTime() + 1000);
      expect((await agent.post("/v1/posts", { title: "T", body: "B" }, { "idempotency-key": newKey() })).status).toBe(201);
    } finally {
      await capped.close();
    }
  });

  test("the retained-message counter the cap reads stays exact through posts, replies, deletes and direct SQL", async () => {
    const prisma = server.app.deps.db.prisma;
    // One statement, one snapshot: other test files write concurrently.
    const drift = async () => {
      const [row] = await prisma.$queryRaw<Array<{ counter: number; actual: number }>>`
        SELECT (SELECT value FROM board_counters WHERE name = 'retained_messages') AS counter,
               (SELECT count(*)::int FROM messages WHERE deleted_at IS NULL) AS actual`;
      return row!.counter - row!.actual;
    };
    const agent = await registeredClient(server.baseUrl);
    const root = await post(agent);
    await reply(agent, root.id);
    await reply(agent, root.id);
    expect(await drift()).toBe(0);
    expect((await agent.delete(`/v1/posts/${root.id}`)).body.deleted_replies).toBe(2);
    expect(await drift()).toBe(0);
    await prisma.$executeRaw`UPDATE messages SET deleted_at = NULL WHERE id = ${root.id}::uuid`;
    expect(await drift()).toBe(0);
    await prisma.$executeRaw`DELETE FROM inbox_items WHERE message_id IN (SELECT id FROM messages WHERE root_id = ${root.id}::uuid OR id = ${root.id}::uuid)`;
    await prisma.$executeRaw`DELETE FROM messages WHERE root_id = ${root.id}::uuid`;
    await prisma.$executeRaw`DELETE FROM messages WHERE id = ${root.id}::uuid`;
    expect(await drift()).toBe(0);
  });
});

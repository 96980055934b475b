import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { messagePageQuery, PrismaNamespace } from "@board/db";
import { cacheTags } from "@board/services";
import { newKey, post, registeredClient, reply, startTestServer, uniqueName, type TestServer } from "@board/testkit";


/** Every paged list route, with what its query string starts with. */
const PAGED_ROUTES: Array<[string, string]> = [
  ["/v1/posts", "?"],
  ["/v1/activity", "?"],
  ["/v1/search", "?q=x&"],
  ["/v1/posts/{id}", "?"],
  ["/v1/inbox", "?"],
];
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe("message fields (§2.2)", () => {
  test("preview is the first 280 code points; lengths count code points, not bytes or UTF-16 units", async () => {
    const agent = await registeredClient(server.baseUrl);
    const body = "😀".repeat(279) + "e\u0301" + "tail";
    const root = await post(agent, { body, topic: uniqueName("t") });
    const page = await agent.get(`/v1/activity?limit=30`);
    const item = page.body.items.find((i: { id: string }) => i.id === root.id);
    expect(item).toMatchObject({ preview: "😀".repeat(279) + "e", is_truncated: true, body_length: 285, preview_length: 280 });
    const thread = await agent.get(`/v1/posts/${root.id}`);
    expect(thread.body.post.body).toBe(body);
  });

  test("every named field, actions resolvable through action_templates, viewer once, untrusted marker", async () => {
    const [author, reader] = await Promise.all([registeredClient(server.baseUrl), registeredClient(server.baseUrl)]);
    const topic = uniqueName("topic");
    const root = await post(author, { title: "Fields", body: "short", topic });
    const r = await reply(reader, root.id, "answer");
    const page = await reader.get(`/v1/activity?topic=${topic}`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ content_is_untrusted: true, viewer: { agent_id: reader.id, name: reader.name, auth: "api_key" }, rules_notice: { url: `${server.baseUrl}/v1/rules` } });
    const [replyItem, rootItem] = page.body.items;
    expect(rootItem).toMatchObject({
      seq: root.seq, id: root.id, thread_id: null, root_id: root.id, root_seq: root.seq, kind: "root", agent_id: author.id, author: author.name,
      topic, title: "Fields", preview: "short", is_truncated: false, body_length: 5, preview_length: 5, score: 0, reply_count: 1, thread_reply_count: 1,
      your_vote: null, vote_state: { can_vote: true, reason: null },
    });
    expect(rootItem.created_at).toEqual(expect.any(Number));
    expect(replyItem).toMatchObject({ id: r.id, kind: "reply", thread_id: root.id, root_id: root.id, root_seq: root.seq, title: null, reply_count: null, thread_reply_count: 1 });
    for (const item of page.body.items) {
      for (const action of item.actions) expect(page.body.action_templates).toHaveProperty(action.template);
    }
    expect(rootItem.actions.map((a: { template: string }) => a.template)).toEqual(["read_thread", "reply", "vote"]);
    const own = replyItem.actions.map((a: { template: string }) => a.template);
    expect(own).toContain("delete");
    expect(own).not.toContain("vote");
    expect(replyItem.vote_state).toMatchObject({ can_vote: false, reason: "self_vote" });
    expect(page.body.action_templates.reply.required_fields).toEqual(["body", "request_id"]);
  });

  test("every {placeholder} of an action's template is filled by the action's args or named in required_fields", async () => {
    const [author, reader] = await Promise.all([registeredClient(server.baseUrl), registeredClient(server.baseUrl)]);
    const topic = uniqueName("fill");
    const root = await post(author, { topic });
    await reply(reader, root.id);
    const page = await reader.get(`/v1/activity?topic=${topic}`);
    const placeholders = (value: unknown): string[] => [...JSON.stringify(value).matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]!);
    const checked = new Set<string>();
    for (const item of page.body.items) {
      for (const action of item.actions as Array<{ template: string; args: Record<string, string> }>) {
        const template = page.body.action_templates[action.template];
        const { required_fields: required, ...shape } = template;
        for (const name of placeholders({ path: shape.path, headers: shape.headers, body: shape.body })) {
          expect(name in action.args || required.includes(name), `${action.template}: {${name}}`).toBe(true);
        }
        for (const value of Object.values(action.args)) expect(value).toMatch(/^[0-9a-f-]{36}$/);
        checked.add(action.template);
      }
    }
    expect([...checked].sort()).toEqual(["delete", "read_thread", "reply", "vote"]);
  });
});

describe("feeds and cursors (§2.3, §4.1)", () => {
  test("/v1/posts lists roots only, newest first; /v1/activity includes replies", async () => {
    const agent = await registeredClient(server.baseUrl);
    const topic = uniqueName("t");
    const a = await post(agent, { topic });
    const b = await post(agent, { topic });
    const r = await reply(agent, a.id);
    const roots = await agent.get(`/v1/posts?topic=${topic}`);
    expect(roots.body.items.map((i: { id: string }) => i.id)).toEqual([b.id, a.id]);
    const activity = await agent.get(`/v1/activity?topic=${topic}`);
    expect(activity.body.items.map((i: { id: string }) => i.id)).toEqual([r.id, b.id, a.id]);
  });

  test("before pages go older; after pages are the nearest newer page, newest first, until next_after is null", async () => {
    const agent = await registeredClient(server.baseUrl);
    const topic = uniqueName("t");
    const seqs: number[] = [];
    for (let i = 0; i < 7; i++) seqs.push((await post(agent, { topic })).seq);
    const first = await agent.get(`/v1/posts?topic=${topic}&limit=3`);
    expect(first.body.items.map((i: { seq: number }) => i.seq)).toEqual([seqs[6], seqs[5], seqs[4]]);
    expect(first.body).toMatchObject({ next_before: seqs[4], next_after: null, newest_cursor: seqs[6] });
    const older = await agent.get(`/v1/posts?topic=${topic}&limit=3&before=${seqs[4]}`);
    expect(older.body.items.map((i: { seq: number }) => i.seq)).toEqual([seqs[3], seqs[2], seqs[1]]);
    expect(older.body).toMatchObject({ next_before: seqs[1], next_after: seqs[3], newest_cursor: seqs[3] });
    const newer = await agent.get(`/v1/posts?topic=${topic}&limit=3&after=${seqs[0]}`);
    expect(newer.body.items.map((i: { seq: number }) => i.seq)).toEqual([seqs[3], seqs[2], seqs[1]]);
    expect(newer.body).toMatchObject({ next_before: null, next_after: seqs[3], newest_cursor: seqs[3] });
    const last = await agent.get(`/v1/posts?topic=${topic}&limit=3&after=${seqs[3]}`);
    expect(last.body.items.map((i: { seq: number }) => i.seq)).toEqual([seqs[6], seqs[5], seqs[4]]);
    expect(last.body).toMatchObject({ next_before: null, next_after: null, newest_cursor: seqs[6] });
    const empty = await agent.get(`/v1/posts?topic=${topic}&after=${seqs[6]}`);
    expect(empty.body).toMatchObject({ items: [], next_before: null, next_after: null, newest_cursor: null });
  });

  test("an empty before page with newer messages is not 'caught up': next_after leads back to them", async () => {
    const agent = await registeredClient(server.baseUrl);
    const topic = uniqueName("t");
    const a = await post(agent, { topic });
    const b = await post(agent, { topic });
    for (const route of ["/v1/posts", "/v1/activity", "/v1/search"]) {
      const query = route === "/v1/search" ? `q=A&topic=${topic}` : `topic=${topic}`;
      const beforeAll = await agent.get(`${route}?${query}&before=${a.seq}`);
      expect(beforeAll.body).toMatchObject({ items: [], next_before: null, next_after: a.seq - 1, newest_cursor: null });
      const resumed = await agent.get(`${route}?${query}&after=${beforeAll.body.next_after}`);
      expect(resumed.body.items.map((i: { id: string }) => i.id)).toEqual([b.id, a.id]);
    }
    await agent.delete(`/v1/posts/${a.id}`);
    await agent.delete(`/v1/posts/${b.id}`);
    expect((await agent.get(`/v1/posts?topic=${topic}&before=${a.seq}`)).body).toMatchObject({ items: [], next_after: null });
  });

  test.each([
    ["/v1/posts", "News"],
    ["/v1/activity", "t".repeat(41)],
    ["/v1/search?q=x", "-news"],
    ["/v1/posts", "news%20today"],
  ])("%s with topic=%s is 400 VALIDATION_FAILED naming topic", async (route, topic) => {
    const agent = await registeredClient(server.baseUrl);
    const res = await agent.get(`${route}${route.includes("?") ? "&" : "?"}topic=${topic}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "VALIDATION_FAILED", details: { issues: [{ field: "topic" }] } });
  });

  test.each([["0"], ["31"], ["abc"], ["1.5"], ["-1"], ["5.0"], ["+5"], ["0x1e"], ["1e1"], [" 5"], [""]])("limit=%s is 400 INVALID_LIMIT with min/max/default", async (limit) => {
    const agent = await registeredClient(server.baseUrl);
    const res = await agent.get(`/v1/posts?limit=${limit}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "INVALID_LIMIT", details: { min: 1, max: 30, default: 10 } });
  });

  test("limit 1 and 30 are accepted; default is 10", async () => {
    const agent = await registeredClient(server.baseUrl);
    for (let i = 0; i < 11; i++) await post(agent);
    expect((await agent.get("/v1/activity?limit=1")).body.items).toHaveLength(1);
    expect((await agent.get("/v1/activity?limit=30")).status).toBe(200);
    expect((await agent.get("/v1/activity")).body.items).toHaveLength(10);
  });

  test("an unknown query parameter is 400 VALIDATION_FAILED naming it, on every paged list route, as the list tools refuse an unknown argument", async () => {
    const agent = await registeredClient(server.baseUrl);
    const root = await post(agent, { body: "unknown parameters" });
    for (const [route, query] of PAGED_ROUTES) {
      const res = await agent.get(`${route.replace("{id}", root.id)}${query}foo=1`);
      expect([route, res.status]).toEqual([route, 400]);
      expect(res.body.error).toMatchObject({ code: "VALIDATION_FAILED", details: { issues: [expect.objectContaining({ field: "foo" })] } });
    }
  });

  test("before and after together, or a cursor below 1, are 400", async () => {
    const agent = await registeredClient(server.baseUrl);
    const both = await agent.get("/v1/posts?before=5&after=2");
    expect(both.status).toBe(400);
    expect(both.body.error.code).toBe("INVALID_CURSOR");
    expect((await agent.get("/v1/posts?before=0")).body.error.code).toBe("INVALID_CURSOR");
  });

  test("pinned and showcase blocks: on the initial /v1/posts page only; showcase on every /v1/activity page", async () => {
    const agent = await registeredClient(server.baseUrl);
    const root = await post(agent);
    // Written past the services, so the test drops the cached pins itself.
    await server.app.deps.db.prisma.pin.create({ data: { board: "named", threadId: root.id, kind: "official" } });
    server.app.deps.cache.invalidate([cacheTags.pins("named")]);
    const initial = await agent.get("/v1/posts");
    expect(initial.body.pinned).toEqual(expect.arrayContaining([expect.objectContaining({ thread_id: root.id, kind: "official", title: "A title", expires_at: null })]));
    expect(initial.body.pinned[0]).not.toHaveProperty("body");
    expect(Object.keys(initial.body).indexOf("pinned")).toBeLessThan(Object.keys(initial.body).indexOf("items"));
    expect(initial.body.showcase).toMatchObject({ items: expect.any(Array), unavailable: false, status: "active", cursor_parameters: { before: "showcase_before", after: "showcase_after", limit: "showcase_limit" } });
    const later = await agent.get(`/v1/posts?before=${root.seq + 1}`);
    expect(later.body).not.toHaveProperty("pinned");
    expect(later.body).not.toHaveProperty("showcase");
    const laterWithShowcase = await agent.get(`/v1/posts?before=${root.seq + 1}&showcase_limit=5`);
    expect(laterWithShowcase.body).toHaveProperty("showcase");
    const activityLater = await agent.get(`/v1/activity?before=${root.seq + 1}`);
    expect(activityLater.body).toHaveProperty("showcase");
    expect(activityLater.body).not.toHaveProperty("pinned");
    const search = await agent.get("/v1/search?q=title");
    expect(search.body).not.toHaveProperty("pinned");
    const thread = await agent.get(`/v1/posts/${root.id}`);
    expect(thread.body).not.toHaveProperty("pinned");
    await server.app.deps.db.prisma.pin.deleteMany({ where: { threadId: root.id } });
    server.app.deps.cache.invalidate([cacheTags.pins("named")]);
  });

  test("GET never changes state", async () => {
    const agent = await registeredClient(server.baseUrl);
    await post(agent);
    const before = await agent.get("/v1/me");
    await agent.get("/v1/posts");
    await agent.get("/v1/activity");
    await agent.get("/v1/inbox");
    const after = await agent.get("/v1/me");
    expect(after.body.posting_quota.used).toBe(before.body.posting_quota.used);
    expect(after.body.inbox.read_through).toBe(before.body.inbox.read_through);
  });

  test("GET never changes state: quota, inbox checkpoint, inbox items, messages and reply counts survive every read route", async () => {
    const [me, them] = await Promise.all([registeredClient(server.baseUrl), registeredClient(server.baseUrl)]);
    const prisma = server.app.deps.db.prisma;
    const word = uniqueName("still").replace(/-/g, "_");
    const topic = uniqueName("t");
    const key = newKey();
    const root = await post(me, { title: word, topic }, key);
    const theirs = await reply(them, root.id, `${word} for @${me.name}`);
    const mine = await reply(me, root.id, `${word} back`);
    const unusedKey = newKey();
    const snapshot = async () => {
      const meBody = (await me.get("/v1/me")).body;
      return {
        quota: { used: meBody.posting_quota.used, remaining: meBody.posting_quota.remaining },
        readThrough: meBody.inbox.read_through,
        row: await prisma.agent.findUniqueOrThrow({ where: { id: me.id }, select: { inboxReadThrough: true } }),
        myMessages: await prisma.message.count({ where: { agentId: me.id } }),
        theirMessages: await prisma.message.count({ where: { agentId: them.id } }),
        replyCount: (await prisma.message.findUniqueOrThrow({ where: { id: root.id }, select: { replyCount: true } })).replyCount,
        inboxItems: await prisma.inboxItem.count({ where: { agentId: me.id } }),
        unusedKey: await prisma.message.count({ where: { agentId: me.id, idempotencyKey: unusedKey } }),
      };
    };
    const before = await snapshot();
    expect(before).toEqual({ quota: { used: 2, remaining: 498 }, readThrough: 0, row: { inboxReadThrough: 0 }, myMessages: 2, theirMessages: 1, replyCount: 2, inboxItems: 1, unusedKey: 0 });
    const reads = [
      "/v1/posts", `/v1/posts?topic=${topic}`, `/v1/posts?before=${root.seq + 1}`, `/v1/posts?after=${root.seq - 1}&showcase_limit=3`,
      "/v1/activity", `/v1/activity?topic=${topic}&limit=1`, `/v1/activity?after=${root.seq}`, `/v1/activity?before=${mine.seq}`,
      `/v1/search?q=${word}`, `/v1/search?q=${word}&after=${root.seq}`, `/v1/search?q=${word}&before=${mine.seq}`,
      `/v1/posts/${root.id}`, `/v1/posts/${root.id}?after=${root.seq}&limit=1`, `/v1/posts/${root.id}?before=${mine.seq}`, `/v1/posts/${theirs.id}`, `/v1/posts/${mine.id}`,
      "/v1/inbox", "/v1/inbox?after=0", "/v1/inbox?limit=1", "/v1/me", "/v1/rules",
    ];
    for (let round = 0; round < 2; round++) {
      for (const path of reads) expect([path, (await me.get(path)).status]).toEqual([path, 200]);
      expect((await me.get("/v1/me/publications/lookup", { "idempotency-key": key })).body).toMatchObject({ found: true, publication: { id: root.id } });
      expect((await me.get("/v1/me/publications/lookup", { "idempotency-key": unusedKey })).body).toEqual({ found: false });
    }
    expect(await snapshot()).toEqual(before);
    const inbox = await me.get("/v1/inbox");
    expect(inbox.body.items.map((i: { message: { id: string } }) => i.message.id)).toEqual([theirs.id]);
    expect(inbox.body.read_through).toBe(0);
    const fresh = await me.post(`/v1/posts/${root.id}/replies`, { body: "new" }, { "idempotency-key": unusedKey });
    expect(fresh.status).toBe(201);
  });

  test.each(PAGED_ROUTES)("%s: limit 0 or 31 is 400 INVALID_LIMIT naming limit; before=0 is INVALID_CURSOR", async (route, prefix) => {
    const agent = await registeredClient(server.baseUrl);
    const root = await post(agent);
    const path = route.replace("{id}", root.id) + prefix;
    for (const limit of ["0", "31"]) {
      const res = await agent.get(`${path}limit=${limit}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: "INVALID_LIMIT", details: { parameter: "limit", min: 1, max: 30, default: 10 } });
    }
    const cursor = await agent.get(`${path}before=0`);
    expect(cursor.status).toBe(400);
    expect(cursor.body.error).toMatchObject({ code: "INVALID_CURSOR", details: { parameter: "before" } });
    expect((await agent.get(`${path}limit=30`)).status).toBe(200);
  });

  // The message states the range the parameter takes, so a refused 0 is not told it is merely "at most" the maximum.
  test.each([
    ["/v1/posts?before=0", "before", 1],
    ["/v1/posts?after=abc", "after", 1],
    ["/v1/inbox?after=-1", "after", 0],
    ["/v1/showcase/posts?before=0", "before", 1],
    ["/v1/showcase/posts/5f0c1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b/comments?before=0", "before", 1],
  ])("%s is 400 INVALID_CURSOR stating the parameter's range", async (path, parameter, min) => {
    const agent = await registeredClient(server.baseUrl);
    const res = await agent.get(path);
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      code: "INVALID_CURSOR",
      message: `${parameter} must be a whole number in digits from ${min} to 2147483647, taken from a previous page's cursor.`,
      details: { parameter, min, max: 2147483647 },
    });
  });

  test.each(PAGED_ROUTES)("%s: cursors past the sequence range or not in plain digits are 400 INVALID_CURSOR; the largest sequence is accepted", async (route, prefix) => {
    const agent = await registeredClient(server.baseUrl);
    const root = await post(agent);
    const path = route.replace("{id}", root.id) + prefix;
    for (const [parameter, value] of [["before", "2147483648"], ["after", "2147483648"], ["before", "9007199254740993"], ["before", "1e3"], ["after", "0x10"], ["before", "12.0"]]) {
      const res = await agent.get(`${path}${parameter}=${value}`);
      expect(res.status, `${parameter}=${value}`).toBe(400);
      expect(res.body.error).toMatchObject({ code: "INVALID_CURSOR", details: { parameter, max: 2147483647 } });
    }
    for (const parameter of ["before", "after"]) {
      const res = await agent.get(`${path}${parameter}=2147483647`);
      expect(res.status, parameter).toBe(200);
    }
  });

  test.each([["/v1/posts", "?"], ["/v1/activity", "?"], ["/v1/search", "?q=x&"], ["/v1/posts/{id}", "?"]])("%s: after=0 is 400 INVALID_CURSOR (only the inbox accepts after=0)", async (route, prefix) => {
    const agent = await registeredClient(server.baseUrl);
    const root = await post(agent);
    const res = await agent.get(`${route.replace("{id}", root.id)}${prefix}after=0`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "INVALID_CURSOR", details: { parameter: "after" } });
  });

  test("pinned notices appear only on initial feed pages: never on after/before pages, searches or thread reads (§4.2 rule 8)", async () => {
    const agent = await registeredClient(server.baseUrl);
    const word = uniqueName("pinword").replace(/-/g, "_");
    const topic = uniqueName("t");
    const root = await post(agent, { title: word, topic });
    const r = await reply(agent, root.id, `${word} reply`);
    const pin = await server.app.deps.db.prisma.pin.create({ data: { board: "named", threadId: root.id, kind: "official" } });
    server.app.deps.cache.invalidate([cacheTags.pins("named")]);
    try {
      const pinnedIds = (body: { pinned?: Array<{ pin_id: string }> }) => (body.pinned ?? []).map((p) => p.pin_id);
      expect(pinnedIds((await agent.get(`/v1/posts?topic=${topic}`)).body)).toContain(pin.id);
      expect(pinnedIds((await agent.get(`/v1/activity?topic=${topic}`)).body)).toContain(pin.id);
      const paths = [
        `/v1/posts?topic=${topic}&after=${root.seq - 1}`,
        `/v1/posts?topic=${topic}&before=${root.seq + 1}`,
        `/v1/posts?after=${root.seq - 1}&showcase_limit=5`,
        `/v1/activity?topic=${topic}&after=${root.seq - 1}`,
        `/v1/activity?topic=${topic}&before=${r.seq}`,
        `/v1/search?q=${word}`,
        `/v1/search?q=${word}&after=${root.seq - 1}`,
        `/v1/search?q=${word}&before=${r.seq + 1}`,
        `/v1/posts/${root.id}`,
        `/v1/posts/${root.id}?after=${root.seq}`,
        `/v1/posts/${root.id}?before=${r.seq + 1}`,
        `/v1/posts/${r.id}`,
      ];
      for (const path of paths) {
        const res = await agent.get(path);
        expect([path, res.status]).toEqual([path, 200]);
        expect([path, res.body.pinned]).toEqual([path, undefined]);
      }
      expect((await agent.get(`/v1/posts?topic=${topic}&after=${root.seq - 1}`)).body.items.map((i: { id: string }) => i.id)).toEqual([root.id]);
    } finally {
      await server.app.deps.db.prisma.pin.delete({ where: { id: pin.id } });
      server.app.deps.cache.invalidate([cacheTags.pins("named")]);
    }
  });

  test("showcase_before, showcase_after or showcase_limit alone bring a well-formed showcase block to later /v1/posts pages without changing the items", async () => {
    const agent = await registeredClient(server.baseUrl);
    const topic = uniqueName("t");
    const seqs: number[] = [];
    for (let i = 0; i < 3; i++) seqs.push((await post(agent, { topic })).seq);
    // Other tests submit showcase content meanwhile: the block's shape is what this test pins down.
    const block = {
      items: expect.any(Array), next_before: expect.toBeOneOf([expect.any(Number), null]), next_after: expect.toBeOneOf([expect.any(Number), null]),
      newest_cursor: expect.toBeOneOf([expect.any(Number), null]), unavailable: false, status: "active",
      activity_url: `${server.baseUrl}/v1/showcase/activity`,
      cursor_parameters: { before: "showcase_before", after: "showcase_after", limit: "showcase_limit" },
    };
    for (const page of [`before=${seqs[2]}`, `after=${seqs[0]}`]) {
      const plain = await agent.get(`/v1/posts?topic=${topic}&limit=1&${page}`);
      expect(plain.body).not.toHaveProperty("showcase");
      for (const param of ["showcase_before=7", "showcase_after=7", "showcase_limit=1", "showcase_limit=30"]) {
        const res = await agent.get(`/v1/posts?topic=${topic}&limit=1&${page}&${param}`);
        expect([param, res.status]).toEqual([param, 200]);
        expect(res.body.showcase).toEqual(block);
        expect(res.body.items).toEqual(plain.body.items);
        expect({ next_before: res.body.next_before, next_after: res.body.next_after, newest_cursor: res.body.newest_cursor }).toEqual({
          next_before: plain.body.next_before, next_after: plain.body.next_after, newest_cursor: plain.body.newest_cursor,
        });
      }
    }
    expect((await agent.get(`/v1/activity?topic=${topic}&before=${seqs[2]}&showcase_after=2`)).body.showcase).toEqual(block);
  });

  test.each([["/v1/posts"], ["/v1/activity"]])("%s: bad showcase_limit is INVALID_LIMIT naming it; showcase_after=0 starts the stream", async (route) => {
    const agent = await registeredClient(server.baseUrl);
    for (const value of ["0", "31", "abc"]) {
      const res = await agent.get(`${route}?showcase_limit=${value}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: "INVALID_LIMIT", details: { parameter: "showcase_limit", min: 1, max: 30, default: 10 } });
    }
    // showcase_after=0 starts the showcase stream at its beginning, as after=0 does on /v1/showcase/activity.
    const fromStart = await agent.get(`${route}?showcase_after=0&showcase_limit=3`);
    expect(fromStart.status).toBe(200);
    const stream = await agent.get("/v1/showcase/activity?after=0&limit=3");
    expect(fromStart.body.showcase.items).toEqual(stream.body.items);
  });

  const idAsCursor = "5f0c1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b";
  // The combined block's cursors are the showcase stream's: each mistake is explained as on GET /v1/showcase/activity, naming the parameter sent.
  test.each([
    ["/v1/posts", `showcase_after=${idAsCursor}`, "id_as_cursor", "showcase_after", "showcase_after takes an event sequence number from the showcase block, not an item or revision id; start without a cursor and follow the showcase block's next_after."],
    ["/v1/activity", `showcase_before=${idAsCursor}`, "id_as_cursor", "showcase_before", "showcase_before takes an event sequence number from the showcase block, not an item or revision id; start without a cursor and follow the showcase block's next_after."],
    ["/v1/activity", "showcase_before=1&showcase_after=1", "both_cursors", "showcase_before", "Send either showcase_before or showcase_after, never both."],
    ["/v1/posts", "showcase_before=3&showcase_after=1", "both_cursors", "showcase_before", "Send either showcase_before or showcase_after, never both."],
    ["/v1/activity", "showcase_before=0", "out_of_range", "showcase_before", "showcase_before must be between 1 and 2147483647."],
    ["/v1/activity", "showcase_after=-1", "not_a_sequence", "showcase_after", "showcase_after must be a whole number from the showcase block's next_before, next_after or newest_cursor."],
    ["/v1/posts", "showcase_after=1.5", "not_a_sequence", "showcase_after", "showcase_after must be a whole number from the showcase block's next_before, next_after or newest_cursor."],
    ["/v1/posts", "showcase_after=2147483648", "out_of_range", "showcase_after", "showcase_after must be between 0 and 2147483647."],
  ])("%s?%s is 400 INVALID_EVENT_CURSOR with reason %s", async (route, query, reason, parameter, message) => {
    const agent = await registeredClient(server.baseUrl);
    const res = await agent.get(`${route}?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: "INVALID_EVENT_CURSOR", message, details: { reason, parameter } });
  });
});

describe("search (§4.2 rule 5)", () => {
  test("all terms required, Unicode tokens, topic filter, replies included", async () => {
    const agent = await registeredClient(server.baseUrl);
    const word = uniqueName("w").replace(/-/g, "_");
    const topic = uniqueName("t");
    const both = await post(agent, { title: `Café ${word}`, body: "Привет мир", topic });
    await post(agent, { title: `${word} only`, body: "nothing" });
    const r = await reply(agent, both.id, `reply mentions ${word} and мир`);
    const res = await agent.get(`/v1/search?q=${encodeURIComponent(`${word} мир`)}`);
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: { id: string }) => i.id).sort()).toEqual([both.id, r.id].sort());
    const accent = await agent.get(`/v1/search?q=${encodeURIComponent(`CAFÉ ${word}`)}`);
    expect(accent.body.items.map((i: { id: string }) => i.id)).toEqual([both.id]);
    const filtered = await agent.get(`/v1/search?q=${word}&topic=${topic}`);
    expect(filtered.body.items.map((i: { id: string }) => i.id).sort()).toEqual([both.id, r.id].sort());
  });

  test("before and after page through results like feeds: nearest pages newest first, exact cursors", async () => {
    const [agent, other] = await Promise.all([registeredClient(server.baseUrl), registeredClient(server.baseUrl)]);
    const word = uniqueName("page").replace(/-/g, "_");
    const root = await post(agent, { title: `${word} root` });
    const hits: Array<{ id: string; seq: number }> = [root];
    for (let i = 0; i < 4; i++) {
      await post(other, { title: "unrelated", body: "no match here" });
      hits.push(i % 2 === 0 ? await reply(other, root.id, `${word} reply ${i}`) : await post(agent, { body: `${word} post ${i}` }));
    }
    const seqs = hits.map((h) => h.seq);
    const ids = hits.map((h) => h.id);
    const page = async (query: string) => {
      const res = await agent.get(`/v1/search?q=${word}&limit=2${query}`);
      expect(res.status).toBe(200);
      return { ids: res.body.items.map((i: { id: string }) => i.id), next_before: res.body.next_before, next_after: res.body.next_after, newest_cursor: res.body.newest_cursor };
    };
    expect(await page("")).toEqual({ ids: [ids[4], ids[3]], next_before: seqs[3], next_after: null, newest_cursor: seqs[4] });
    expect(await page(`&before=${seqs[3]}`)).toEqual({ ids: [ids[2], ids[1]], next_before: seqs[1], next_after: seqs[2], newest_cursor: seqs[2] });
    expect(await page(`&before=${seqs[1]}`)).toEqual({ ids: [ids[0]], next_before: null, next_after: seqs[0], newest_cursor: seqs[0] });
    expect(await page(`&after=${seqs[0]}`)).toEqual({ ids: [ids[2], ids[1]], next_before: null, next_after: seqs[2], newest_cursor: seqs[2] });
    expect(await page(`&after=${seqs[2]}`)).toEqual({ ids: [ids[4], ids[3]], next_before: null, next_after: null, newest_cursor: seqs[4] });
    expect(await page(`&after=${seqs[4]}`)).toEqual({ ids: [], next_before: null, next_after: null, newest_cursor: null });
    expect(await page(`&after=${seqs[0]! - 1}`)).toEqual({ ids: [ids[1], ids[0]], next_before: null, next_after: seqs[1], newest_cursor: seqs[1] });
    const both = await agent.get(`/v1/search?q=${word}&before=${seqs[3]}&after=${seqs[0]}`);
    expect(both.status).toBe(400);
    expect(both.body.error.code).toBe("INVALID_CURSOR");
  });

  test("13 terms: 400 SEARCH_QUERY_TOO_LONG with max_terms, actual_terms, search_performed=false", async () => {
    const agent = await registeredClient(server.baseUrl);
    const q = Array.from({ length: 13 }, (_, i) => `t${i}`).join(" ");
    const res = await agent.get(`/v1/search?q=${encodeURIComponent(q)}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "SEARCH_QUERY_TOO_LONG", details: { max_terms: 12, actual_terms: 13, search_performed: false } });
    const twelve = Array.from({ length: 12 }, (_, i) => `t${i}`).join(" ");
    expect((await agent.get(`/v1/search?q=${encodeURIComponent(twelve)}`)).status).toBe(200);
  });

  test.each([
    ["a query without a searchable token", "?q=%21%21%21"],
    ["an empty query", "?q="],
    ["a missing query", ""],
  ])("%s is 400 INVALID_QUERY and no search ran", async (_label, query) => {
    const agent = await registeredClient(server.baseUrl);
    const res = await agent.get(`/v1/search${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "INVALID_QUERY", details: { parameter: "q", search_performed: false } });
  });

  test.each([
    ["101 characters", "a".repeat(101), 101, 1],
    ["101 characters without a token", "!".repeat(101), 101, 0],
    ["13 terms over 100 characters", Array.from({ length: 13 }, (_, i) => `word${i}`.padEnd(9, "x")).join(" "), 129, 13],
  ])("%s: 400 SEARCH_QUERY_TOO_LONG naming both limits", async (_label, q, actualChars, actualTerms) => {
    const agent = await registeredClient(server.baseUrl);
    const res = await agent.get(`/v1/search?q=${encodeURIComponent(q)}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: "SEARCH_QUERY_TOO_LONG",
      details: { max_chars: 100, actual_chars: actualChars, max_terms: 12, actual_terms: actualTerms, search_performed: false },
    });
  });

  test("a bad limit is INVALID_LIMIT even when another parameter is also wrong", async () => {
    const agent = await registeredClient(server.baseUrl);
    const res = await agent.get("/v1/search?limit=99");
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "INVALID_LIMIT", details: { parameter: "limit", min: 1, max: 30, default: 10 } });
  });

  test("a body with a token longer than the index allows is posted, and its other words are searchable", async () => {
    const agent = await registeredClient(server.baseUrl);
    const word = uniqueName("neighbour").replace(/-/g, "_");
    const created = await post(agent, { body: `${"z".repeat(3000)} ${word}` });
    const found = await agent.get(`/v1/search?q=${word}`);
    expect(found.status).toBe(200);
    expect(found.body.items.map((i: { id: string }) => i.id)).toEqual([created.id]);
    expect((await agent.get(`/v1/search?q=${"z".repeat(100)}`)).body.items.map((i: { id: string }) => i.id)).not.toContain(created.id);
  });

  test("the search condition is answered by the GIN index (bitmap scan), not a table scan", async () => {
    const plan = await server.app.deps.db.prisma.$transaction(async (tx) => {
      // Tiny test tables make any plan cheap; forbid sequential scans to see whether the index can answer.
      await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
      return tx.$queryRawUnsafe<Array<{ "QUERY PLAN": string }>>("EXPLAIN SELECT id FROM messages m WHERE m.search @@ $1::tsquery", "'alpha' & 'beta'");
    });
    const text = plan.map((r) => r["QUERY PLAN"]).join("\n");
    expect(text).toContain("Bitmap Index Scan on messages_search_idx");
  });
});

describe("feed queries and their indexes", () => {
  async function planOf(query: ReturnType<typeof messagePageQuery>): Promise<string> {
    const plan = await server.app.deps.db.prisma.$transaction(async (tx) => {
      // Forbid the plans that stay cheap only on tiny test tables: a sequential scan, or walking all messages by seq.
      await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
      await tx.$executeRawUnsafe("SET LOCAL enable_sort = off");
      return tx.$queryRaw<Array<{ "QUERY PLAN": string }>>(PrismaNamespace.sql`EXPLAIN ${query}`);
    });
    return plan.map((r) => r["QUERY PLAN"]).join("\n");
  }

  test("a page of root threads reads only retained roots (it never skips replies row by row)", async () => {
    expect(await planOf(messagePageQuery({ rootsOnly: true }, { kind: "newest" }, 11))).toMatch(/Index Scan Backward using messages_root_feed_idx on messages m/);
    expect(await planOf(messagePageQuery({ rootsOnly: true }, { kind: "before", before: 50 }, 11))).toMatch(/Index Scan Backward using messages_root_feed_idx/);
    expect(await planOf(messagePageQuery({ rootsOnly: true, topic: "general" }, { kind: "newest" }, 11))).toMatch(/Index Scan Backward using messages_root_topic_feed_idx/);
  });

  test("an activity page walks messages by seq through an index, newest first or oldest first after a cursor", async () => {
    expect(await planOf(messagePageQuery({}, { kind: "newest" }, 11))).toMatch(/Index Scan Backward using messages_seq_key on messages m/);
    expect(await planOf(messagePageQuery({}, { kind: "after", after: 50 }, 11))).toMatch(/Index Scan using messages_seq_key on messages m .*\n\s+Index Cond: \(seq > 50\)/);
    expect(await planOf(messagePageQuery({ topic: "general" }, { kind: "before", before: 50 }, 11))).toMatch(/Index Scan Backward using messages_topic_seq_idx on messages m .*\n\s+Index Cond: \(\(topic = 'general'::text\) AND \(seq < 50\)\)/);
  });
});

describe("thread reads (§2.4)", () => {
  test("post with body, a page of replies, viewer; a reply can be read by its own id", async () => {
    const agent = await registeredClient(server.baseUrl);
    const root = await post(agent, { body: "root body" });
    const replies = [];
    for (let i = 0; i < 4; i++) replies.push(await reply(agent, root.id, `reply ${i}`));
    const res = await agent.get(`/v1/posts/${root.id}?limit=3`);
    expect(res.status).toBe(200);
    expect(res.body.post).toMatchObject({ id: root.id, body: "root body", reply_count: 4 });
    expect(res.body.replies.items.map((r: { body: string }) => r.body)).toEqual(["reply 3", "reply 2", "reply 1"]);
    expect(res.body.replies.next_before).toBe(replies[1]!.seq);
    expect(res.body).toMatchObject({ content_is_untrusted: true, viewer: { agent_id: agent.id } });
    const older = await agent.get(`/v1/posts/${root.id}?before=${replies[1]!.seq}`);
    expect(older.body.replies.items.map((r: { body: string }) => r.body)).toEqual(["reply 0"]);
    const single = await agent.get(`/v1/posts/${replies[2]!.id}`);
    expect(single.body.post).toMatchObject({ id: replies[2]!.id, kind: "reply", body: "reply 2", thread_id: root.id });
    expect(single.body.replies.items).toEqual([]);
  });

  test("after mode: the nearest newer replies, newest first, following next_after until null; next_before stays null", async () => {
    const [agent, other] = await Promise.all([registeredClient(server.baseUrl), registeredClient(server.baseUrl)]);
    const root = await post(agent, { body: "root body" });
    const elsewhere = await post(other);
    const replies = [];
    for (let i = 0; i < 5; i++) {
      replies.push(await reply(other, root.id, `reply ${i}`));
      await reply(other, elsewhere.id, `elsewhere ${i}`);
    }
    const seqs = replies.map((r) => r.seq);
    const page = async (after: number) => {
      const res = await agent.get(`/v1/posts/${root.id}?after=${after}&limit=2`);
      expect(res.status).toBe(200);
      expect(res.body.post).toMatchObject({ id: root.id, body: "root body", reply_count: 5 });
      return { bodies: res.body.replies.items.map((r: { body: string }) => r.body), next_before: res.body.replies.next_before, next_after: res.body.replies.next_after, newest_cursor: res.body.replies.newest_cursor };
    };
    expect(await page(root.seq)).toEqual({ bodies: ["reply 1", "reply 0"], next_before: null, next_after: seqs[1], newest_cursor: seqs[1] });
    expect(await page(seqs[1]!)).toEqual({ bodies: ["reply 3", "reply 2"], next_before: null, next_after: seqs[3], newest_cursor: seqs[3] });
    expect(await page(seqs[3]!)).toEqual({ bodies: ["reply 4"], next_before: null, next_after: null, newest_cursor: seqs[4] });
    expect(await page(seqs[4]!)).toEqual({ bodies: [], next_before: null, next_after: null, newest_cursor: null });
    expect(await page(seqs[0]!)).toEqual({ bodies: ["reply 2", "reply 1"], next_before: null, next_after: seqs[2], newest_cursor: seqs[2] });
    const both = await agent.get(`/v1/posts/${root.id}?before=${seqs[3]}&after=${seqs[0]}`);
    expect(both.status).toBe(400);
    expect(both.body.error.code).toBe("INVALID_CURSOR");
  });

  test("unknown and deleted ids are 404 NOT_FOUND naming id; malformed ids 400 VALIDATION_FAILED", async () => {
    const agent = await registeredClient(server.baseUrl);
    const root = await post(agent);
    const gone = await reply(agent, root.id);
    await agent.delete(`/v1/posts/${gone.id}`);
    for (const id of ["00000000-0000-4000-8000-000000000000", gone.id]) {
      const res = await agent.get(`/v1/posts/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        error: { code: "NOT_FOUND", message: `No retained message ${id}; it may have been deleted.`, details: { field: "id" } },
        docs: `${server.baseUrl}/docs/errors#NOT_FOUND`,
      });
    }
    const malformed = await agent.get("/v1/posts/nope");
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatchObject({ code: "VALIDATION_FAILED", details: { issues: [{ field: "id" }] } });
    expect(malformed.body.docs).toBe(`${server.baseUrl}/docs/errors#VALIDATION_FAILED`);
  });
});

describe("DELETE /v1/posts/{id} (§3.5)", () => {
  test("owner only; a root takes others' replies; gone from feeds, search, thread reads, inbox and lookup; no refund", async () => {
    const [owner, other] = await Promise.all([registeredClient(server.baseUrl), registeredClient(server.baseUrl)]);
    const word = uniqueName("del").replace(/-/g, "_");
    const key = newKey();
    const root = await post(owner, { title: word }, key);
    const theirs = await reply(other, root.id, `answer ${word} @${owner.name}`);
    expect((await other.delete(`/v1/posts/${root.id}`)).status).toBe(403);
    const res = await owner.delete(`/v1/posts/${root.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: root.id, deleted: true, deleted_replies: 1, quota_refunded: false });
    expect((await owner.get(`/v1/posts/${root.id}`)).status).toBe(404);
    expect((await owner.get(`/v1/posts/${theirs.id}`)).status).toBe(404);
    expect((await owner.get(`/v1/search?q=${word}`)).body.items).toEqual([]);
    const activity = await owner.get("/v1/activity?limit=30");
    expect(activity.body.items.map((i: { id: string }) => i.id)).not.toContain(theirs.id);
    expect((await owner.get("/v1/inbox?after=0")).body.items).toEqual([]);
    expect((await owner.get("/v1/me/publications/lookup", { "idempotency-key": key })).body).toEqual({ found: false });
    expect((await owner.get("/v1/me")).body.posting_quota.used).toBe(1);
    expect((await owner.delete(`/v1/posts/${root.id}`)).status).toBe(404);
  });

  test("owner only, even inside your own thread: another account's reply stays; 403 FORBIDDEN changes nothing", async () => {
    const [owner, other] = await Promise.all([registeredClient(server.baseUrl), registeredClient(server.baseUrl)]);
    const root = await post(owner);
    const otherKey = newKey();
    const theirs = await reply(other, root.id, "mine, not yours", {}, otherKey);
    for (const [caller, id] of [[owner, theirs.id], [other, root.id]] as const) {
      const refused = await caller.delete(`/v1/posts/${id}`);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toEqual({ code: "FORBIDDEN", message: "Only the author can delete a message.", details: { field: "id" } });
    }
    const rows = await server.app.deps.db.prisma.message.findMany({ where: { id: { in: [root.id, theirs.id] } }, select: { deletedAt: true } });
    expect(rows).toEqual([{ deletedAt: null }, { deletedAt: null }]);
    expect((await owner.get(`/v1/posts/${theirs.id}`)).status).toBe(200);

    expect((await owner.delete(`/v1/posts/${root.id}`)).body.deleted_replies).toBe(1);
    expect((await other.get("/v1/me/publications/lookup", { "idempotency-key": otherKey })).body).toEqual({ found: false });
  });

  test("a malformed id is 400 VALIDATION_FAILED; an id that never existed is 404 NOT_FOUND", async () => {
    const agent = await registeredClient(server.baseUrl);
    const malformed = await agent.delete("/v1/posts/nope");
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatchObject({ code: "VALIDATION_FAILED", details: { issues: [{ field: "id" }] } });
    const unknown = await agent.delete("/v1/posts/00000000-0000-4000-8000-00000000dead");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: "NOT_FOUND", details: { field: "id" } });
  });

  test("deleting a reply keeps the thread and lowers reply_count", async () => {
    const agent = await registeredClient(server.baseUrl);
    const root = await post(agent);
    const r = await reply(agent, root.id);
    expect((await agent.delete(`/v1/posts/${r.id}`)).body.deleted_replies).toBe(0);
    expect((await agent.get(`/v1/posts/${root.id}`)).body.post.reply_count).toBe(0);
  });
});

describe("GET /v1/me/publications/lookup (§4.2 rule 7)", () => {
  test("found with the receipt fields; never other accounts'; header only", async () => {
    const [agent, other] = await Promise.all([registeredClient(server.baseUrl), registeredClient(server.baseUrl)]);
    const key = newKey();
    const root = await post(agent, {}, key);
    const res = await agent.get("/v1/me/publications/lookup", { "idempotency-key": key });
    expect(res.body).toEqual({ found: true, publication: { id: root.id, seq: root.seq, thread_id: null, url: root.url, created_at: expect.any(Number) } });
    expect((await other.get("/v1/me/publications/lookup", { "idempotency-key": key })).body).toEqual({ found: false });
    const inUrl = await agent.get(`/v1/me/publications/lookup?idempotency_key=${key}`, { "idempotency-key": key });
    expect(inUrl.status).toBe(400);
    expect(inUrl.body.error).toMatchObject({ code: "VALIDATION_FAILED", details: { issues: [{ field: "idempotency_key", message: "URL parameters are refused here" }] } });
    const onlyInUrl = await agent.get(`/v1/me/publications/lookup?Idempotency-Key=${key}`);
    expect(onlyInUrl.status).toBe(400);
    expect(onlyInUrl.body.error).toMatchObject({ code: "VALIDATION_FAILED", details: { issues: [{ field: "Idempotency-Key" }] } });
    expect(onlyInUrl.body).not.toHaveProperty("found");
    expect((await agent.get("/v1/me/publications/lookup")).body.error.code).toBe("IDEMPOTENCY_KEY_REQUIRED");
    const malformed = await agent.get("/v1/me/publications/lookup", { "idempotency-key": "too-short" });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toMatchObject({ code: "IDEMPOTENCY_KEY_REQUIRED", details: { header: "Idempotency-Key", length: 9 } });
    const r = await reply(agent, root.id, "x", {}, key.replace(/.$/, "z"));
    expect((await agent.get("/v1/me/publications/lookup", { "idempotency-key": key.replace(/.$/, "z") })).body.publication).toMatchObject({ id: r.id, thread_id: root.id });
  });
});

describe("feed cache invalidation", () => {
  test("a cached page reflects a new post, a vote and a delete immediately", async () => {
    const [author, reader] = await Promise.all([registeredClient(server.baseUrl), registeredClient(server.baseUrl)]);
    const topic = uniqueName("cache");
    const first = await post(author, { topic });
    const url = `/v1/posts?topic=${topic}`;
    expect((await reader.get(url)).body.items.map((i: { id: string }) => i.id)).toEqual([first.id]);
    const second = await post(author, { topic });
    expect((await reader.get(url)).body.items.map((i: { id: string }) => i.id)).toEqual([second.id, first.id]);
    await reader.post("/ballot", { board: "named", post_id: first.id, value: 1 });
    expect((await author.get(url)).body.items.find((i: { id: string }) => i.id === first.id).score).toBe(1);
    await author.delete(`/v1/posts/${second.id}`);
    expect((await reader.get(url)).body.items.map((i: { id: string }) => i.id)).toEqual([first.id]);
  });
});

import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BoardClient, post, registeredClient, reply, startTestServer, uniqueName, type TestServer } from "@board/testkit";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe("inbox (§2.7)", () => {
  test("replies to my threads, direct replies and mentions; one item per message; own messages excluded", async () => {
    const [me, them, third] = await Promise.all([registeredClient(server.baseUrl), registeredClient(server.baseUrl), registeredClient(server.baseUrl)]);
    const myRoot = await post(me, { body: "mine" });
    const theirRoot = await post(them, { body: "theirs" });
    const myReplyThere = await reply(me, theirRoot.id, "my reply");
    const replyToMyRoot = await reply(them, myRoot.id, `hello @${me.name}`);
    const directReply = await reply(third, theirRoot.id, "answering you", { reply_to_id: myReplyThere.id });
    const mention = await post(third, { body: `cc @${me.name.toUpperCase()}.` });
    await reply(me, myRoot.id, `talking to myself @${me.name}`);
    const notMentions = await post(third, { body: `mail x@${me.name} and @${me.name}x and @@${me.name}` });

    const inbox = await me.get("/v1/inbox?limit=30");
    expect(inbox.status).toBe(200);
    const ids = inbox.body.items.map((i: { message: { id: string } }) => i.message.id);
    expect(ids).toEqual([mention.id, directReply.id, replyToMyRoot.id]);
    expect(ids).not.toContain(notMentions.id);
    const byId = Object.fromEntries(inbox.body.items.map((i: { message: { id: string }; reasons: string[] }) => [i.message.id, i.reasons]));
    expect(byId[replyToMyRoot.id].sort()).toEqual(["mention", "reply_to_your_thread"]);
    expect(byId[directReply.id]).toEqual(["direct_reply"]);
    expect(byId[mention.id]).toEqual(["mention"]);
    const seqs = inbox.body.items.map((i: { inbox_seq: number }) => i.inbox_seq);
    expect(inbox.body).toMatchObject({ read_through: 0, resume_after: seqs[0], content_is_untrusted: true });
    expect([...seqs].sort((a, b) => b - a)).toEqual(seqs);
  });

  test("ack moves read_through forward only; default read returns unread; after overrides; after=0 replays history", async () => {
    const [me, them] = await Promise.all([registeredClient(server.baseUrl), registeredClient(server.baseUrl)]);
    const root = await post(me);
    await reply(them, root.id, "one");
    await reply(them, root.id, "two");
    const all = await me.get("/v1/inbox");
    const [newest, oldest] = all.body.items.map((i: { inbox_seq: number }) => i.inbox_seq);
    expect((await me.get("/v1/me")).body.inbox.read_through).toBe(0);

    const ack = await me.post("/v1/inbox/ack", { through: oldest });
    expect(ack.body).toEqual({ read_through: oldest, previous: 0, moved: true });
    const unread = await me.get("/v1/inbox");
    expect(unread.body.items.map((i: { inbox_seq: number }) => i.inbox_seq)).toEqual([newest]);
    expect(unread.body).toMatchObject({ read_through: oldest, resume_after: newest, next_after: null });

    const backwards = await me.post("/v1/inbox/ack", { through: 0 });
    expect(backwards.body).toEqual({ read_through: oldest, previous: oldest, moved: false });
    expect((await me.get("/v1/inbox?after=0")).body.items).toHaveLength(2);
    expect((await me.get(`/v1/inbox?after=${newest}`)).body.items).toEqual([]);

    const beyond = await me.post("/v1/inbox/ack", { through: newest + 1000 });
    expect(beyond.status).toBe(400);
    expect(beyond.body.error).toEqual({
      code: "VALIDATION_FAILED",
      message: `through (${newest + 1000}) is past your newest inbox item (${newest}, counting items deleted since you read them); acknowledge a newest_cursor or resume_after you have read.`,
      details: { issues: [{ field: "through", message: `at most ${newest}` }] },
    });
    expect((await me.get("/v1/me")).body.inbox.read_through).toBe(oldest);
    expect((await me.post("/v1/inbox/ack", { through: -1 })).status).toBe(400);
    expect((await me.post("/v1/inbox/ack", { through: "5" })).status).toBe(400);
    expect((await me.post("/v1/inbox/ack", { through: 2147483648 })).body.error).toMatchObject({ code: "VALIDATION_FAILED", details: { issues: [{ field: "through" }] } });
    expect((await me.post("/v1/inbox/ack", {})).status).toBe(400);
  });

  test("parallel acks take turns: none answers a checkpoint behind its own through, and the highest wins", async () => {
    const [me, them] = await Promise.all([registeredClient(server.baseUrl), registeredClient(server.baseUrl)]);
    const root = await post(me);
    for (let i = 0; i < 8; i++) await reply(them, root.id, `r${i}`);
    const seqs: number[] = (await me.get("/v1/inbox?limit=30")).body.items.map((i: { inbox_seq: number }) => i.inbox_seq);
    const throughs = [...seqs, ...seqs];
    const acks = await Promise.all(throughs.map((through) => me.post("/v1/inbox/ack", { through })));
    acks.forEach((ack, i) => {
      expect(ack.status).toBe(200);
      expect(ack.body.read_through).toBeGreaterThanOrEqual(throughs[i]!);
      expect(ack.body.moved ? [ack.body.read_through, ack.body.previous < throughs[i]!] : [ack.body.read_through, ack.body.previous]).toEqual(ack.body.moved ? [throughs[i], true] : [ack.body.previous, ack.body.previous]);
    });
    expect(acks.filter((ack) => ack.body.moved).map((ack) => ack.body.read_through)).toEqual([...new Set(acks.filter((ack) => ack.body.moved).map((ack) => ack.body.read_through))]);
    expect((await me.get("/v1/me")).body.inbox.read_through).toBe(Math.max(...seqs));
  });

  test("inbox_seq is independent of message seq, and paging follows next_after", async () => {
    const [me, them] = await Promise.all([registeredClient(server.baseUrl), registeredClient(server.baseUrl)]);
    const root = await post(me);
    for (let i = 0; i < 5; i++) await reply(them, root.id, `r${i}`);
    const first = await me.get("/v1/inbox?after=0&limit=2");
    expect(first.body.items).toHaveLength(2);
    expect(first.body.next_after).toBe(first.body.newest_cursor);
    const seen = [...first.body.items];
    let cursor = first.body.next_after;
    while (cursor !== null) {
      const page = await me.get(`/v1/inbox?after=${cursor}&limit=2`);
      seen.push(...page.body.items);
      cursor = page.body.next_after;
    }
    expect(seen.map((i) => i.message.body ?? i.message.preview).sort()).toEqual(["r0", "r1", "r2", "r3", "r4"]);
    const messageSeqs = seen.map((i) => i.message.seq);
    expect(seen.map((i) => i.inbox_seq)).not.toEqual(messageSeqs);
  });

  test("a default read with more unread than limit returns the oldest unread first, newest first within the page, then follows next_after", async () => {
    const [me, them] = await Promise.all([registeredClient(server.baseUrl), registeredClient(server.baseUrl)]);
    const root = await post(me);
    for (let i = 0; i < 4; i++) await reply(them, root.id, `r${i}`);
    const seqs = (await me.get("/v1/inbox?after=0")).body.items.map((i: { inbox_seq: number }) => i.inbox_seq).reverse();
    await me.post("/v1/inbox/ack", { through: seqs[0] });
    const body = (page: { body: { items: Array<{ message: { preview: string } }> } }) => page.body.items.map((i) => i.message.preview);

    const unread = await me.get("/v1/inbox?limit=2");
    expect(body(unread)).toEqual(["r2", "r1"]);
    expect(unread.body).toMatchObject({ read_through: seqs[0], resume_after: seqs[2], next_before: null, next_after: seqs[2], newest_cursor: seqs[2] });
    const rest = await me.get(`/v1/inbox?limit=2&after=${unread.body.next_after}`);
    expect(body(rest)).toEqual(["r3"]);
    expect(rest.body).toMatchObject({ read_through: seqs[0], resume_after: seqs[3], next_before: null, next_after: null, newest_cursor: seqs[3] });
    const caughtUp = await me.get(`/v1/inbox?after=${seqs[3]}`);
    expect(caughtUp.body).toMatchObject({ items: [], resume_after: seqs[3], next_after: null, newest_cursor: null });

    const older = await me.get(`/v1/inbox?before=${seqs[3]}&limit=2`);
    expect(body(older)).toEqual(["r2", "r1"]);
    expect(older.body).toMatchObject({ read_through: seqs[0], resume_after: seqs[2], next_before: seqs[1], next_after: seqs[2], newest_cursor: seqs[2] });
    const oldest = await me.get(`/v1/inbox?before=${seqs[1]}&limit=2`);
    expect(body(oldest)).toEqual(["r0"]);
    expect(oldest.body).toMatchObject({ next_before: null, next_after: seqs[0], newest_cursor: seqs[0] });
  });

  test("the default limit is 10", async () => {
    const [me, them] = await Promise.all([registeredClient(server.baseUrl), registeredClient(server.baseUrl)]);
    const root = await post(me);
    for (let i = 0; i < 11; i++) await reply(them, root.id, `r${i}`);
    const page = await me.get("/v1/inbox");
    expect(page.body.items).toHaveLength(10);
    expect(page.body.items[0].message.preview).toBe("r9");
    expect(page.body.next_after).toBe(page.body.newest_cursor);
  });

  test("before and after together are refused with INVALID_CURSOR; bad cursors and limits name the parameter", async () => {
    const me = await registeredClient(server.baseUrl);
    const both = await me.get("/v1/inbox?before=5&after=1");
    expect(both.status).toBe(400);
    expect(both.body.error).toMatchObject({ code: "INVALID_CURSOR", details: { parameters: ["before", "after"] } });
    const badCursor = await me.get("/v1/inbox?before=0");
    expect(badCursor.body.error).toMatchObject({ code: "INVALID_CURSOR", details: { parameter: "before" } });
    const badLimit = await me.get("/v1/inbox?limit=31");
    expect(badLimit.body.error).toMatchObject({ code: "INVALID_LIMIT", details: { parameter: "limit", min: 1, max: 30, default: 10 } });
  });

  test("resume_after never passes what exists for the account: an empty page after a far cursor answers the newest own inbox_seq, which ack accepts and which skips no later item", async () => {
    const [me, them, idle] = await Promise.all([registeredClient(server.baseUrl), registeredClient(server.baseUrl), registeredClient(server.baseUrl)]);
    const root = await post(me);
    await reply(them, root.id, "one");
    const removed = await reply(them, root.id, "two");
    const [newest] = (await me.get("/v1/inbox")).body.items.map((i: { inbox_seq: number }) => i.inbox_seq);
    expect((await them.delete(`/v1/posts/${removed.id}`)).status).toBe(200);

    const far = await me.get("/v1/inbox?after=100000");
    expect(far.status).toBe(200);
    // The deleted item's inbox_seq still counts: ack's cap counts it too (a client may have read it).
    expect(far.body).toMatchObject({ items: [], read_through: 0, resume_after: newest, next_after: null, newest_cursor: null });
    expect((await idle.get("/v1/inbox?after=100000")).body).toMatchObject({ items: [], read_through: 0, resume_after: 0 });

    const ack = await me.post("/v1/inbox/ack", { through: far.body.resume_after });
    expect(ack.status).toBe(200);
    expect(ack.body).toEqual({ read_through: newest, previous: 0, moved: true });
    // Read back and acknowledged again: a no-op, never refused.
    const caughtUp = await me.get("/v1/inbox?after=100000");
    expect(caughtUp.body.resume_after).toBe(newest);
    expect((await me.post("/v1/inbox/ack", { through: caughtUp.body.resume_after })).body).toEqual({ read_through: newest, previous: newest, moved: false });

    const later = await reply(them, root.id, "three");
    const next = await me.get(`/v1/inbox?after=${caughtUp.body.resume_after}`);
    expect(next.body.items.map((i: { message: { id: string } }) => i.message.id)).toEqual([later.id]);

    const beyond = await me.post("/v1/inbox/ack", { through: 100000 });
    expect(beyond.status).toBe(400);
    expect(beyond.body.error.message).toBe(
      `through (100000) is past your newest inbox item (${next.body.items[0].inbox_seq}, counting items deleted since you read them); acknowledge a newest_cursor or resume_after you have read.`,
    );
  });

  test("a deleted reply leaves the inbox; reading the inbox never moves read_through", async () => {
    const [me, them] = await Promise.all([registeredClient(server.baseUrl), registeredClient(server.baseUrl)]);
    const root = await post(me);
    const kept = await reply(them, root.id, "kept");
    const removed = await reply(them, root.id, "removed");
    expect((await me.get("/v1/inbox")).body.items.map((i: { message: { id: string } }) => i.message.id)).toEqual([removed.id, kept.id]);
    expect((await them.delete(`/v1/posts/${removed.id}`)).status).toBe(200);
    const after = await me.get("/v1/inbox");
    expect(after.body.items.map((i: { message: { id: string } }) => i.message.id)).toEqual([kept.id]);
    expect(after.body.read_through).toBe(0);
    expect((await me.get("/v1/me")).body.inbox.read_through).toBe(0);
  });

  test("a mention in a root's title reaches the account once, with the body's; a mention never spans title and body", async () => {
    const [me, author] = await Promise.all([registeredClient(server.baseUrl), registeredClient(server.baseUrl)]);
    const titleOnly = await post(author, { title: `Question for @${me.name}`, body: "details inside" });
    const both = await post(author, { title: `@${me.name}: again`, body: `as I said, @${me.name}` });
    const spanning = await post(author, { title: "ends with @", body: `${me.name} is not mentioned` });
    const inbox = await me.get("/v1/inbox?after=0&limit=30");
    expect(inbox.body.items.map((i: { message: { id: string }; reasons: string[] }) => [i.message.id, i.reasons])).toEqual([
      [both.id, ["mention"]],
      [titleOnly.id, ["mention"]],
    ]);
    expect(inbox.body.items.map((i: { message: { id: string } }) => i.message.id)).not.toContain(spanning.id);
  });

  test("a mention ending in hyphens reaches the exact name if registered, otherwise the name without them; glued text reaches nobody", async () => {
    const base = uniqueName("m");
    const plain = new BoardClient(server.baseUrl);
    const hyphenated = new BoardClient(server.baseUrl);
    await plain.register(base);
    await hyphenated.register(`${base}-`);
    const author = await registeredClient(server.baseUrl);
    const exact = await post(author, { body: `ping @${base}- please` });
    const glued = await post(author, { body: `not for you: @${base}_x é@${base} @${base}é` });
    const fallbackOnly = await post(author, { body: `and @${base}--` });
    const ids = async (client: BoardClient) => (await client.get("/v1/inbox?after=0&limit=30")).body.items.map((i: { message: { id: string } }) => i.message.id);
    expect(await ids(hyphenated)).toEqual([exact.id]);
    expect(await ids(plain)).toEqual([fallbackOnly.id]);
    expect([...(await ids(plain)), ...(await ids(hyphenated))]).not.toContain(glued.id);
  });
});

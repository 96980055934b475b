import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { insertShowcaseEvent } from "@board/db";
import { cacheTags } from "@board/services";
import { articleBody, commentBody, postArticle, registeredClient, scriptedChecker, startTestServer, type TestServer } from "@board/testkit";

/** The stream spans the whole board: a database of its own keeps other tests' events out. */
let server: TestServer;
const checker = scriptedChecker();
beforeAll(async () => {
  server = await startTestServer({ ownDatabase: true, checker, showcaseActivatedAt: new Date(), limits: { showcaseArticleRevisionsPerDay: 1_000, showcasePendingArticles: 1_000 } });
});
afterAll(() => server.close());

type Event = { seq: number; kind: string; revision_id: string; item_id: string; item_kind: string; revision_state: string; preview: string; title: string | null };

/** Follows `after` to the newest event; pages list newest first, so the events come back sorted by seq. */
async function poll(client: Awaited<ReturnType<typeof registeredClient>>, after: number) {
  const seen: Event[] = [];
  let cursor = after;
  for (;;) {
    const page = (await client.get(`/v1/showcase/activity?after=${cursor}&limit=30`)).body as { items: Event[]; next_after: number | null; newest_cursor: number | null };
    seen.push(...page.items);
    if (page.newest_cursor !== null) cursor = page.newest_cursor;
    if (page.next_after === null) return { seen: seen.sort((a, b) => a.seq - b.seq), cursor };
  }
}

describe("GET /v1/showcase/activity (§4.5 rules 1 and 8, §6)", () => {
  test("article, revision and comment submissions and each publication are events, newest first", async () => {
    const author = await registeredClient(server.baseUrl);
    const reader = await registeredClient(server.baseUrl);
    const start = (await reader.get("/v1/showcase/activity")).body.newest_cursor ?? 0;
    const article = await postArticle(author);
    await server.runJobs();
    for (let i = 0; i < 2; i++) await (await registeredClient(server.baseUrl)).post("/v1/showcase/votes", { revision_id: article.revision_id, value: 1 });
    const comment = (await reader.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody())).body;
    await server.runJobs();
    const { seen } = await poll(reader, start);
    expect(seen.map((e) => [e.kind, e.revision_id])).toEqual([
      ["article_submitted", article.revision_id],
      ["published", article.revision_id],
      ["comment_submitted", comment.revision_id],
      ["published", comment.revision_id],
    ]);
    expect(seen[0]).toMatchObject({ item_kind: "article", revision_state: "published", title: "How a small scheduler drains its queue" });
    expect(seen[2]!.preview).toMatch(/^A clear explanation/);
    const newest = (await reader.get("/v1/showcase/activity?limit=2")).body;
    expect(newest.items.map((e: Event) => e.kind)).toEqual(["published", "comment_submitted"]);
    expect(newest.next_before).toBe(newest.items[1].seq);
    const older = (await reader.get(`/v1/showcase/activity?before=${newest.next_before}&limit=2`)).body;
    expect(older.items.map((e: Event) => e.kind)).toEqual(["published", "article_submitted"]);
  });

  test("an empty page before 1 leads back to the stream's start: next_after 0, on the stream and in the combined block", async () => {
    const author = await registeredClient(server.baseUrl);
    const reader = await registeredClient(server.baseUrl);
    await postArticle(author);
    // Checked now, so no event of this test turns visible while a later test polls.
    await server.runJobs();
    const oldest = (await reader.get("/v1/showcase/activity?after=0&limit=1")).body;
    expect(oldest.items).toHaveLength(1);
    const empty = await reader.get("/v1/showcase/activity?before=1");
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ items: [], next_before: null, next_after: 0, newest_cursor: null });
    expect((await reader.get("/v1/activity?showcase_before=1")).body.showcase).toMatchObject({ items: [], next_before: null, next_after: 0, newest_cursor: null });
    const resumed = (await reader.get(`/v1/showcase/activity?after=${empty.body.next_after}&limit=1`)).body;
    expect(resumed.items.map((e: Event) => e.seq)).toEqual(oldest.items.map((e: Event) => e.seq));
  });

  test("events about content that is no longer available are omitted; next_after moves past them and newest_cursor is the highest returned (§2.3)", async () => {
    const author = await registeredClient(server.baseUrl);
    const reader = await registeredClient(server.baseUrl);
    const start = (await reader.get("/v1/showcase/activity?limit=1")).body.items[0]?.seq ?? 0;
    const gone = await postArticle(author);
    const kept = await postArticle(author);
    const goneLater = await postArticle(author);
    for (const article of [gone, goneLater]) expect((await author.post(`/v1/showcase/posts/${article.item_id}/withdraw`, {})).status).toBe(200);
    const { seen } = await poll(reader, start);
    expect(seen.map((e) => e.item_id)).toEqual([kept.item_id]);
    const keptSeq = seen[0]!.seq;

    // One event per page: each omitted one gives an empty page whose next_after steps past it.
    let cursor = start;
    let page = (await reader.get(`/v1/showcase/activity?after=${cursor}&limit=1`)).body;
    for (; page.items.length === 0; page = (await reader.get(`/v1/showcase/activity?after=${cursor}&limit=1`)).body) {
      expect(page).toMatchObject({ next_after: cursor + 1, newest_cursor: null });
      cursor = page.next_after;
    }
    expect(cursor).toBeGreaterThan(start);
    expect(page).toMatchObject({ items: [{ item_id: kept.item_id, seq: keptSeq }], next_after: keptSeq, newest_cursor: keptSeq });
    const caughtUp = await reader.get(`/v1/showcase/activity?after=${keptSeq}`);
    expect(caughtUp.body).toMatchObject({ items: [], next_after: null, newest_cursor: null });
    const newestPage = await reader.get("/v1/showcase/activity?limit=2");
    expect(newestPage.body.items.map((e: Event) => e.item_id)).toEqual([kept.item_id]);
    expect(newestPage.body.newest_cursor).toBe(keptSeq);

    const combined = await reader.get(`/v1/activity?showcase_after=${start}&showcase_limit=1`);
    expect(combined.body.showcase).toMatchObject({ items: [], next_after: start + 1, newest_cursor: null });
  });

  test("§3.1 rule 6: a withdrawn comment hides its replies from every agent route (stream, revision read, vote); so does a withdrawn article", async () => {
    const author = await registeredClient(server.baseUrl);
    const commenter = await registeredClient(server.baseUrl);
    const replier = await registeredClient(server.baseUrl);
    const reader = await registeredClient(server.baseUrl);
    const start = (await reader.get("/v1/showcase/activity")).body.newest_cursor ?? 0;
    const article = await postArticle(author);
    await server.runJobs();
    const top = (await commenter.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody())).body;
    await server.runJobs();
    const reply = (await replier.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody({ parent_id: top.item_id }))).body;
    const sibling = (await replier.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody())).body;
    await server.runJobs();
    expect((await reader.get(`/v1/showcase/revisions/${reply.revision_id}`)).status).toBe(200);
    expect((await poll(reader, start)).seen.map((e) => e.item_id)).toContain(reply.item_id);

    expect((await commenter.post(`/v1/showcase/posts/${top.item_id}/withdraw`, {})).status).toBe(200);
    expect((await poll(reader, start)).seen.filter((e) => e.item_kind === "comment").map((e) => e.item_id)).toEqual([sibling.item_id, sibling.item_id]);
    expect((await reader.get(`/v1/showcase/revisions/${reply.revision_id}`)).status).toBe(404);
    expect((await replier.get(`/v1/showcase/revisions/${reply.revision_id}`)).status).toBe(200);
    const vote = await reader.post("/v1/showcase/votes", { revision_id: reply.revision_id, value: 1 });
    expect(vote.status).toBe(404);
    expect(vote.body.error).toMatchObject({ code: "NOT_FOUND", details: { field: "revision_id" } });
    expect((await reader.post(`/v1/showcase/revisions/${reply.revision_id}/preview-session`, {})).status).toBe(404);

    expect((await author.post(`/v1/showcase/posts/${article.item_id}/withdraw`, {})).status).toBe(200);
    expect((await reader.post("/v1/showcase/votes", { revision_id: sibling.revision_id, value: 1 })).status).toBe(404);
    expect(await server.app.deps.db.prisma.vote.count({ where: { voterId: reader.id } })).toBe(0);
  });

  test("the stream shows no more than the reads do: an unchecked comment, a reply under a rejected comment, an earlier version of an article withdrawn and resumed", async () => {
    const author = await registeredClient(server.baseUrl);
    const commenter = await registeredClient(server.baseUrl);
    const reader = await registeredClient(server.baseUrl);
    const voteFor = async (revisionId: string) => {
      for (let i = 0; i < 2; i++) expect((await (await registeredClient(server.baseUrl)).post("/v1/showcase/votes", { revision_id: revisionId, value: 1 })).status).toBe(200);
    };
    const start = (await reader.get("/v1/showcase/activity")).body.newest_cursor ?? 0;
    const article = await postArticle(author);
    await server.runJobs();
    await voteFor(article.revision_id);
    const second = (await author.post(`/v1/showcase/posts/${article.item_id}/revisions`, articleBody({ title: "A second version" }))).body;
    await server.runJobs();
    await voteFor(second.revision_id);
    expect((await reader.get(`/v1/showcase/posts/${article.item_id}`)).body.published_revision.revision_id).toBe(second.revision_id);

    // Unchecked: other agents cannot read the comment yet, so its text is not in the stream either.
    const unchecked = (await commenter.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody())).body;
    expect((await reader.get(`/v1/showcase/revisions/${unchecked.revision_id}`)).status).toBe(404);
    expect((await poll(reader, start)).seen.map((e) => e.item_id)).not.toContain(unchecked.item_id);
    await server.runJobs();
    expect((await poll(reader, start)).seen.filter((e) => e.item_id === unchecked.item_id).map((e) => e.kind)).toEqual(["comment_submitted", "published"]);

    // A reply its author wrote under their own rejected comment is read by nobody else.
    checker.set({ outcome: "fail", reasons: [{ code: "slur", message: "no" }] });
    const rejected = (await commenter.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody())).body;
    await server.runJobs();
    checker.set({ outcome: "pass" });
    const reply = (await commenter.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody({ parent_id: rejected.item_id }))).body;
    expect(reply.state).toBe("checking");
    await server.runJobs();
    expect((await reader.get(`/v1/showcase/revisions/${reply.revision_id}`)).status).toBe(404);
    expect((await poll(reader, start)).seen.map((e) => e.item_id)).not.toContain(reply.item_id);

    // Withdrawn and resumed: no public version until the new one is published, and none of the old ones in the stream.
    expect((await author.post(`/v1/showcase/posts/${article.item_id}/withdraw`, {})).status).toBe(200);
    const resumed = (await author.post(`/v1/showcase/posts/${article.item_id}/revisions`, articleBody({ title: "Back again", resume_publication: true }))).body;
    expect((await reader.get(`/v1/showcase/revisions/${article.revision_id}`)).status).toBe(404);
    const articleEvents = (await poll(reader, start)).seen.filter((e) => e.item_id === article.item_id);
    expect(articleEvents.map((e) => [e.kind, e.revision_id])).toEqual([["revision_submitted", resumed.revision_id]]);
  });

  test.each([
    ["before=5&after=3", "both_cursors", "before"],
    ["showcase_after=3", "prefixed_name", "showcase_after"],
    ["showcase_limit=3", "prefixed_name", "showcase_limit"],
    ["seq=12", "named_sequence", "seq"],
    [`after=${randomUUID()}`, "id_as_cursor", "after"],
    [`before=${randomUUID()}`, "id_as_cursor", "before"],
    ["after=abc", "not_a_sequence", "after"],
    ["before=0", "out_of_range", "before"],
  ])("%s is 400 INVALID_EVENT_CURSOR with reason %s", async (query, reason, parameter) => {
    const reader = await registeredClient(server.baseUrl);
    const res = await reader.get(`/v1/showcase/activity?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "INVALID_EVENT_CURSOR", details: { reason, parameter } });
  });

  test("limit 1-30, default 10; an unknown parameter is named", async () => {
    const reader = await registeredClient(server.baseUrl);
    for (const limit of ["0", "31", "x"]) expect((await reader.get(`/v1/showcase/activity?limit=${limit}`)).body.error).toMatchObject({ code: "INVALID_LIMIT", details: { min: 1, max: 30, default: 10 } });
    const author = await registeredClient(server.baseUrl);
    for (let i = 0; i < 4; i++) await postArticle(author);
    const page = (await reader.get("/v1/showcase/activity")).body;
    expect(page.items.length).toBeLessThanOrEqual(10);
    expect((await reader.get("/v1/showcase/activity?topic=x")).body.error).toMatchObject({ code: "VALIDATION_FAILED" });
  });

  test("a writer that commits late is not skipped by a poller following after (held-writer proof)", async () => {
    const author = await registeredClient(server.baseUrl);
    const reader = await registeredClient(server.baseUrl);
    const early = await postArticle(author);
    const { cursor: start } = await poll(reader, 0);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const insertedSignal = new Promise<void>((resolve) => (inserted = resolve));
    const lateWriter = server.app.deps.db.prisma.$transaction(
      async (tx) => {
        await insertShowcaseEvent(tx, { kind: "published", itemId: early.item_id, revisionId: early.revision_id, postId: early.post_id, createdAt: new Date(Date.now() - 60_000) });
        inserted();
        await held;
      },
      { timeout: 30_000 },
    );
    await insertedSignal;
    const meanwhile = await postArticle(author);
    const first = await poll(reader, start);
    expect(first.seen.map((e) => e.revision_id)).toEqual([meanwhile.revision_id]);
    release();
    await lateWriter;
    // As the service's own writers do once they commit: no page cached before this event shows without it.
    server.app.deps.cache.invalidate([cacheTags.showcaseListing]);
    const second = await poll(reader, first.cursor);
    expect(second.seen.map((e) => [e.kind, e.revision_id])).toEqual([["published", early.revision_id]]);
    expect(second.cursor).toBeGreaterThan(first.cursor);
  });

  test("parallel submissions: a poller following after sees every event exactly once", async () => {
    const reader = await registeredClient(server.baseUrl);
    const { cursor: start } = await poll(reader, 0);
    const authors = await Promise.all(Array.from({ length: 6 }, () => registeredClient(server.baseUrl)));
    const seen: Event[] = [];
    let cursor = start;
    const submissions = Promise.all(authors.map((a) => Promise.all([postArticle(a), postArticle(a)])));
    let done = false;
    void submissions.then(() => (done = true));
    while (!done) {
      const step = await poll(reader, cursor);
      seen.push(...step.seen);
      cursor = step.cursor;
    }
    const step = await poll(reader, cursor);
    seen.push(...step.seen);
    const made = (await submissions).flat().map((r) => r.revision_id).sort();
    expect(seen.map((e) => e.revision_id).sort()).toEqual(made);
  });
});

describe("the combined showcase block (§2.3, §4.2 rule 1)", () => {
  test("on every /v1/activity page and the initial /v1/posts page; later posts pages only with a showcase_* parameter; topic never filters it", async () => {
    const reader = await registeredClient(server.baseUrl);
    await postArticle(await registeredClient(server.baseUrl));
    const direct = (await reader.get("/v1/showcase/activity?limit=3")).body;
    const activity = (await reader.get("/v1/activity?topic=nothing-here&showcase_limit=3")).body.showcase;
    expect(activity).toMatchObject({ unavailable: false, status: "active", activity_url: `${server.baseUrl}/v1/showcase/activity`, cursor_parameters: { before: "showcase_before", after: "showcase_after", limit: "showcase_limit" } });
    expect(activity.items).toEqual(direct.items);
    expect((await reader.get("/v1/posts")).body.showcase.items.length).toBeGreaterThan(0);
    expect((await reader.get("/v1/posts?before=5")).body).not.toHaveProperty("showcase");
    const paged = (await reader.get(`/v1/posts?before=5&showcase_after=${direct.items.at(-1).seq - 1}&showcase_limit=1`)).body.showcase;
    expect(paged.items.map((e: Event) => e.seq)).toEqual([direct.items.at(-1).seq]);
  });

  test("if the stream cannot be read the feed still answers, with unavailable: true", async () => {
    const reader = await registeredClient(server.baseUrl);
    await server.app.deps.db.pool.query("ALTER TABLE showcase_events RENAME TO showcase_events_away");
    try {
      server.app.deps.cache.invalidate(["showcase:listing"]);
      const res = await reader.get("/v1/activity");
      expect(res.status).toBe(200);
      expect(res.body.showcase).toMatchObject({ items: [], unavailable: true, status: "unavailable", activity_url: `${server.baseUrl}/v1/showcase/activity` });
      expect(Array.isArray(res.body.items)).toBe(true);
    } finally {
      await server.app.deps.db.pool.query("ALTER TABLE showcase_events_away RENAME TO showcase_events");
    }
  });
});

import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createOperator, restrictAccount, type Verdict } from "@board/services";
import { articleBody, BoardClient, commentBody, postArticle, registeredClient, startTestServer, type TestServer } from "@board/testkit";

let verdict: Verdict = { outcome: "pass" };
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ showcaseActivatedAt: new Date(), checker: { check: async () => verdict } });
});
afterAll(() => server.close());

const db = () => server.app.deps.db;

async function awaiting(author: BoardClient, overrides: Record<string, unknown> = {}) {
  const article = await postArticle(author, overrides);
  await server.runJobs();
  return article;
}

/** Two grace-mode votes; the second publishes. Asserted here, so a refused vote fails at its cause. */
async function publish(revisionId: string) {
  const votes = [];
  for (let i = 0; i < 2; i++) votes.push(await (await registeredClient(server.baseUrl)).post("/v1/showcase/votes", { revision_id: revisionId, value: 1 }));
  expect(votes.map((v) => [v.status, v.body.revision_state])).toEqual([
    [200, "awaiting_votes"],
    [200, "published"],
  ]);
}

describe("GET /v1/showcase/capabilities", () => {
  test("the live policy, the discovery constants of §4.5, limits and the human-comment configuration", async () => {
    const agent = await registeredClient(server.baseUrl);
    const res = await agent.get("/v1/showcase/capabilities");
    expect(res.status).toBe(200);
    expect(res.body.publication).toMatchObject({ mode: "grace", threshold: 2, reviewer_rule: "active_can_vote_unrestricted" });
    expect(res.body.discovery).toEqual({
      activity_route: "/v1/activity",
      activity_field: "showcase",
      showcase_activity_route: "/v1/showcase/activity",
      tool: { name: "showcase_read", arguments: { action: "activity" } },
      pagination: {
        cursor_parameters: { before: "before", after: "after", limit: "limit" },
        combined_cursor_parameters: { before: "showcase_before", after: "showcase_after", limit: "showcase_limit" },
        limit: { min: 1, max: 30, default: 10 },
      },
      read_before_commenting: true,
    });
    expect(res.body.limits).toMatchObject({ article_text_bytes: 131_072, svg_source_bytes: 1_048_576, svg_total_bytes: 4_194_304, svgs_per_article: 16, direct_json_bytes: 4_587_520, comments_per_day: 20, pending_articles: 5 });
    expect(res.body.limits).toMatchObject({ title_chars: 160, heading_text_chars: 300, svg_description_chars: 1_000, svg_caption_chars: 500, list_items: 1_000, article_blocks: 500, comment_blocks: 100 });
    expect(res.body.human_comments).toMatchObject({ max_code_points: 8000 });
    expect((await agent.get("/v1/showcase/capabilities?x=1")).status).toBe(400);
  });

  test("the field limits /capabilities states are the ones a submission meets, one past each is refused naming the field", async () => {
    const agent = await registeredClient(server.baseUrl);
    const { limits } = (await agent.get("/v1/showcase/capabilities")).body;
    const picture = { type: "svg", source: "<svg xmlns='http://www.w3.org/2000/svg'/>", runtime: "showcase-svg-v1" };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ title: "t".repeat(limits.title_chars + 1) }, "title"],
      [{ blocks: [{ type: "heading", level: 2, text: "h".repeat(limits.heading_text_chars + 1) }] }, "blocks.0.text"],
      [{ blocks: [{ ...picture, description: "d".repeat(limits.svg_description_chars + 1) }] }, "blocks.0.description"],
      [{ blocks: [{ ...picture, description: "A picture.", caption: "c".repeat(limits.svg_caption_chars + 1) }] }, "blocks.0.caption"],
      [{ blocks: [{ type: "list", ordered: false, items: Array.from({ length: limits.list_items + 1 }, () => "item") }] }, "blocks.0.items"],
      [{ blocks: Array.from({ length: limits.article_blocks + 1 }, () => ({ type: "paragraph", text: "A line of prose." })) }, "blocks"],
    ];
    for (const [overrides, field] of cases) {
      const res = await agent.post("/v1/showcase/posts", articleBody(overrides));
      expect([res.status, res.body.error.details.issues.map((i: { field: string }) => i.field)], field).toEqual([400, [field]]);
    }
  });

  test("the SVG runtime names its authors' guide, served as Markdown with the script's showcase API", async () => {
    const agent = await registeredClient(server.baseUrl);
    const { svg_runtime } = (await agent.get("/v1/showcase/capabilities")).body.submission;
    expect(svg_runtime).toMatchObject({ name: "showcase-svg-v1", guide_url: `${server.baseUrl}/docs/svg-runtime` });
    const guide = await fetch(svg_runtime.guide_url);
    expect(guide.status).toBe(200);
    expect(guide.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const text = await guide.text();
    expect(text).toMatch(/^# Writing pictures for the showcase/);
    expect(text).toContain("showcase.on(id, type, callback)");
  });
});

describe("GET /v1/showcase/review-queue/next (§4.5 rule 7)", () => {
  test("fewest reviews first, then oldest; never your own, never one you voted on; exclusions skip; reserves nothing", async () => {
    // The queue spans the whole board: a database of its own keeps other tests' candidates out.
    const solo = await startTestServer({ ownDatabase: true, showcaseActivatedAt: new Date(Date.now() - 30 * 86_400_000) });
    try {
      const author = await registeredClient(solo.baseUrl);
      const older = await postArticle(author);
      const newer = await postArticle(author);
      await solo.runJobs();
      const reviewer = await registeredClient(solo.baseUrl);
      const next = async (query = "") => (await reviewer.get(`/v1/showcase/review-queue/next${query}`)).body;
      const first = await next();
      expect(first.candidate).toMatchObject({
        revision_id: older.revision_id,
        item_id: older.item_id,
        reviews: 0,
        author: { id: author.id, name: author.name },
        read_tool: { name: "showcase_read", arguments: { action: "revision", id: older.revision_id } },
        read_url: `${solo.baseUrl}/v1/showcase/revisions/${older.revision_id}`,
      });
      expect(first).toMatchObject({ remaining_daily_votes: 20, voting: { can_vote: true, suspended: false }, reserves_nothing: true, eligibility: { mode: "standard", eligible: false } });
      expect(first.eligibility.blocking_reasons).toEqual(expect.arrayContaining(["account_too_new", "karma_below_5"]));
      expect((await next()).candidate.revision_id).toBe(older.revision_id);
      await (await registeredClient(solo.baseUrl)).post("/v1/showcase/votes", { revision_id: older.revision_id, value: -1 });
      expect((await next()).candidate.revision_id).toBe(newer.revision_id);
      expect((await next(`?exclude_revision_ids=${newer.revision_id}`)).candidate.revision_id).toBe(older.revision_id);
      await reviewer.post("/v1/showcase/votes", { revision_id: older.revision_id, value: 1 });
      expect((await next(`?exclude_revision_ids=${newer.revision_id}`)).candidate).toBeNull();
      expect((await author.get("/v1/showcase/review-queue/next")).body.candidate).toBeNull();
    } finally {
      await solo.close();
    }
  });

  test("a candidate whose 30 days end leaves the queue at once, though the shared queue head was cached before", async () => {
    let now = new Date();
    const solo = await startTestServer({ ownDatabase: true, clock: () => now, cacheMs: 60_000, showcaseActivatedAt: new Date() });
    try {
      const article = await postArticle(await registeredClient(solo.baseUrl));
      await solo.runJobs();
      const reviewer = await registeredClient(solo.baseUrl);
      expect((await reviewer.get("/v1/showcase/review-queue/next")).body.candidate.revision_id).toBe(article.revision_id);
      const { stateEnteredAt } = await solo.app.deps.db.prisma.showcaseRevision.findUniqueOrThrow({ where: { id: article.revision_id } });
      now = new Date(stateEnteredAt.getTime() + 30 * 86_400_000 - 1000);
      expect((await reviewer.get("/v1/showcase/review-queue/next")).body.candidate.revision_id).toBe(article.revision_id);
      now = new Date(stateEnteredAt.getTime() + 30 * 86_400_000);
      expect((await reviewer.get("/v1/showcase/review-queue/next")).body.candidate).toBeNull();
    } finally {
      await solo.close();
    }
  });

  test("a listed candidate reads expired from its 30th day on, though the listing page was cached before", async () => {
    let now = new Date();
    const solo = await startTestServer({ ownDatabase: true, clock: () => now, cacheMs: 60_000, showcaseActivatedAt: new Date() });
    try {
      const author = await registeredClient(solo.baseUrl);
      const article = await postArticle(author);
      await solo.runJobs();
      const reader = await registeredClient(solo.baseUrl);
      const { stateEnteredAt } = await solo.app.deps.db.prisma.showcaseRevision.findUniqueOrThrow({ where: { id: article.revision_id } });
      const deadline = stateEnteredAt.getTime() + 30 * 86_400_000;
      const listed = async (client: BoardClient) => {
        const res = await client.get("/v1/showcase/posts");
        expect(res.status).toBe(200);
        return res.body.items.find((item: { item_id: string }) => item.item_id === article.item_id) ?? null;
      };
      now = new Date(deadline - 1000);
      for (const client of [author, reader]) {
        expect((await listed(client)).submitted_revision).toMatchObject({ revision_id: article.revision_id, state: "awaiting_votes", expires_at: Math.floor(deadline / 1000) });
      }
      now = new Date(deadline);
      expect((await listed(author)).submitted_revision).toMatchObject({ revision_id: article.revision_id, state: "expired", expires_at: Math.floor(deadline / 1000) });
      const asReader = await listed(reader);
      expect([asReader.submitted_revision, asReader.published_revision, asReader.website_status]).toEqual([null, null, "not_public"]);
    } finally {
      await solo.close();
    }
  });

  test("21 exclusions or a malformed one is 400 naming exclude_revision_ids", async () => {
    const reviewer = await registeredClient(server.baseUrl);
    const twentyOne = Array.from({ length: 21 }, () => randomUUID()).join(",");
    for (const query of [twentyOne, "not-a-uuid"]) {
      const res = await reviewer.get(`/v1/showcase/review-queue/next?exclude_revision_ids=${query}`);
      expect(res.status).toBe(400);
      // The list, or the exact entry that is not a UUID.
      expect(res.body.error.details.issues[0].field).toMatch(query === "not-a-uuid" ? /^exclude_revision_ids\.0$/ : /^exclude_revision_ids$/);
    }
    expect((await reviewer.get(`/v1/showcase/review-queue/next?exclude_revision_ids=${twentyOne.split(",").slice(0, 20).join(",")}`)).status).toBe(200);
  });
});

describe("GET /v1/showcase/posts", () => {
  test("pending and published articles newest first, paged with before; limit 1-50 (default 20)", async () => {
    // The listing spans the whole board: a database of its own keeps other tests' articles out.
    const own = await startTestServer({ ownDatabase: true, showcaseActivatedAt: new Date() });
    try {
      const author = await registeredClient(own.baseUrl);
      const reader = await registeredClient(own.baseUrl);
      const made = [];
      for (let i = 0; i < 3; i++) {
        made.push(await postArticle(author));
        await own.runJobs();
      }
      for (let i = 0; i < 2; i++) await (await registeredClient(own.baseUrl)).post("/v1/showcase/votes", { revision_id: made[0]!.revision_id, value: 1 });
      const comment = await reader.post(`/v1/showcase/posts/${made[0]!.post_id}/comments`, commentBody({ blocks: [{ type: "paragraph", text: "The backoff section answered my question about retries." }] }));
      expect(comment.status).toBe(202);
      await own.runJobs();
      const page = await reader.get("/v1/showcase/posts?limit=2");
      expect(page.status).toBe(200);
      expect(page.body.items.map((i: { item_id: string }) => i.item_id)).toEqual([made[2]!.item_id, made[1]!.item_id]);
      const next = await reader.get(`/v1/showcase/posts?limit=2&before=${page.body.next_before}`);
      expect(next.body.items[0].item_id).toBe(made[0]!.item_id);
      const published = next.body.items[0];
      expect(published).toMatchObject({
        kind: "article",
        website_status: "public",
        published_revision: { revision_id: made[0]!.revision_id, state: "published" },
        comment_count: 1,
        public_comment_count: 1,
        latest_comment: { item_id: comment.body.item_id, author: { id: reader.id, name: reader.name }, author_type: "agent", created_at: expect.any(Number), preview: "The backoff section answered my question about retries.", is_truncated: false },
        revision_context: { read_revision_id: made[0]!.revision_id, public_revision_id: made[0]!.revision_id, active_candidate_revision_id: null, read_revision_is_public: true, read_revision_is_current_candidate: false },
        review_eligibility_checked: false,
        review_eligible: null,
        status_url: `${own.baseUrl}/v1/showcase/posts/${made[0]!.item_id}`,
      });
      const pending = page.body.items[0];
      expect(published.latest_public_comment).toEqual(published.latest_comment);
      expect(pending).toMatchObject({ website_status: "not_public", published_revision: null, submitted_revision: { state: "awaiting_votes", expires_at: expect.any(Number) }, vote_state: { can_vote: true } });
      expect(pending).toMatchObject({ comment_count: 0, latest_comment: null, latest_public_comment: null, revision_context: { read_revision_id: made[2]!.revision_id, public_revision_id: null, active_candidate_revision_id: made[2]!.revision_id, read_revision_is_current_candidate: true } });
      expect(pending.actions.map((a: { template: string }) => a.template)).toEqual(["read_post", "read_revision", "read_comments", "vote", "comment"]);
      expect(page.body).toMatchObject({ content_is_untrusted: true, review_queue: { url: `${own.baseUrl}/v1/showcase/review-queue/next` }, viewer: { showcase: { can_submit: true, can_submit_article: true, can_comment: true, reasons: [] } } });
      expect(Object.keys(page.body.action_templates).sort()).toEqual(["appeal", "comment", "read_comments", "read_post", "read_revision", "reply", "resume", "revise", "vote"]);
      expect((await reader.get("/v1/showcase/posts")).body.items.length).toBeLessThanOrEqual(20);
      for (const bad of ["limit=0", "limit=51", "limit=abc", "before=0", "after=3"]) expect([bad, (await reader.get(`/v1/showcase/posts?${bad}`)).status]).toEqual([bad, 400]);
      expect((await reader.get("/v1/showcase/posts?limit=50")).status).toBe(200);
    } finally {
      await own.close();
    }
  });

  test("rejected and restricted articles are not listed; the author still reads a rejected one by its id", async () => {
    const author = await registeredClient(server.baseUrl);
    const reader = await registeredClient(server.baseUrl);
    verdict = { outcome: "fail", reasons: [{ code: "spam", message: "spam" }] };
    const rejected = await awaiting(author);
    verdict = { outcome: "pass" };
    const restricted = await awaiting(author);
    await db().prisma.showcaseItem.update({ where: { id: restricted.item_id }, data: { restrictedAt: new Date() } });
    const ids = async (client: BoardClient) => (await client.get("/v1/showcase/posts?limit=50")).body.items.map((i: { item_id: string }) => i.item_id);
    expect(await ids(reader)).not.toContain(rejected.item_id);
    expect(await ids(reader)).not.toContain(restricted.item_id);
    expect(await ids(author)).not.toContain(rejected.item_id);
    expect((await author.get(`/v1/showcase/posts/${rejected.item_id}`)).body.submitted_revision).toMatchObject({ state: "rejected" });
    expect((await reader.get(`/v1/showcase/posts/${rejected.item_id}`)).status).toBe(404);
  });
});

describe("GET /v1/showcase/posts/{id} and /revisions/{id} (§2.8, §3.1 rule 5)", () => {
  test("every §2.8 field, with the revision context of the revision read", async () => {
    const author = await registeredClient(server.baseUrl);
    const reader = await registeredClient(server.baseUrl);
    const article = await awaiting(author);
    const res = await reader.get(`/v1/showcase/posts/${article.item_id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      item_id: article.item_id,
      post_id: article.post_id,
      submitted_revision: { revision_id: article.revision_id },
      published_revision: null,
      comment_count: 0,
      public_comment_count: 0,
      latest_comment: null,
      latest_public_comment: null,
      your_vote: null,
      vote_state: { can_vote: true, reason: null },
      revision_context: { read_revision_id: article.revision_id, public_revision_id: null, active_candidate_revision_id: article.revision_id, read_revision_is_public: false, read_revision_is_current_candidate: true },
      read_revision: { revision_id: article.revision_id, content_hash: article.content_hash, assets: [{ asset_id: "svg-2", block_index: 2, media_type: "image/svg+xml" }] },
      review_eligibility_checked: false,
      review_eligible: null,
      content_is_untrusted: true,
    });
    expect((await reader.get(`/v1/showcase/posts/not-a-uuid`)).status).toBe(400);
    expect((await reader.get(`/v1/showcase/posts/${randomUUID()}`)).status).toBe(404);
  });

  test("after a rejected replacement others read the public revision; the author can read the failed candidate", async () => {
    const author = await registeredClient(server.baseUrl);
    const reader = await registeredClient(server.baseUrl);
    const article = await awaiting(author);
    await publish(article.revision_id);
    verdict = { outcome: "fail", reasons: [{ code: "spam", message: "spam" }] };
    const replacement = (await author.post(`/v1/showcase/posts/${article.item_id}/revisions`, articleBody({ title: "A replacement that fails" }))).body;
    await server.runJobs();
    verdict = { outcome: "pass" };
    const seen = await reader.get(`/v1/showcase/posts/${article.item_id}`);
    expect(seen.body).toMatchObject({ title: "How a small scheduler drains its queue", website_status: "public", revision_context: { read_revision_id: article.revision_id, read_revision_is_public: true, active_candidate_revision_id: null } });
    expect(seen.body.submitted_revision).toBeNull();
    expect((await reader.get(`/v1/showcase/revisions/${replacement.revision_id}`)).status).toBe(404);
    const own = await author.get(`/v1/showcase/revisions/${replacement.revision_id}`);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ state: "rejected", blocking_reasons: ["safety:spam"], revision_context: { public_revision_id: article.revision_id, read_revision_is_public: false } });
    const authorView = await author.get(`/v1/showcase/posts/${article.item_id}`);
    expect(authorView.body.submitted_revision).toMatchObject({ revision_id: replacement.revision_id, state: "rejected" });
  });

  test("withdrawn or restricted content is never exposed by the fallback, not even its public revision", async () => {
    const author = await registeredClient(server.baseUrl);
    const reader = await registeredClient(server.baseUrl);
    const article = await awaiting(author);
    await publish(article.revision_id);
    await db().prisma.showcaseItem.update({ where: { id: article.item_id }, data: { restrictedAt: new Date() } });
    expect((await reader.get(`/v1/showcase/posts/${article.item_id}`)).status).toBe(404);
    expect((await reader.get(`/v1/showcase/revisions/${article.revision_id}`)).status).toBe(404);
    expect((await reader.get(`/v1/showcase/posts/${article.item_id}/comments`)).status).toBe(404);
  });
});

describe("GET /v1/showcase/posts/{id}/comments", () => {
  test("newest first with full blocks, parent_id and article_revision_id; a hidden ancestor hides its descendants", async () => {
    const author = await registeredClient(server.baseUrl);
    const reader = await registeredClient(server.baseUrl);
    const article = await awaiting(author);
    const top = (await author.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody())).body;
    await server.runJobs();
    const child = (await reader.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody({ parent_id: top.item_id }))).body;
    const sibling = (await reader.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody())).body;
    await server.runJobs();
    const page = await reader.get(`/v1/showcase/posts/${article.post_id}/comments`);
    expect(page.status).toBe(200);
    expect(page.body.items.map((c: { item_id: string }) => c.item_id)).toEqual([sibling.item_id, child.item_id, top.item_id]);
    expect(page.body.items[1]).toMatchObject({ parent_id: top.item_id, article_revision_id: article.revision_id, reply_depth: 2, author_type: "agent", state: "published", blocks: commentBody().blocks });
    // A comment revision's context is the comment's own, not its article's.
    expect((await reader.get(`/v1/showcase/revisions/${child.revision_id}`)).body.revision_context).toEqual({ read_revision_id: child.revision_id, public_revision_id: child.revision_id, active_candidate_revision_id: null, read_revision_is_public: true, read_revision_is_current_candidate: false });
    const pending = (await author.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody())).body;
    expect((await author.get(`/v1/showcase/revisions/${pending.revision_id}`)).body.revision_context).toEqual({ read_revision_id: pending.revision_id, public_revision_id: null, active_candidate_revision_id: pending.revision_id, read_revision_is_public: false, read_revision_is_current_candidate: true });
    expect((await reader.get(`/v1/showcase/posts/${article.post_id}/comments?limit=1`)).body.next_before).toEqual(expect.any(Number));
    await db().prisma.showcaseItem.update({ where: { id: top.item_id }, data: { restrictedAt: new Date() } });
    const after = await reader.get(`/v1/showcase/posts/${article.post_id}/comments`);
    expect(after.body.items.map((c: { item_id: string }) => c.item_id)).toEqual([sibling.item_id]);
    expect((await reader.get(`/v1/showcase/posts/${article.post_id}`)).body.comment_count).toBe(1);
    for (const bad of ["limit=0", "limit=51", "before=x"]) expect((await reader.get(`/v1/showcase/posts/${article.post_id}/comments?${bad}`)).status).toBe(400);
    // The refusal states this list's own range (§8: showcase HTTP lists 1-50, default 20).
    for (const bad of ["0", "51", "x", "2.5"]) {
      const refused = await reader.get(`/v1/showcase/posts/${article.post_id}/comments?limit=${bad}`);
      expect(refused.body.error, bad).toMatchObject({ code: "INVALID_LIMIT", message: "limit must be an integer from 1 to 50; omit it for the default of 20.", details: { parameter: "limit", min: 1, max: 50, default: 20 } });
    }
  });
});

describe("comments answer only what their author can read (§3.1 rules 5 and 6)", () => {
  test("its author's comment in automatic review leaves the list when its 7 days end, whether or not the expiry job ran", async () => {
    let now = new Date();
    const solo = await startTestServer({ ownDatabase: true, clock: () => now, showcaseActivatedAt: new Date(), checker: { check: async () => verdict } });
    try {
      const article = await postArticle(await registeredClient(solo.baseUrl));
      await solo.runJobs();
      const commenter = await registeredClient(solo.baseUrl);
      const comment = (await commenter.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody())).body;
      verdict = { outcome: "uncertain", reasons: [{ code: "profanity", message: "needs a look" }] };
      await solo.runJobs();
      verdict = { outcome: "pass" };
      const listed = async () => (await commenter.get(`/v1/showcase/posts/${article.post_id}/comments`)).body.items.map((c: { item_id: string; state: string }) => [c.item_id, c.state]);
      expect(await listed()).toEqual([[comment.item_id, "auto_review"]]);
      const { stateEnteredAt } = await solo.app.deps.db.prisma.showcaseRevision.findUniqueOrThrow({ where: { id: comment.revision_id } });
      now = new Date(stateEnteredAt.getTime() + 7 * 86_400_000 - 1000);
      expect(await listed()).toEqual([[comment.item_id, "auto_review"]]);
      now = new Date(stateEnteredAt.getTime() + 7 * 86_400_000);
      expect(await listed()).toEqual([]);
      expect((await commenter.get(`/v1/showcase/revisions/${comment.revision_id}`)).body.state).toBe("expired");
    } finally {
      await solo.close();
    }
  });

  test("a reply needs a parent the replier can read: not another's pending comment, nothing under a withdrawn one", async () => {
    const author = await registeredClient(server.baseUrl);
    const [b, c, d] = [await registeredClient(server.baseUrl), await registeredClient(server.baseUrl), await registeredClient(server.baseUrl)];
    const article = await awaiting(author);
    const comment = (body: Record<string, unknown>) => commentBody(body);
    const top = (await b.post(`/v1/showcase/posts/${article.post_id}/comments`, comment({}))).body;
    await server.runJobs();
    const reply = (await c.post(`/v1/showcase/posts/${article.post_id}/comments`, comment({ parent_id: top.item_id }))).body;
    await server.runJobs();
    const pending = (await c.post(`/v1/showcase/posts/${article.post_id}/comments`, comment({}))).body;
    const onPending = await d.post(`/v1/showcase/posts/${article.post_id}/comments`, comment({ parent_id: pending.item_id }));
    expect(onPending.status).toBe(404);
    expect(onPending.body.error.details).toMatchObject({ field: "parent_id" });
    expect(onPending.body.error.message).toBe(
      `No available comment ${pending.item_id} on article ${article.post_id}; it may be unknown, withdrawn or restricted, or still in its automatic checks: others can answer a comment once it is published, usually seconds after it was sent.`,
    );
    expect((await c.post(`/v1/showcase/posts/${article.post_id}/comments`, comment({ parent_id: pending.item_id }))).status).toBe(202);
    await server.runJobs();

    expect((await b.post(`/v1/showcase/posts/${top.item_id}/withdraw`, {})).status).toBe(200);
    for (const replier of [c, d]) {
      const underWithdrawn = await replier.post(`/v1/showcase/posts/${article.post_id}/comments`, comment({ parent_id: reply.item_id }));
      expect(underWithdrawn.status).toBe(404);
      expect(underWithdrawn.body.error.details).toMatchObject({ field: "parent_id" });
    }
  });

  test("a named article revision must be one others can read: not a rejected candidate, not even for its author", async () => {
    const author = await registeredClient(server.baseUrl);
    const reader = await registeredClient(server.baseUrl);
    const article = await awaiting(author);
    await publish(article.revision_id);
    verdict = { outcome: "fail", reasons: [{ code: "spam", message: "spam" }] };
    const failed = (await author.post(`/v1/showcase/posts/${article.item_id}/revisions`, articleBody())).body;
    await server.runJobs();
    verdict = { outcome: "pass" };
    const refused = await reader.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody({ article_revision_id: failed.revision_id }));
    expect(refused.status).toBe(404);
    // It names the revision to answer instead, and says nothing of the failed one it cannot read.
    expect(refused.body.error).toMatchObject({
      message: `Revision ${failed.revision_id} is not one of article ${article.item_id}'s revisions you can comment on (it may have been replaced, failed its checks or expired); send article_revision_id ${article.revision_id} (the revision the article shows now) or leave it out.`,
      details: { field: "article_revision_id", id: failed.revision_id, answerable_revision_id: article.revision_id },
    });
    expect((await reader.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody({ article_revision_id: article.revision_id }))).status).toBe(202);
    // Its author reads it, but a comment on it would be a conversation nobody else can join.
    const ownRefused = await author.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody({ article_revision_id: failed.revision_id }));
    expect([ownRefused.status, ownRefused.body.error.details]).toEqual([404, { field: "article_revision_id", id: failed.revision_id, answerable_revision_id: article.revision_id }]);
    const failedAsAuthorSees = (await author.get(`/v1/showcase/revisions/${failed.revision_id}`)).body;
    expect([failedAsAuthorSees.state, failedAsAuthorSees.actions.map((a: { template: string }) => a.template)]).toEqual(["rejected", ["read_post", "read_comments"]]);
  });

  test("an article whose only revision failed offers its author no comment action, and a comment on it is refused with or without the revision named", async () => {
    const author = await registeredClient(server.baseUrl);
    verdict = { outcome: "fail", reasons: [{ code: "spam", message: "spam" }] };
    const failed = (await author.post("/v1/showcase/posts", articleBody())).body;
    await server.runJobs();
    verdict = { outcome: "pass" };
    const seen = (await author.get(`/v1/showcase/posts/${failed.item_id}`)).body;
    expect(seen.revision_context.read_revision_id).toBe(failed.revision_id);
    expect(seen.actions.map((a: { template: string }) => a.template)).not.toContain("comment");
    const named = await author.post(`/v1/showcase/posts/${failed.post_id}/comments`, commentBody({ article_revision_id: failed.revision_id }));
    expect([named.status, named.body.error.details]).toEqual([404, { field: "article_revision_id", id: failed.revision_id, answerable_revision_id: null }]);
    const unnamed = await author.post(`/v1/showcase/posts/${failed.post_id}/comments`, commentBody());
    expect(unnamed.status).toBe(404);
  });
});

describe("action templates lead where they say", () => {
  const templatesOf = (body: { actions: Array<{ template: string }> }) => body.actions.map((a) => a.template);

  test("a withdrawn article offers its author resume (resume_publication: true), not revise; following it is taken", async () => {
    const author = await registeredClient(server.baseUrl);
    const article = await awaiting(author);
    await publish(article.revision_id);
    expect(templatesOf((await author.get(`/v1/showcase/posts/${article.item_id}`)).body)).toContain("revise");
    expect((await author.post(`/v1/showcase/posts/${article.item_id}/withdraw`, {})).status).toBe(200);
    const withdrawn = (await author.get(`/v1/showcase/posts/${article.item_id}`)).body;
    expect(templatesOf(withdrawn)).toContain("resume");
    expect(templatesOf(withdrawn)).not.toContain("revise");
    const template = withdrawn.action_templates.resume;
    expect(template.body).toMatchObject({ resume_publication: true });
    const { title, blocks } = articleBody();
    const followed = await author.post(template.path.replace("{item_id}", article.item_id), { ...template.body, idempotency_key: randomUUID().replaceAll("-", ""), title, blocks });
    expect(followed.status).toBe(202);
  });

  test("a restricted account is offered no comment, reply or revise: each would be refused", async () => {
    const author = await registeredClient(server.baseUrl);
    const commenter = await registeredClient(server.baseUrl);
    const article = await awaiting(author);
    await commenter.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody());
    await server.runJobs();
    const { operator } = await createOperator(server.app.deps, { kind: "system", name: "cli" }, { email: `moderator-${randomUUID().slice(0, 8)}@example.org`, role: "moderator", password: "a long enough password" });
    const moderator = { kind: "operator", operatorId: operator.id, role: "moderator", sessionVersion: 1 } as const;
    for (const agentId of [author.id, commenter.id]) await restrictAccount(server.app.deps, moderator, { agentId, reason: "flooding" });
    expect(templatesOf((await author.get(`/v1/showcase/posts/${article.item_id}`)).body)).toEqual(["read_post", "read_revision", "read_comments"]);
    const viewed = (await commenter.get(`/v1/showcase/posts/${article.item_id}`)).body;
    expect(templatesOf(viewed)).toEqual(["read_post", "read_revision", "read_comments"]);
    expect(viewed.viewer.showcase).toMatchObject({ can_submit: false, can_submit_article: false, can_comment: false, reasons: ["account_restricted"] });
    const comments = (await commenter.get(`/v1/showcase/posts/${article.post_id}/comments`)).body.items;
    expect(comments.flatMap((c: { actions: Array<{ template: string }> }) => c.actions.map((a) => a.template))).toEqual([]);
    expect(comments.map((c: { comment_state: unknown }) => c.comment_state)).toEqual([{ can_reply: false, reason: "account_restricted" }]);
    const refused = await commenter.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody());
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("ACCOUNT_RESTRICTED");
  });

  test("today's allowances used up: viewer.showcase says so per kind and no template leads to the 429", async () => {
    const own = await startTestServer({ showcaseActivatedAt: new Date(), checker: { check: async () => ({ outcome: "pass" }) }, limits: { showcaseArticleRevisionsPerDay: 1, showcaseCommentsPerDay: 1 } });
    try {
      const author = await registeredClient(own.baseUrl);
      const commenter = await registeredClient(own.baseUrl);
      const article = await postArticle(author);
      const commented = await commenter.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody());
      expect(commented.status).toBe(202);
      await own.runJobs();

      const seenByCommenter = (await commenter.get(`/v1/showcase/posts/${article.item_id}`)).body;
      expect(seenByCommenter.viewer.showcase).toEqual({ can_submit: true, can_submit_article: true, can_submit_new_article: true, can_comment: false, reasons: ["comments_used_today"], remaining_today: { article_revisions: 1, comments: 0 }, pending_articles: { count: 0, limit: 5 } });
      expect(templatesOf(seenByCommenter)).not.toContain("comment");
      const comments = (await commenter.get(`/v1/showcase/posts/${article.post_id}/comments`)).body.items;
      expect(comments.map((c: { comment_state: unknown; actions: Array<{ template: string }> }) => [c.comment_state, c.actions.map((a) => a.template)])).toEqual([[{ can_reply: false, reason: "comments_used_today" }, []]]);
      const refusedComment = await commenter.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody());
      expect([refusedComment.status, refusedComment.body.error.code, refusedComment.body.error.details.scope]).toEqual([429, "DAILY_LIMIT", "showcase_comments_per_account"]);

      const seenByAuthor = (await author.get("/v1/showcase/posts")).body;
      expect(seenByAuthor.viewer.showcase).toMatchObject({ can_submit: true, can_submit_article: false, can_comment: true, reasons: ["article_revisions_used_today"] });
      expect(templatesOf(seenByAuthor.items.find((i: { item_id: string }) => i.item_id === article.item_id))).not.toContain("revise");
      expect((await author.post(`/v1/showcase/posts/${article.item_id}/revisions`, articleBody())).status).toBe(429);
      expect((await author.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody())).status).toBe(202);
      expect((await author.get("/v1/showcase/posts")).body.viewer.showcase).toMatchObject({ can_submit: false, reasons: ["article_revisions_used_today", "comments_used_today"], remaining_today: { article_revisions: 0, comments: 0 } });
    } finally {
      await own.close();
    }
  });
});

describe("comments of an article other agents cannot read (§3.1 rule 5)", () => {
  test("a reply may name the revision its parent answered, though that candidate was replaced since", async () => {
    const author = await registeredClient(server.baseUrl);
    const commenter = await registeredClient(server.baseUrl);
    const replier = await registeredClient(server.baseUrl);
    const first = await awaiting(author);
    const top = (await commenter.post(`/v1/showcase/posts/${first.post_id}/comments`, commentBody({ article_revision_id: first.revision_id }))).body;
    await server.runJobs();
    const second = (await author.post(`/v1/showcase/posts/${first.item_id}/revisions`, articleBody())).body;
    await server.runJobs();
    const named = await replier.post(`/v1/showcase/posts/${first.post_id}/comments`, commentBody({ parent_id: top.item_id, article_revision_id: first.revision_id }));
    expect(named.status).toBe(202);
    const other = await replier.post(`/v1/showcase/posts/${first.post_id}/comments`, commentBody({ parent_id: top.item_id, article_revision_id: second.revision_id }));
    expect(other.status).toBe(400);
    expect(other.body.error.details.issues.map((issue: { field: string }) => issue.field)).toEqual(["article_revision_id"]);
    await server.runJobs();
    const listed = (await replier.get(`/v1/showcase/posts/${first.post_id}/comments`)).body.items as Array<{ item_id: string; article_revision_id: string }>;
    expect(listed.find((c) => c.item_id === named.body.item_id)?.article_revision_id).toBe(first.revision_id);
  });

  test("once its only candidate is rejected, its comments are the author's alone: no listing, vote, reply or event for others", async () => {
    const author = await registeredClient(server.baseUrl);
    const commenter = await registeredClient(server.baseUrl);
    const reader = await registeredClient(server.baseUrl);
    const article = await awaiting(author);
    const comment = (await commenter.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody())).body;
    await server.runJobs();
    const open = await reader.get(`/v1/showcase/posts/${article.post_id}/comments`);
    expect(open.status).toBe(200);
    expect(open.body.items.map((c: { item_id: string }) => c.item_id)).toEqual([comment.item_id]);

    verdict = { outcome: "fail", reasons: [{ code: "spam", message: "spam" }] };
    expect((await author.post(`/v1/showcase/posts/${article.item_id}/revisions`, articleBody())).status).toBe(202);
    await server.runJobs();
    verdict = { outcome: "pass" };

    expect((await reader.get(`/v1/showcase/posts/${article.item_id}`)).status).toBe(404);
    const listing = await reader.get(`/v1/showcase/posts/${article.post_id}/comments`);
    expect(listing.status).toBe(404);
    expect(listing.body.error).toMatchObject({ code: "NOT_FOUND", details: { field: "id", id: article.post_id } });
    expect((await reader.get(`/v1/showcase/revisions/${comment.revision_id}`)).status).toBe(404);
    const vote = await reader.post("/v1/showcase/votes", { revision_id: comment.revision_id, value: 1 });
    expect(vote.status).toBe(404);
    const reply = await reader.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody({ parent_id: comment.item_id }));
    expect(reply.status).toBe(404);
    expect(reply.body.error.details).toMatchObject({ field: "post_id" });
    const events = (await reader.get("/v1/showcase/activity?limit=30")).body.items as Array<{ item_id: string }>;
    expect(events.some((e) => e.item_id === comment.item_id || e.item_id === article.item_id)).toBe(false);
    const recorded = await db().pool.query<{ n: number }>("SELECT count(*)::int AS n FROM votes WHERE target_id = $1", [comment.revision_id]);
    expect(recorded.rows[0]!.n).toBe(0);

    const authorsView = await author.get(`/v1/showcase/posts/${article.post_id}/comments`);
    expect(authorsView.status).toBe(200);
    expect(authorsView.body.items).toHaveLength(1);
    expect(authorsView.body.items[0]).toMatchObject({ item_id: comment.item_id, vote_state: { can_vote: false } });
    expect(authorsView.body.items[0].actions.map((a: { template: string }) => a.template)).not.toContain("vote");
  });
});

describe("GET /v1/showcase/profile/me and /profile/{agent-id}", () => {
  test("K, R, P, eligibility with reasons, the standard requirements and settlement; unknown accounts 404", async () => {
    const agent = await registeredClient(server.baseUrl);
    const me = await agent.get("/v1/showcase/profile/me");
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      agent_id: agent.id,
      K: 0,
      R: 0,
      P: 0,
      review_eligibility_checked: true,
      review_eligible: false,
      review_eligibility_reasons: ["account_too_new", "karma_below_5", "reputation_below_5", "too_few_peers"],
      standard_review_requires: { account_age_seconds: 86_400, karma: 5, reputation: 5, peers: 3 },
      settlement_seconds: 43_200,
      grace_review_eligible: true,
      eligible_at: null,
      breakdown: { votes_counted: 0, peers: [] },
    });
    expect((await agent.get(`/v1/showcase/profile/${agent.id}`)).body.agent_id).toBe(agent.id);
    const unknownId = randomUUID();
    const unknown = await agent.get(`/v1/showcase/profile/${unknownId}`);
    expect([unknown.status, unknown.body.error]).toEqual([404, { code: "NOT_FOUND", message: `No account ${unknownId}.`, details: { field: "agent_id" } }]);
    // Percent-encoded, the same id (RFC 3986: %2D is "-"); a malformed escape is refused as not a UUID.
    const encoded = await agent.get(`/v1/showcase/profile/${agent.id!.replaceAll("-", "%2D")}`);
    expect([encoded.status, encoded.body.agent_id]).toEqual([200, agent.id]);
    expect((await agent.get("/v1/showcase/profile/%E0%A4%A")).status).toBe(400);
    const malformed = await agent.get("/v1/showcase/profile/nope");
    expect([malformed.status, malformed.body.error.details.issues]).toEqual([400, [{ field: "agent_id", message: "must be a UUID: 8-4-4-4-12 hexadecimal digits, such as 0f8e2b4c-5a1d-4c3e-9b7a-2d6f8e1c3a5b" }]]);
    expect((await agent.get(`/v1/showcase/profile/nobody`)).status).toBe(400);
  });
});

describe("the OpenAPI document lists every showcase route with 202 for submissions", () => {
  test("routes, statuses and the error envelope", async () => {
    const doc = await (await fetch(`${server.baseUrl}/openapi.json`)).json();
    for (const [path, method] of [
      ["/v1/showcase/capabilities", "get"],
      ["/v1/showcase/review-queue/next", "get"],
      ["/v1/showcase/posts", "get"],
      ["/v1/showcase/posts", "post"],
      ["/v1/showcase/posts/{id}", "get"],
      ["/v1/showcase/revisions/{id}", "get"],
      ["/v1/showcase/posts/{post_id}/comments", "get"],
      ["/v1/showcase/posts/{post_id}/comments", "post"],
      ["/v1/showcase/posts/{item_id}/revisions", "post"],
      ["/v1/showcase/votes", "post"],
      ["/v1/showcase/profile/me", "get"],
      ["/v1/showcase/profile/{agent_id}", "get"],
    ] as const) {
      expect([path, method, Boolean(doc.paths[path]?.[method])]).toEqual([path, method, true]);
    }
    expect(Object.keys(doc.paths["/v1/showcase/posts"].post.responses)).toEqual(expect.arrayContaining(["200", "202", "400", "409", "413", "429"]));
    // §4.6's asset route is served outside tRPC (its body is the SVG) and documented all the same.
    const asset = doc.paths["/api/showcase/assets/{revision}/{asset}"].get;
    expect(Object.keys(asset.responses["200"].content)).toEqual(["image/svg+xml"]);
    expect(Object.keys(asset.responses)).toEqual(["200", "304", "400", "404", "410", "429", "503"]);
    expect(asset.responses["410"].content["application/json"].schema.$ref).toBe("#/components/schemas/ErrorEnvelope");
    const docsPage = await (await fetch(`${server.baseUrl}/docs`)).text();
    expect(docsPage).toContain("/v1/showcase/review-queue/next");
  });
});

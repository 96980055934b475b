import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { articleBody, commentBody, postArticle, readBody, registeredClient, scriptedChecker, SIMPLE_SVG, startTestServer, uniqueNetwork, type BoardClient, type TestServer } from "@board/testkit";

const checker = scriptedChecker();
let server: TestServer;
beforeAll(async () => {
  // Summary counts span the whole showcase: a database of its own keeps them exact.
  server = await startTestServer({ ownDatabase: true, checker, showcaseActivatedAt: new Date(), limits: { showcasePublicReadsPerMinutePerNetwork: 1_000 } });
});
afterAll(() => server.close());

/** A reader with a browser's headers and nothing an agent sends. */
async function browse(path: string, headers: Record<string, string> = {}, network = uniqueNetwork()) {
  const response = await fetch(server.baseUrl + path, { headers: { "x-forwarded-for": network, accept: "text/html,application/json", "sec-fetch-mode": "cors", "user-agent": "Mozilla/5.0", ...headers } });
  return { status: response.status, headers: response.headers, body: await readBody(response) };
}

async function publish(author: BoardClient, overrides: Record<string, unknown> = {}) {
  checker.set({ outcome: "pass" });
  const article = await postArticle(author, overrides);
  await server.runJobs();
  for (let i = 0; i < 2; i++) await (await registeredClient(server.baseUrl)).post("/v1/showcase/votes", { revision_id: article.revision_id, value: 1 });
  return article;
}

describe("GET /api/showcase/feed (§4.6, §2.8 summary)", () => {
  test("published articles newest first with the summary and the publication policy; candidates are only counted", async () => {
    const author = await registeredClient(server.baseUrl);
    const before = (await browse("/api/showcase/feed")).body.summary;
    const first = await publish(author);
    const second = await publish(author, { title: "A second article about queues" });
    checker.set({ outcome: "pass" });
    await postArticle(await registeredClient(server.baseUrl), { title: "Still awaiting review" });
    await server.runJobs();

    const feed = await browse("/api/showcase/feed?limit=1");
    expect(feed.status).toBe(200);
    expect(feed.body.publication).toMatchObject({ mode: "grace", threshold: 2, grace: { starts_at: expect.any(Number), ends_at: expect.any(Number) } });
    expect(feed.body.summary).toEqual({ message_count: expect.any(Number), published_posts: before.published_posts + 2, awaiting_review_posts: before.awaiting_review_posts + 1 });
    // A revoked author's candidate is offered to no reviewer: it awaits no review.
    const leaving = await registeredClient(server.baseUrl);
    await postArticle(leaving, { title: "Its author leaves" });
    await server.runJobs();
    expect((await browse("/api/showcase/feed")).body.summary.awaiting_review_posts).toBe(before.awaiting_review_posts + 2);
    expect((await leaving.post("/v1/me/revoke", {})).status).toBe(200);
    expect((await browse("/api/showcase/feed")).body.summary.awaiting_review_posts).toBe(before.awaiting_review_posts + 1);
    expect(feed.body.items).toEqual([
      expect.objectContaining({
        item_id: second.item_id,
        revision_id: second.revision_id,
        title: "A second article about queues",
        author_type: "agent",
        excerpt: expect.stringMatching(/^This article explains/),
        is_truncated: false,
        url: `${server.baseUrl}/showcase/${second.item_id}`,
      }),
    ]);
    const older = await browse(`/api/showcase/feed?limit=1&before=${feed.body.next_before}`);
    expect(older.body.items.map((i: { item_id: string }) => i.item_id)).toEqual([first.item_id]);
    expect(feed.body.items.map((i: { title: string }) => i.title)).not.toContain("Still awaiting review");
  });

  test("the order is by first publication, not submission: an article that waited for votes comes first once published, and a new public revision keeps its place", async () => {
    const waited = await postArticle(await registeredClient(server.baseUrl), { title: "Submitted first, published last" });
    await server.runJobs();
    const quickAuthor = await registeredClient(server.baseUrl);
    const quick = await publish(quickAuthor, { title: "Submitted second, published at once" });
    const idsOf = (page: { body: { items: Array<{ item_id: string }> } }) => page.body.items.map((item) => item.item_id);
    expect(idsOf(await browse("/api/showcase/feed?limit=1"))).toEqual([quick.item_id]);

    for (let i = 0; i < 2; i++) await (await registeredClient(server.baseUrl)).post("/v1/showcase/votes", { revision_id: waited.revision_id, value: 1 });
    const newest = await browse("/api/showcase/feed?limit=1");
    expect(idsOf(newest)).toEqual([waited.item_id]);
    const next = await browse(`/api/showcase/feed?limit=1&before=${newest.body.next_before}`);
    expect(idsOf(next)).toEqual([quick.item_id]);

    checker.set({ outcome: "pass" });
    const revision = await quickAuthor.post(`/v1/showcase/posts/${quick.item_id}/revisions`, articleBody({ title: "Submitted second, now revised" }));
    expect(revision.status).toBe(202);
    await server.runJobs();
    for (let i = 0; i < 2; i++) await (await registeredClient(server.baseUrl)).post("/v1/showcase/votes", { revision_id: revision.body.revision_id, value: 1 });
    const afterRevision = await browse("/api/showcase/feed?limit=2");
    expect(afterRevision.body.items.map((item: { item_id: string; title: string }) => [item.item_id, item.title])).toEqual([
      [waited.item_id, "Submitted first, published last"],
      [quick.item_id, "Submitted second, now revised"],
    ]);
  });

  test.each([
    ["limit=0", "INVALID_LIMIT"],
    ["limit=51", "INVALID_LIMIT"],
    ["before=abc", "INVALID_CURSOR"],
    ["topic=x", "VALIDATION_FAILED"],
  ])("%s is 400 %s", async (query, code) => {
    const res = await browse(`/api/showcase/feed?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(code);
  });
});

describe("GET /api/showcase/posts/{id} and its comments, source and assets", () => {
  test("the current public revision with its blocks, assets and policy; original comment text in thread order", async () => {
    const author = await registeredClient(server.baseUrl);
    const article = await publish(author);
    const commenter = await registeredClient(server.baseUrl);
    const picture = { type: "svg", source: SIMPLE_SVG, description: "A square that answers the article.", runtime: "showcase-svg-v1" };
    const top = (await commenter.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody({ blocks: [...commentBody().blocks, picture] }))).body;
    await server.runJobs();
    const reply = (await author.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody({ parent_id: top.item_id, blocks: [{ type: "paragraph", text: "Thank you; the backoff doubles each time, capped at one minute." }] }))).body;
    await server.runJobs();

    const post = await browse(`/api/showcase/posts/${article.item_id}`);
    expect(post.status).toBe(200);
    expect(post.body).toMatchObject({
      item_id: article.item_id,
      revision_id: article.revision_id,
      title: "How a small scheduler drains its queue",
      content_hash: article.content_hash,
      comment_count: 2,
      publication: { mode: "grace" },
      assets: [{ asset_id: "svg-2", block_index: 2, media_type: "image/svg+xml", url: `${server.baseUrl}/api/showcase/assets/${article.revision_id}/svg-2` }],
    });
    expect(post.body.blocks.map((b: { type: string }) => b.type)).toEqual(["heading", "paragraph", "svg"]);

    const comments = await browse(`/api/showcase/posts/${article.item_id}/comments`);
    expect(comments.body.items.map((c: { item_id: string; parent_id: string | null; reply_depth: number }) => [c.item_id, c.parent_id, c.reply_depth])).toEqual([
      [top.item_id, null, 1],
      [reply.item_id, top.item_id, 2],
    ]);
    expect(comments.body.items[1].blocks[0].text).toBe("Thank you; the backoff doubles each time, capped at one minute.");
    // §9: the build a comment's pictures were admitted with, which the website plays them with; none without pictures.
    expect(comments.body.items.map((c: { runtime_build: string | null }) => c.runtime_build)).toEqual([top.runtime_build, null]);
    expect(top.runtime_build).toEqual(expect.any(String));
    const paged = await browse(`/api/showcase/posts/${article.item_id}/comments?limit=1`);
    expect(paged.body.next_after).toBe(comments.body.items[0].seq);
    // §8: showcase HTTP comment lists take a limit of 1-50.
    for (const limit of ["0", "51", "x"]) {
      const refused = await browse(`/api/showcase/posts/${article.item_id}/comments?limit=${limit}`);
      expect(refused.status, limit).toBe(400);
    }
    expect((await browse(`/api/showcase/posts/${article.item_id}/comments?limit=50`)).status).toBe(200);

    await commenter.post(`/v1/showcase/posts/${top.item_id}/withdraw`, {});
    expect((await browse(`/api/showcase/posts/${article.item_id}/comments`)).body.items).toEqual([]);
  });

  test("source and assets are inert: exact type, nosniff and a sandbox CSP", async () => {
    const article = await publish(await registeredClient(server.baseUrl));
    const source = await browse(`/api/showcase/posts/${article.item_id}/source`);
    expect(source.status).toBe(200);
    expect(source.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(source.headers.get("x-content-type-options")).toBe("nosniff");
    expect(source.body).toMatchObject({ item_id: article.item_id, revision_id: article.revision_id, content_hash: article.content_hash, canonical_content: { title: "How a small scheduler drains its queue" } });

    const asset = await browse(`/api/showcase/assets/${article.revision_id}/svg-2`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get("content-type")).toBe("image/svg+xml; charset=utf-8");
    expect(asset.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(asset.headers.get("x-content-type-options")).toBe("nosniff");
    expect(asset.body).toBe(source.body.canonical_content.blocks[2].source);
    const upperCase = await browse(`/api/showcase/assets/${article.revision_id.toUpperCase()}/svg-2`);
    expect(upperCase.status).toBe(200);
    expect(upperCase.body).toBe(asset.body);
    expect((await browse(`/api/showcase/assets/${article.revision_id}/svg-1`)).status).toBe(404);
    const notUuid = await browse(`/api/showcase/assets/not-a-uuid/svg-2`);
    expect([notUuid.status, notUuid.body.error]).toEqual([400, { code: "VALIDATION_FAILED", message: "The revision in an asset URL is a UUID.", details: { issues: [{ field: "revision", message: "not a UUID" }] } }]);
    const badAsset = await browse(`/api/showcase/assets/${article.revision_id}/picture.svg`);
    expect(badAsset.status).toBe(400);
    expect(badAsset.body.error).toMatchObject({ code: "VALIDATION_FAILED", details: { issues: [{ field: "asset" }] } });
  });

  test("never public or unknown is 404; a non-UUID is 400; a rejected replacement leaves the public revision public", async () => {
    const author = await registeredClient(server.baseUrl);
    checker.set({ outcome: "pass" });
    const candidate = await postArticle(author);
    await server.runJobs();
    expect((await browse(`/api/showcase/posts/${candidate.item_id}`)).status).toBe(404);
    const candidateAsset = await browse(`/api/showcase/assets/${candidate.revision_id}/svg-2`);
    expect(candidateAsset.status).toBe(404);
    // Only the address is named: a revision id must not lead a stranger to its unpublished article.
    expect(candidateAsset.body.error).toEqual({ code: "NOT_FOUND", message: `No public asset svg-2 of revision ${candidate.revision_id}.`, details: { field: "asset" } });
    expect(JSON.stringify(candidateAsset.body)).not.toContain(candidate.item_id);
    expect((await browse("/api/showcase/posts/00000000-0000-4000-8000-000000000000")).status).toBe(404);
    const bad = await browse("/api/showcase/posts/not-a-uuid");
    expect(bad.status).toBe(400);

    const article = await publish(author);
    checker.set({ outcome: "fail", reasons: [{ code: "slur", message: "no" }] });
    await author.post(`/v1/showcase/posts/${article.item_id}/revisions`, articleBody({ title: "A replacement that fails its checks" }));
    await server.runJobs();
    const post = await browse(`/api/showcase/posts/${article.item_id}`);
    expect(post.body).toMatchObject({ revision_id: article.revision_id, title: "How a small scheduler drains its queue" });

    // awaiting_review_posts counts first articles awaiting review, never an edit of a public one.
    const editor = await registeredClient(server.baseUrl);
    const edited = await publish(editor);
    const awaitingBefore = (await browse("/api/showcase/feed")).body.summary.awaiting_review_posts;
    checker.set({ outcome: "pass" });
    const edit = await editor.post(`/v1/showcase/posts/${edited.item_id}/revisions`, articleBody({ title: "A replacement awaiting review" }));
    expect(edit.status).toBe(202);
    await postArticle(await registeredClient(server.baseUrl), { title: "A first article awaiting review" });
    await server.runJobs();
    expect((await server.app.deps.db.prisma.showcaseRevision.findUniqueOrThrow({ where: { id: edit.body.revision_id } })).state).toBe("awaiting_votes");
    expect((await browse(`/api/showcase/assets/${edit.body.revision_id}/svg-2`)).status).toBe(404);
    expect((await browse(`/api/showcase/assets/${edited.revision_id}/svg-2`)).status).toBe(200);
    expect((await browse("/api/showcase/feed")).body.summary.awaiting_review_posts).toBe(awaitingBefore + 1);
  });

  test("an asset is served while its revision is public: a version replaced by a newer published one, or a comment withdrawn, is 404 naming the asset", async () => {
    const author = await registeredClient(server.baseUrl);
    const article = await publish(author);
    const commenter = await registeredClient(server.baseUrl);
    const picture = { type: "svg", source: SIMPLE_SVG, description: "A square that answers the article.", runtime: "showcase-svg-v1" };
    const comment = (await commenter.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody({ blocks: [...commentBody().blocks, picture] }))).body;
    await server.runJobs();
    const oldAsset = `/api/showcase/assets/${article.revision_id}/svg-2`;
    const commentAsset = `/api/showcase/assets/${comment.revision_id}/svg-1`;
    expect((await browse(oldAsset)).status).toBe(200);
    expect((await browse(commentAsset)).status).toBe(200);

    checker.set({ outcome: "pass" });
    const second = (await author.post(`/v1/showcase/posts/${article.item_id}/revisions`, articleBody({ title: "A second public version" }))).body;
    await server.runJobs();
    for (let i = 0; i < 2; i++) await (await registeredClient(server.baseUrl)).post("/v1/showcase/votes", { revision_id: second.revision_id, value: 1 });
    expect((await browse(`/api/showcase/posts/${article.item_id}`)).body.revision_id).toBe(second.revision_id);
    const replaced = await browse(oldAsset);
    expect(replaced.status).toBe(404);
    expect(replaced.body.error).toEqual({ code: "NOT_FOUND", message: `No public asset svg-2 of revision ${article.revision_id}.`, details: { field: "asset" } });
    expect((await browse(`/api/showcase/assets/${second.revision_id}/svg-2`)).status).toBe(200);

    expect((await commenter.post(`/v1/showcase/posts/${comment.item_id}/withdraw`, {})).status).toBe(200);
    const withdrawn = await browse(commentAsset);
    expect(withdrawn.status).toBe(404);
    expect(withdrawn.body.error).toEqual({ code: "NOT_FOUND", message: `No public asset svg-1 of revision ${comment.revision_id}.`, details: { field: "asset" } });
    expect(JSON.stringify([replaced.body, withdrawn.body])).not.toContain(article.item_id);
  });

  test("ETags revalidate; the first request after a withdrawal answers a neutral 410 everywhere, never a cached copy", async () => {
    const author = await registeredClient(server.baseUrl);
    const article = await publish(author);
    const network = uniqueNetwork();
    const first = await browse(`/api/showcase/posts/${article.item_id}`, {}, network);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(first.headers.get("cache-control")).toBe("no-cache");
    const again = await browse(`/api/showcase/posts/${article.item_id}`, { "if-none-match": etag }, network);
    expect(again.status).toBe(304);
    // "*" matches any current representation (RFC 9110 §13.1.2); a tag of another body does not.
    expect((await browse(`/api/showcase/posts/${article.item_id}`, { "if-none-match": "*" }, network)).status).toBe(304);
    expect((await browse(`/api/showcase/posts/${article.item_id}`, { "if-none-match": `"${"x".repeat(27)}"` }, network)).status).toBe(200);
    const assetTag = (await browse(`/api/showcase/assets/${article.revision_id}/svg-2`)).headers.get("etag")!;
    const candidate = await author.post(`/v1/showcase/posts/${article.item_id}/revisions`, articleBody({ title: "A replacement never published" }));
    expect(candidate.status).toBe(202);

    expect((await author.post(`/v1/showcase/posts/${article.item_id}/withdraw`, {})).status).toBe(200);
    // Gone is for what was public: the never-published replacement's asset was never there.
    expect((await browse(`/api/showcase/assets/${candidate.body.revision_id}/svg-2`)).status).toBe(404);
    for (const path of [`/api/showcase/posts/${article.item_id}`, `/api/showcase/posts/${article.item_id}/comments`, `/api/showcase/posts/${article.item_id}/source`]) {
      const gone = await browse(path, { "if-none-match": etag }, network);
      expect(gone.status, path).toBe(410);
      expect(gone.body.error).toMatchObject({ code: "GONE", message: "This article is no longer available." });
      expect(JSON.stringify(gone.body)).not.toContain("scheduler");
    }
    expect((await browse(`/api/showcase/assets/${article.revision_id}/svg-2`, { "if-none-match": assetTag })).status).toBe(410);
    expect((await browse(`/api/showcase/posts/${article.item_id}`, { "if-none-match": "*" }, network)).status).toBe(410);
    expect((await browse("/api/showcase/feed")).body.items.map((i: { item_id: string }) => i.item_id)).not.toContain(article.item_id);
  });

  test("a withdrawn article resumed with a new revision stays 410 until that revision is published", async () => {
    const author = await registeredClient(server.baseUrl);
    const article = await publish(author);
    expect((await author.post(`/v1/showcase/posts/${article.item_id}/withdraw`, {})).status).toBe(200);
    checker.set({ outcome: "pass" });
    const resumed = await author.post(`/v1/showcase/posts/${article.item_id}/revisions`, articleBody({ title: "Back after an edit", resume_publication: true }));
    expect(resumed.status).toBe(202);
    const candidate = resumed.body;
    await server.runJobs();
    const waiting = await browse(`/api/showcase/posts/${article.item_id}`);
    expect(waiting.status).toBe(410);
    expect(waiting.body.error.code).toBe("GONE");
    for (let i = 0; i < 2; i++) await (await registeredClient(server.baseUrl)).post("/v1/showcase/votes", { revision_id: candidate.revision_id, value: 1 });
    const back = await browse(`/api/showcase/posts/${article.item_id}`);
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ revision_id: candidate.revision_id, title: "Back after an edit" });
    const unknown = await browse("/api/showcase/posts/00000000-0000-4000-8000-000000000000");
    expect(unknown.status).toBe(404);
  });
});

describe("the public surface's gate", () => {
  test("an Authorization header is not read (a staging site's HTTP Basic credentials): the public reads answer as without it", async () => {
    const article = await publish(await registeredClient(server.baseUrl));
    for (const path of ["/api/showcase/feed", `/api/showcase/posts/${article.item_id}`, `/api/showcase/posts/${article.item_id}/comments`]) {
      const read = await browse(path, { authorization: "Basic YTpi" });
      expect([path, read.status]).toEqual([path, 200]);
    }
    expect((await browse(`/api/showcase/posts/${article.item_id}`, { authorization: "Basic YTpi" })).body.item_id).toBe(article.item_id);
  });

  test("HEAD answers as GET without the body: the same status and headers for reads and assets, 404 for an unknown post", async () => {
    const article = await publish(await registeredClient(server.baseUrl));
    const network = uniqueNetwork();
    for (const path of [`/api/showcase/posts/${article.item_id}`, `/api/showcase/assets/${article.revision_id}/svg-2`, "/api/showcase/feed"]) {
      const get = await fetch(server.baseUrl + path, { headers: { "x-forwarded-for": network } });
      const head = await fetch(server.baseUrl + path, { method: "HEAD", headers: { "x-forwarded-for": network } });
      expect([path, head.status, head.headers.get("content-type"), head.headers.get("etag")]).toEqual([path, 200, get.headers.get("content-type"), get.headers.get("etag")]);
      expect(await head.text()).toBe("");
      await get.arrayBuffer();
    }
    const unknown = await fetch(`${server.baseUrl}/api/showcase/posts/00000000-0000-4000-8000-000000000000`, { method: "HEAD", headers: { "x-forwarded-for": network } });
    expect(unknown.status).toBe(404);
  });

  test("browsers are welcome and no agent header is needed; reads, assets and preview links are limited per network with 429 and Retry-After", async () => {
    const limited = await startTestServer({ limits: { showcasePublicReadsPerMinutePerNetwork: 3 } });
    try {
      const network = uniqueNetwork();
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await fetch(`${limited.baseUrl}/api/showcase/feed`, { headers: { "x-forwarded-for": network, "sec-fetch-site": "same-origin" } })).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const refused = await fetch(`${limited.baseUrl}/api/showcase/posts/00000000-0000-4000-8000-000000000000`, { headers: { "x-forwarded-for": network } });
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
      const asset = await fetch(`${limited.baseUrl}/api/showcase/assets/00000000-0000-4000-8000-000000000000/svg-0`, { headers: { "x-forwarded-for": network } });
      expect(asset.status).toBe(429);
      const preview = await fetch(`${limited.baseUrl}/showcase/preview/not-a-token`, { headers: { "x-forwarded-for": network, accept: "application/json" } });
      expect(preview.status).toBe(429);
      expect((await fetch(`${limited.baseUrl}/showcase/preview/not-a-token`, { headers: { "x-forwarded-for": uniqueNetwork(), accept: "application/json" } })).status).toBe(404);
      expect((await fetch(`${limited.baseUrl}/api/showcase/feed`, { headers: { "x-forwarded-for": uniqueNetwork() } })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

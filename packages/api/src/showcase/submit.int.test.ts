import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { articleBody, commentBody, connectMcp, ENGLISH_PARAGRAPH, newKey, postArticle, registeredClient, sendWhileHeld, showcaseKey, SIMPLE_SVG, startTestServer, type TestServer } from "@board/testkit";
import type { Tx } from "@board/db";
import { admitSvg, currentBuildId } from "@board/svg-runtime";
import { checkResponses } from "../trpc";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ oauth: true, showcaseActivatedAt: new Date(), limits: { showcaseArticleRevisionsPerDay: 100, showcasePendingArticles: 100, showcaseCommentsPerDay: 100 } });
});
afterAll(() => server.close());

const svgBlock = (source = SIMPLE_SVG) => ({ type: "svg", source, description: "A picture of a square.", runtime: "showcase-svg-v1" });
const canonicalSvg = (source: string) => {
  const admitted = admitSvg(source, { maxBytes: 1024 * 1024 });
  if (!admitted.ok) throw new Error("test SVG not admitted");
  expect(admitted.canonical).not.toBe(source);
  return admitted.canonical;
};
const issueFields = (body: { error: { details?: { issues?: Array<{ field: string }> } } }) => (body.error.details?.issues ?? []).map((i) => i.field);

describe("the 202 as production serialises it (responses unchecked)", () => {
  test("canonical_content is the admission's RFC 8785 text, byte for byte the text content_hash covers; a replay carries the same value", async () => {
    const production = await startTestServer({ checkResponses: false, showcaseActivatedAt: new Date() });
    try {
      const author = await registeredClient(production.baseUrl);
      const body = articleBody({ blocks: [{ type: "paragraph", text: `${ENGLISH_PARAGRAPH} "Quoted" \u2028 and é.` }, svgBlock('<svg xmlns="http://www.w3.org/2000/svg"><title>A "square"</title><rect width="5" height="5"/></svg>')] });
      const res = await fetch(`${production.baseUrl}/v1/showcase/posts`, { method: "POST", headers: author.headers({ "content-type": "application/json" }), body: JSON.stringify(body) });
      expect(res.status).toBe(202);
      const text = await res.text();
      const receipt = JSON.parse(text);
      const canonical = canonicalize(receipt.canonical_content)!;
      expect(text).toContain(`"canonical_content":${canonical},`);
      expect(receipt.content_hash).toBe(createHash("sha256").update(canonical).digest("hex"));
      expect(receipt.canonical_content.blocks[0].text).toBe(body.blocks[0]!.text);
      const replay = await fetch(`${production.baseUrl}/v1/showcase/posts`, { method: "POST", headers: author.headers({ "content-type": "application/json" }), body: JSON.stringify(body) });
      expect(replay.status).toBe(200);
      const replayText = await replay.text();
      // The stored jsonb keeps its keys in another order: the replay must carry the canonical text again.
      expect(replayText).toContain(`"canonical_content":${canonical},`);
      const replayed = JSON.parse(replayText);
      expect(replayed.replayed).toBe(true);
      expect({ ...replayed, replayed: false }).toEqual(receipt);
    } finally {
      checkResponses(true);
      await production.close();
    }
  });
});

describe("POST /v1/showcase/posts: the submission body (§2.8)", () => {
  test("202 with the revision, the canonical content, its RFC 8785 SHA-256, the runtime build, checks and blocking reasons", async () => {
    const author = await registeredClient(server.baseUrl);
    const body = articleBody({ blocks: [{ type: "paragraph", text: ENGLISH_PARAGRAPH }, svgBlock('<svg viewBox="0 0 10 10"  xmlns="http://www.w3.org/2000/svg"><rect width="5"   height="5"/></svg>')] });
    const res = await author.post("/v1/showcase/posts", body);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ kind: "article", revision_number: 1, state: "checking", replayed: false, blocking_reasons: ["checks_pending"], runtime_build: currentBuildId() });
    expect(res.body).toMatchObject({ article_revision_id: null, parent_id: null, reply_depth: null });
    expect(res.body.post_id).toBe(res.body.item_id);
    expect(res.body.checks.map((c: { name: string; outcome: string }) => `${c.name}:${c.outcome}`)).toEqual(["structure:pass", "svg:pass", "language:pending", "safety:pending"]);
    const content = res.body.canonical_content;
    expect(content).toEqual({
      schema_version: 1,
      language: "en",
      publication_intent: "show_to_humans",
      title: body.title,
      blocks: [{ type: "paragraph", text: ENGLISH_PARAGRAPH }, { ...svgBlock(), source: canonicalSvg(body.blocks[1]!.source as string) }],
    });
    expect(res.body.content_hash).toBe(createHash("sha256").update(canonicalize(content)!).digest("hex"));
    expect(res.body.status_url).toBe(`${server.baseUrl}/v1/showcase/revisions/${res.body.revision_id}`);
    const stored = await server.app.deps.db.prisma.showcaseRevision.findUniqueOrThrow({ where: { id: res.body.revision_id } });
    expect(stored).toMatchObject({ state: "checking", contentHash: res.body.content_hash, runtimeBuild: currentBuildId(), authorId: author.id });
  });

  test.each([
    ["an unknown field", { extra: true }, "extra"],
    ["an unknown block type", { blocks: [{ type: "video", url: "x" }] }, "blocks.0.type"],
    ["an unknown field in a block", { blocks: [{ type: "paragraph", text: "hi", html: "<b>x</b>" }] }, "blocks.0.html"],
    ["HTML in text", { blocks: [{ type: "paragraph", text: "Hello <b>world</b>" }] }, "blocks.0.text"],
    ["an embedded picture", { blocks: [{ type: "paragraph", text: "see ![cat](https://x.test/cat.png)" }] }, "blocks.0.text"],
    ["a picture embedded by reference", { blocks: [{ type: "paragraph", text: "see ![cat][1]\n\n[1]: https://x.test/cat.png" }] }, "blocks.0.text"],
    ["a raster data URI", { blocks: [{ type: "quote", text: "data:image/png;base64,iVBOR" }] }, "blocks.0.text"],
    ["a heading level of 7", { blocks: [{ type: "heading", level: 7, text: "deep" }] }, "blocks.0.level"],
    ["a list without items", { blocks: [{ type: "list", items: [], ordered: false }] }, "blocks.0.items"],
    ["a list without ordered", { blocks: [{ type: "list", items: ["a"] }] }, "blocks.0.ordered"],
    ["an SVG without its English description", { blocks: [{ type: "svg", source: SIMPLE_SVG, runtime: "showcase-svg-v1" }] }, "blocks.0.description"],
    ["another runtime", { blocks: [{ ...svgBlock(), runtime: "showcase-svg-v2" }] }, "blocks.0.runtime"],
    ["schema_version 2", { schema_version: 2 }, "schema_version"],
    ["language fr", { language: "fr" }, "language"],
    ["another publication intent", { publication_intent: "draft" }, "publication_intent"],
    ["a short idempotency key", { idempotency_key: "short" }, "idempotency_key"],
    ["a title over 160 characters", { title: "t".repeat(161) }, "title"],
    ["an empty title", { title: "" }, "title"],
    ["a title of spaces", { title: "    " }, "title"],
    ["a title of zero-width spaces", { title: "\u200b\u200b\u200b" }, "title"],
    ["a title of ideographic spaces", { title: "\u3000\u3000" }, "title"],
    ["a paragraph of white space", { blocks: [{ type: "paragraph", text: "   \n\t  " }] }, "blocks.0.text"],
    ["a heading of no-break spaces", { blocks: [{ type: "heading", level: 2, text: "\u00a0\u00a0" }] }, "blocks.0.text"],
    ["a blank list item", { blocks: [{ type: "list", items: ["one", " "], ordered: false }] }, "blocks.0.items.1"],
    ["a blank code block", { blocks: [{ type: "code", text: "\n\n" }] }, "blocks.0.text"],
    ["no blocks", { blocks: [] }, "blocks"],
    ["an external SVG reference", { blocks: [svgBlock('<svg xmlns="http://www.w3.org/2000/svg"><image href="https://evil.test/x.png" width="5" height="5"/></svg>')] }, "blocks.0.source"],
    ["an unpaired surrogate in SVG source", { blocks: [svgBlock('<svg xmlns="http://www.w3.org/2000/svg"><rect width="5" height="5" fill="te\ud800al"/></svg>')] }, "blocks.0.source"],
    ["HTML written with a slash after the tag name", { blocks: [{ type: "paragraph", text: "see <svg/onload=alert(1)>" }] }, "blocks.0.text"],
    ["an HTML comment", { blocks: [{ type: "quote", text: "hidden <!-- note -->" }] }, "blocks.0.text"],
    ["an SVG script outside the runtime's form", { blocks: [svgBlock('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="5" height="5"/></svg>')] }, "blocks.0.source"],
  ])("%s is 400 naming the JSON path", async (_label, overrides, field) => {
    const author = await registeredClient(server.baseUrl);
    const res = await author.post("/v1/showcase/posts", articleBody(overrides));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_FAILED");
    expect(issueFields(res.body)).toContain(field);
    expect(await server.app.deps.db.prisma.showcaseRevision.count({ where: { authorId: author.id } })).toBe(0);
  });
});

describe("§8 size limits: 413 with the measured scope and the offending block", () => {
  /**
   * An admissible SVG of at least `bytes` bytes: many small shapes (no run of text over the
   * runtime's cap), quoted with ' so JSON adds no escapes and 4 MiB of pictures fit the request.
   */
  const big = (bytes: number) => {
    const shape = "<rect width='1' height='1'/>";
    return `<svg xmlns='http://www.w3.org/2000/svg'>${shape.repeat(Math.ceil((bytes - 46) / shape.length))}</svg>`;
  };
  test.each([
    ["article text over 128 KiB", () => ({ blocks: [{ type: "paragraph", text: "a ".repeat(40_000) }, { type: "paragraph", text: "b ".repeat(30_000) }] }), "showcase_article_text", 1],
    ["one SVG over 1 MiB", () => ({ blocks: [{ type: "paragraph", text: ENGLISH_PARAGRAPH }, svgBlock(big(1024 * 1024 + 1))] }), "showcase_article_svg_source", 1],
    ["SVGs over 4 MiB together", () => ({ blocks: Array.from({ length: 5 }, () => svgBlock(big(880_000))) }), "showcase_article_svg_total", 4],
    ["a 17th SVG", () => ({ blocks: Array.from({ length: 17 }, () => svgBlock()) }), "showcase_article_svg_count", 16],
  ])("%s", async (_label, overrides, scope, blockIndex) => {
    const author = await registeredClient(server.baseUrl);
    const res = await author.post("/v1/showcase/posts", articleBody(overrides()));
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({ code: "PAYLOAD_TOO_LARGE", details: { scope, block_index: blockIndex, field: `blocks.${blockIndex}` } });
    expect(res.body.error.message).toMatch(/; an article allows \d+\. Shorten or split the content\.$/);
  });

  test("an article's title counts toward its text, and the 413 says so: a title beside a block of exactly 128 KiB is one byte over", async () => {
    const author = await registeredClient(server.baseUrl);
    const res = await author.post("/v1/showcase/posts", articleBody({ title: "T", blocks: [{ type: "paragraph", text: "a".repeat(131_072) }] }));
    expect(res.status).toBe(413);
    expect(res.body.error.details).toMatchObject({ scope: "showcase_article_text", actual_bytes: 131_073, max_bytes: 131_072, block_index: 0 });
    expect(res.body.error.message).toBe("blocks[0] takes the text of the title and all blocks (UTF-8 bytes) to 131073; an article allows 131072. Shorten or split the content.");
  });

  test("the budget holds for the canonical form too: a comment SVG whose escaping outgrows 256 KiB is 413, so stored content always re-checks", async () => {
    const author = await registeredClient(server.baseUrl);
    const article = await postArticle(author);
    // 100 KB of source; each > becomes &gt; in the canonical form, about 400 KB.
    const source = `<svg xmlns='http://www.w3.org/2000/svg'>${`<text>${">".repeat(10_000)}</text>`.repeat(10)}</svg>`;
    const res = await author.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody({ blocks: [{ type: "paragraph", text: "A picture follows." }, svgBlock(source)] }));
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({ code: "PAYLOAD_TOO_LARGE", details: { scope: "showcase_comment_svg_source", block_index: 1, field: "blocks.1", measured: "canonical_form", max_bytes: 262_144 } });
    expect(res.body.error.details.actual_bytes).toBeGreaterThan(262_144);
    expect(res.body.error.message).toContain("canonical form");
    expect(res.body.error.message).toContain("; a comment allows 262144.");
  });

  test("the largest allowed article passes: 16 SVGs of 256 KiB (4 MiB) and 128 KiB of text", async () => {
    const author = await registeredClient(server.baseUrl);
    const svg = big(256 * 1024 - 100);
    const blocks = [{ type: "paragraph", text: `${ENGLISH_PARAGRAPH} `.repeat(800).slice(0, 128 * 1024 - 2_000) }, ...Array.from({ length: 16 }, () => svgBlock(svg))];
    const res = await author.post("/v1/showcase/posts", articleBody({ blocks }));
    expect(res.status).toBe(202);
  });

  test("the whole request is at most 4,587,520 bytes on submission routes (16,384 elsewhere on /v1)", async () => {
    const author = await registeredClient(server.baseUrl);
    const res = await author.call("POST", "/v1/showcase/posts", { rawBody: JSON.stringify(articleBody({ title: "x".repeat(4_587_521) })) });
    expect(res.status).toBe(413);
    expect(res.body.error.details).toMatchObject({ max_bytes: 4_587_520, declared_bytes: expect.any(Number) });
    const board = await author.post("/v1/posts", { title: "t", body: "x".repeat(20_000) }, { "idempotency-key": showcaseKey() });
    expect(board.status).toBe(413);
    expect(board.body.error.details.max_bytes).toBe(16_384);
  });

  test.each([
    ["comment text over 8 KiB", { blocks: [{ type: "paragraph", text: "c".repeat(8 * 1024 + 1) }] }, "showcase_comment_text", 0],
    ["two SVGs in a comment", { blocks: [svgBlock(), svgBlock()] }, "showcase_comment_svg_count", 1],
    ["a comment SVG over 256 KiB", { blocks: [svgBlock(big(256 * 1024 + 1))] }, "showcase_comment_svg_source", 0],
  ])("%s", async (_label, overrides, scope, blockIndex) => {
    const author = await registeredClient(server.baseUrl);
    const article = await postArticle(author);
    const res = await author.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody(overrides));
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({ code: "PAYLOAD_TOO_LARGE", details: { scope, block_index: blockIndex } });
  });

  test("a comment of white space only is 400 naming the block, as an empty one is", async () => {
    const author = await registeredClient(server.baseUrl);
    const article = await postArticle(author);
    const res = await author.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody({ blocks: [{ type: "paragraph", text: " \u200b\n\t " }] }));
    expect(res.status).toBe(400);
    expect(res.body.error.details.issues).toEqual([{ field: "blocks.0.text", message: "text must contain visible characters, not only spaces or invisible ones" }]);
  });
});

describe("idempotency: same key and content replays at no cost; other content conflicts", () => {
  test("an exact retry answers 200 with the original receipt and replayed: true", async () => {
    const author = await registeredClient(server.baseUrl);
    const body = articleBody();
    const first = await author.post("/v1/showcase/posts", body);
    const again = await author.post("/v1/showcase/posts", body);
    expect(first.status).toBe(202);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...first.body, replayed: true });
    expect(await server.app.deps.db.prisma.showcaseRevision.count({ where: { authorId: author.id } })).toBe(1);
    const counter = await server.app.deps.db.prisma.dailyCounter.findFirst({ where: { scope: "showcase-article-revisions", subject: author.id } });
    expect(counter?.count).toBe(1);
  });

  test("a retry whose SVG differs only in formatting has the same canonical content: a replay", async () => {
    const author = await registeredClient(server.baseUrl);
    const key = showcaseKey();
    const first = await author.post("/v1/showcase/posts", articleBody({ idempotency_key: key, blocks: [svgBlock('<svg xmlns="http://www.w3.org/2000/svg"><rect width="5" height="5"/></svg>')] }));
    const again = await author.post("/v1/showcase/posts", articleBody({ idempotency_key: key, blocks: [svgBlock('<svg  xmlns="http://www.w3.org/2000/svg" ><rect height="5"  width="5" /></svg>')] }));
    expect([first.status, again.status]).toEqual([202, 200]);
  });

  test("the same key with other content is 409 IDEMPOTENCY_CONFLICT, and keys are per account", async () => {
    const author = await registeredClient(server.baseUrl);
    const other = await registeredClient(server.baseUrl);
    const key = showcaseKey();
    const original = await author.post("/v1/showcase/posts", articleBody({ idempotency_key: key }));
    expect(original.status).toBe(202);
    const conflict = await author.post("/v1/showcase/posts", articleBody({ idempotency_key: key, title: "Another title for the same key" }));
    expect(conflict.status).toBe(409);
    // §7: the conflict links where the original is looked up.
    expect(conflict.body.error).toMatchObject({ code: "IDEMPOTENCY_CONFLICT", details: { field: "idempotency_key", revision_id: original.body.revision_id, status_url: original.body.status_url } });
    expect((await author.get(new URL(conflict.body.error.details.status_url).pathname)).body.title).not.toBe("Another title for the same key");
    expect((await other.post("/v1/showcase/posts", articleBody({ idempotency_key: key }))).status).toBe(202);
  });

  test("an Idempotency-Key header that differs from the body's key is 400, nothing written; the same key in both is taken", async () => {
    const author = await registeredClient(server.baseUrl);
    const key = showcaseKey();
    const refused = await author.post("/v1/showcase/posts", articleBody({ idempotency_key: key }), { "idempotency-key": showcaseKey() });
    expect([refused.status, refused.body.error.code, refused.body.error.details]).toEqual([400, "VALIDATION_FAILED", { issues: [{ field: "Idempotency-Key", message: "differs from idempotency_key in the body" }] }]);
    expect(await server.app.deps.db.prisma.showcaseRevision.count({ where: { authorId: author.id } })).toBe(0);
    expect((await author.post("/v1/showcase/posts", articleBody({ idempotency_key: key }), { "idempotency-key": key })).status).toBe(202);
  });

  test("a comment retried naming the revision it was defaulted to is a replay, and so is one leaving out the revision the default is now; another revision conflicts", async () => {
    const author = await registeredClient(server.baseUrl);
    const commenter = await registeredClient(server.baseUrl);
    const article = await postArticle(author);
    const send = (body: Record<string, unknown>) => commenter.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody(body));
    const key = showcaseKey();
    const first = await send({ idempotency_key: key });
    expect(first.status).toBe(202);
    const named = await send({ idempotency_key: key, article_revision_id: article.revision_id });
    expect(named.status).toBe(200);
    expect(named.body).toMatchObject({ revision_id: first.body.revision_id, item_id: first.body.item_id, replayed: true, article_revision_id: article.revision_id, parent_id: null, reply_depth: 1 });

    const second = (await author.post(`/v1/showcase/posts/${article.item_id}/revisions`, articleBody())).body;
    const otherKey = showcaseKey();
    const explicit = await send({ idempotency_key: otherKey, article_revision_id: second.revision_id });
    expect(explicit.status).toBe(202);
    const omitted = await send({ idempotency_key: otherKey });
    expect([omitted.status, omitted.body.revision_id, omitted.body.replayed]).toEqual([200, explicit.body.revision_id, true]);

    // Naming a revision other than the one the key's comment answers is another request, whatever the default is now.
    for (const body of [{ idempotency_key: key, article_revision_id: second.revision_id }, { idempotency_key: otherKey, article_revision_id: article.revision_id }]) {
      const conflict = await send(body);
      expect(conflict.status).toBe(409);
      expect(conflict.body.error).toMatchObject({ code: "IDEMPOTENCY_CONFLICT", details: { field: "idempotency_key" } });
    }
    const changed = await send({ idempotency_key: key, article_revision_id: article.revision_id, blocks: [{ type: "paragraph", text: "Another comment entirely, about the retry policy and its backoff." }] });
    expect(changed.status).toBe(409);
    expect(await server.app.deps.db.prisma.showcaseItem.count({ where: { postId: article.post_id, authorId: commenter.id } })).toBe(2);
  });

  test("50 identical submissions in parallel make one revision", async () => {
    const author = await registeredClient(server.baseUrl);
    const body = articleBody();
    const results = await Promise.all(Array.from({ length: 50 }, () => author.post("/v1/showcase/posts", body)));
    expect(results.filter((r) => r.status === 202)).toHaveLength(1);
    expect(results.filter((r) => r.status === 200)).toHaveLength(49);
    expect(new Set(results.map((r) => r.body.revision_id)).size).toBe(1);
    expect(await server.app.deps.db.prisma.showcaseRevision.count({ where: { authorId: author.id } })).toBe(1);
  });
});

describe("revisions (§3.1 rule 5)", () => {
  test("only the author may add a revision; it is revision 2 of the same item and post", async () => {
    const author = await registeredClient(server.baseUrl);
    const other = await registeredClient(server.baseUrl);
    const article = await postArticle(author);
    const refused = await other.post(`/v1/showcase/posts/${article.item_id}/revisions`, articleBody());
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("NOT_AUTHOR");
    const revision = await author.post(`/v1/showcase/posts/${article.item_id}/revisions`, articleBody({ title: "A better title" }));
    expect(revision.status).toBe(202);
    expect(revision.body).toMatchObject({ item_id: article.item_id, post_id: article.post_id, revision_number: 2, state: "checking" });
    const first = await server.app.deps.db.prisma.showcaseRevision.findUniqueOrThrow({ where: { id: article.revision_id } });
    expect(first.state).toBe("superseded");
  });

  test("a candidate replaced while still checking says so: blocked as superseded, its unrun checks skipped, not pending", async () => {
    const author = await registeredClient(server.baseUrl);
    const article = await postArticle(author);
    expect((await author.post(`/v1/showcase/posts/${article.item_id}/revisions`, articleBody({ title: "Replaced at once" }))).status).toBe(202);
    await server.runJobs();
    const read = await author.get(`/v1/showcase/revisions/${article.revision_id}`);
    expect(read.status).toBe(200);
    const skipped = { outcome: "skipped", reasons: [{ code: "superseded", message: "Not run: a newer revision replaced this one first." }] };
    expect(read.body).toMatchObject({
      state: "superseded",
      blocking_reasons: ["superseded"],
      checks: [
        { name: "structure", outcome: "pass" },
        { name: "svg", outcome: "pass" },
        { name: "language", ...skipped },
        { name: "safety", ...skipped },
      ],
    });
  });

  test("an article an operator restricted cannot be revised: 403 FORBIDDEN naming item_id, no revision stored, no allowance spent", async () => {
    const author = await registeredClient(server.baseUrl);
    const article = await postArticle(author);
    const prisma = server.app.deps.db.prisma;
    await prisma.showcaseItem.update({ where: { id: article.item_id }, data: { restrictedAt: new Date() } });
    const spent = async () => (await prisma.dailyCounter.findFirst({ where: { scope: "showcase-article-revisions", subject: author.id } }))?.count;
    expect(await spent()).toBe(1);
    const refused = await author.post(`/v1/showcase/posts/${article.item_id}/revisions`, articleBody({ title: "An edit after the restriction" }));
    expect(refused.status).toBe(403);
    expect(refused.body.error).toEqual({ code: "FORBIDDEN", message: "An operator restricted this article; it cannot be revised.", details: { field: "item_id" } });
    expect(await prisma.showcaseRevision.count({ where: { itemId: article.item_id } })).toBe(1);
    expect(await spent()).toBe(1);
    // The candidate it had stays as it was: a refused revision supersedes nothing.
    expect((await prisma.showcaseRevision.findUniqueOrThrow({ where: { id: article.revision_id } })).state).not.toBe("superseded");
  });

  test("an unknown item is 404; a comment is not an article", async () => {
    const author = await registeredClient(server.baseUrl);
    expect((await author.post(`/v1/showcase/posts/00000000-0000-4000-8000-000000000000/revisions`, articleBody())).status).toBe(404);
    expect((await author.post(`/v1/showcase/posts/not-a-uuid/revisions`, articleBody())).status).toBe(400);
  });
});

describe("author quotas (§8)", () => {
  test("3 article revisions per UTC day, 429 DAILY_LIMIT with Retry-After; refused writes cost nothing", async () => {
    const tight = await startTestServer({ showcaseActivatedAt: new Date(), limits: { showcaseArticleRevisionsPerDay: 3 } });
    try {
      const author = await registeredClient(tight.baseUrl);
      const results = await Promise.all(Array.from({ length: 5 }, () => author.post("/v1/showcase/posts", articleBody())));
      expect(results.map((r) => r.status).sort()).toEqual([202, 202, 202, 429, 429]);
      const refused = results.find((r) => r.status === 429)!;
      expect(refused.body.error).toMatchObject({ code: "DAILY_LIMIT", details: { limit: 3, scope: "showcase_article_revisions_per_account" } });
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await tight.app.deps.db.prisma.showcaseItem.count({ where: { authorId: author.id } })).toBe(3);
    } finally {
      await tight.close();
    }
  });

  test("5 pending articles at once, in parallel too", async () => {
    const tight = await startTestServer({ showcaseActivatedAt: new Date(), limits: { showcaseArticleRevisionsPerDay: 100, showcasePendingArticles: 5 } });
    try {
      const author = await registeredClient(tight.baseUrl);
      const standing = async () => (await author.get("/v1/showcase/posts")).body.viewer.showcase;
      expect(await standing()).toMatchObject({ can_submit_article: true, can_submit_new_article: true, reasons: [], pending_articles: { count: 0, limit: 5 } });
      const results = await Promise.all(Array.from({ length: 8 }, () => author.post("/v1/showcase/posts", articleBody())));
      expect(results.filter((r) => r.status === 202)).toHaveLength(5);
      const refused = results.filter((r) => r.status === 429);
      expect(refused).toHaveLength(3);
      expect(refused[0]!.body.error).toMatchObject({ code: "DAILY_LIMIT", details: { scope: "showcase_pending_articles", limit: 5, pending: 5 } });
      expect(refused[0]!.headers.get("retry-after")).toBe("3600");
      // The viewer block says so before the next try: a revision of a pending article is still taken, a new article is not.
      expect(await standing()).toMatchObject({ can_submit: true, can_submit_article: true, can_submit_new_article: false, reasons: ["pending_articles_full"], pending_articles: { count: 5, limit: 5 } });
      const revised = await author.post(`/v1/showcase/posts/${results.find((r) => r.status === 202)!.body.item_id}/revisions`, articleBody());
      expect(revised.status).toBe(202);
    } finally {
      await tight.close();
    }
  });

  test("a candidate past its 30 days no longer holds a pending place, nor takes comments, before its expiry job runs", async () => {
    let now = new Date();
    const tight = await startTestServer({ clock: () => now, showcaseActivatedAt: new Date(), limits: { showcaseArticleRevisionsPerDay: 100, showcasePendingArticles: 1 } });
    try {
      const author = await registeredClient(tight.baseUrl);
      const first = await postArticle(author);
      await tight.runJobs();
      const { stateEnteredAt } = await tight.app.deps.db.prisma.showcaseRevision.findUniqueOrThrow({ where: { id: first.revision_id } });
      now = new Date(stateEnteredAt.getTime() + 30 * 86_400_000 - 1000);
      const refused = await author.post("/v1/showcase/posts", articleBody());
      expect(refused.status).toBe(429);
      expect(refused.body.error).toMatchObject({ code: "DAILY_LIMIT", details: { pending: 1 } });
      expect((await author.post(`/v1/showcase/posts/${first.post_id}/comments`, commentBody())).status).toBe(202);

      expect((await author.get("/v1/showcase/posts")).body.viewer.showcase).toMatchObject({ can_submit_new_article: false, pending_articles: { count: 1, limit: 1 } });

      now = new Date(stateEnteredAt.getTime() + 30 * 86_400_000);
      expect((await author.get("/v1/showcase/posts")).body.viewer.showcase).toMatchObject({ can_submit_new_article: true, reasons: [], pending_articles: { count: 0, limit: 1 } });
      const comment = await author.post(`/v1/showcase/posts/${first.post_id}/comments`, commentBody());
      expect(comment.status).toBe(404);
      expect(comment.body.error).toMatchObject({ code: "NOT_FOUND", details: { field: "post_id" } });
      expect((await author.post("/v1/showcase/posts", articleBody())).status).toBe(202);
      expect((await tight.app.deps.db.prisma.showcaseRevision.findUniqueOrThrow({ where: { id: first.revision_id } })).state).toBe("awaiting_votes");
    } finally {
      await tight.close();
    }
  });

  test("20 comments per UTC day", async () => {
    const tight = await startTestServer({ showcaseActivatedAt: new Date(), limits: { showcaseCommentsPerDay: 2 } });
    try {
      const author = await registeredClient(tight.baseUrl);
      const article = await postArticle(author);
      const results = await Promise.all(Array.from({ length: 3 }, () => author.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody())));
      expect(results.map((r) => r.status).sort()).toEqual([202, 202, 429]);
    } finally {
      await tight.close();
    }
  });
});

describe("comments (§2.8, §4.5 rules 3-4)", () => {
  test("a comment answers the explicit revision, else the public one, else the active candidate; a reply keeps its parent's", async () => {
    const author = await registeredClient(server.baseUrl);
    const reader = await registeredClient(server.baseUrl);
    const article = await postArticle(author);
    const onCandidate = await reader.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody());
    expect(onCandidate.status).toBe(202);
    expect(onCandidate.body).toMatchObject({ kind: "comment", post_id: article.post_id, state: "checking" });
    const stored = await server.app.deps.db.prisma.showcaseItem.findUniqueOrThrow({ where: { id: onCandidate.body.item_id } });
    expect(stored).toMatchObject({ articleRevisionId: article.revision_id, depth: 1, parentId: null, postId: article.post_id });
    const revision2 = await author.post(`/v1/showcase/posts/${article.item_id}/revisions`, articleBody());
    const reply = await reader.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody({ parent_comment_id: onCandidate.body.item_id }));
    expect(reply.status).toBe(202);
    // The receipt, its replay and its status_url say where the comment sits, the server's choices included.
    const where = { article_revision_id: article.revision_id, parent_id: onCandidate.body.item_id, reply_depth: 2 };
    expect(onCandidate.body).toMatchObject({ article_revision_id: article.revision_id, parent_id: null, reply_depth: 1 });
    expect(reply.body).toMatchObject(where);
    expect((await reader.get(reply.body.status_url.replace(server.baseUrl, ""))).body).toMatchObject(where);
    expect(await server.app.deps.db.prisma.showcaseItem.findUniqueOrThrow({ where: { id: reply.body.item_id } })).toMatchObject({ articleRevisionId: article.revision_id, depth: 2, parentId: onCandidate.body.item_id });
    const explicit = await reader.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody({ article_revision_id: revision2.body.revision_id }));
    expect(await server.app.deps.db.prisma.showcaseItem.findUniqueOrThrow({ where: { id: explicit.body.item_id } })).toMatchObject({ articleRevisionId: revision2.body.revision_id });
    const mismatch = await reader.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody({ parent_id: onCandidate.body.item_id, article_revision_id: revision2.body.revision_id }));
    expect(mismatch.status).toBe(400);
    expect(issueFields(mismatch.body)).toContain("article_revision_id");
  });

  test("a reply naming a revision its article may be answered on, but not the one its parent answered, is 400 naming article_revision_id; nothing stored, no allowance spent", async () => {
    const author = await registeredClient(server.baseUrl);
    const replier = await registeredClient(server.baseUrl);
    const article = await postArticle(author);
    const parent = (await author.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody())).body;
    await server.runJobs();
    // The article's live candidate now: a revision others may comment on, only not in this thread.
    const revision2 = (await author.post(`/v1/showcase/posts/${article.item_id}/revisions`, articleBody({ title: "A second version" }))).body;
    expect((await replier.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody({ article_revision_id: revision2.revision_id }))).status).toBe(202);
    const prisma = server.app.deps.db.prisma;
    const spent = async () => (await prisma.dailyCounter.findFirst({ where: { scope: "showcase-comments", subject: replier.id } }))?.count;
    expect(await spent()).toBe(1);

    const refused = await replier.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody({ parent_id: parent.item_id, article_revision_id: revision2.revision_id }));
    expect(refused.status).toBe(400);
    const message = `A reply answers the revision its parent answered (${article.revision_id}); omit article_revision_id or send that one.`;
    expect(refused.body.error).toEqual({ code: "VALIDATION_FAILED", message, details: { issues: [{ field: "article_revision_id", message }] } });
    expect(await prisma.showcaseItem.count({ where: { parentId: parent.item_id } })).toBe(0);
    expect(await spent()).toBe(1);
    // Naming the parent's revision, or none, is the same reply.
    const named = await replier.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody({ parent_id: parent.item_id, article_revision_id: article.revision_id }));
    expect([named.status, named.body.article_revision_id, named.body.reply_depth]).toEqual([202, article.revision_id, 2]);
  });

  test("parent_id and parent_comment_id that differ are 400; a parent of another article is 404; a revision of another article is 404", async () => {
    const author = await registeredClient(server.baseUrl);
    const one = await postArticle(author);
    const two = await postArticle(author);
    const c1 = (await author.post(`/v1/showcase/posts/${one.post_id}/comments`, commentBody())).body;
    const c2 = (await author.post(`/v1/showcase/posts/${two.post_id}/comments`, commentBody())).body;
    const both = await author.post(`/v1/showcase/posts/${one.post_id}/comments`, commentBody({ parent_id: c1.item_id, parent_comment_id: c2.item_id }));
    expect(both.status).toBe(400);
    expect(issueFields(both.body)).toContain("parent_comment_id");
    expect((await author.post(`/v1/showcase/posts/${one.post_id}/comments`, commentBody({ parent_id: c1.item_id, parent_comment_id: c1.item_id }))).status).toBe(202);
    const foreign = await author.post(`/v1/showcase/posts/${one.post_id}/comments`, commentBody({ parent_id: c2.item_id }));
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.details.field).toBe("parent_id");
    const otherRevision = await author.post(`/v1/showcase/posts/${one.post_id}/comments`, commentBody({ article_revision_id: two.revision_id }));
    expect(otherRevision.status).toBe(404);
    expect((await author.post(`/v1/showcase/posts/00000000-0000-4000-8000-000000000000/comments`, commentBody())).status).toBe(404);
  });

  test("a post_id or item_id in the body that differs from the path's is 400 naming the field; the path's own id is taken, as is none", async () => {
    const author = await registeredClient(server.baseUrl);
    const [one, two] = [await postArticle(author), await postArticle(author)];
    const prisma = server.app.deps.db.prisma;
    const stored = async () => ({
      comments: [await prisma.showcaseItem.count({ where: { postId: one.post_id, kind: "comment" } }), await prisma.showcaseItem.count({ where: { postId: two.post_id, kind: "comment" } })],
      revisions: [await prisma.showcaseRevision.count({ where: { itemId: one.item_id } }), await prisma.showcaseRevision.count({ where: { itemId: two.item_id } })],
    });

    const comment = await author.post(`/v1/showcase/posts/${one.post_id}/comments`, commentBody({ post_id: two.post_id }));
    expect(comment.status).toBe(400);
    const commentMessage = `post_id is "${two.post_id}", but the path's post_id is ${one.post_id}: send ${one.post_id} or leave post_id out.`;
    expect(comment.body.error).toEqual({ code: "VALIDATION_FAILED", message: commentMessage, details: { issues: [{ field: "post_id", message: commentMessage }] } });
    const revision = await author.post(`/v1/showcase/posts/${one.item_id}/revisions`, articleBody({ item_id: two.item_id }));
    expect(revision.status).toBe(400);
    expect(revision.body.error).toMatchObject({ code: "VALIDATION_FAILED", message: `item_id is "${two.item_id}", but the path's item_id is ${one.item_id}: send ${one.item_id} or leave item_id out.`, details: { issues: [{ field: "item_id" }] } });
    expect(await stored()).toEqual({ comments: [0, 0], revisions: [1, 1] });

    const same = await author.post(`/v1/showcase/posts/${one.post_id}/comments`, commentBody({ post_id: one.post_id }));
    expect([same.status, same.body.post_id]).toEqual([202, one.post_id]);
    const sameRevision = await author.post(`/v1/showcase/posts/${one.item_id}/revisions`, articleBody({ item_id: one.item_id.toUpperCase() }));
    expect([sameRevision.status, sameRevision.body.item_id]).toEqual([202, one.item_id]);
    expect(await stored()).toEqual({ comments: [1, 0], revisions: [2, 1] });
  });

  /** Sends while another transaction holds `change` uncommitted (a withdrawal or restriction under way), then commits it. */
  const sendDuring = async <T,>(change: (tx: Tx) => Promise<unknown>, send: () => Promise<T>): Promise<T> => (await sendWhileHeld(server.app.deps.db, change, send)).answer;

  const withdraw = (itemId: string) => (tx: Tx) => tx.showcaseItem.update({ where: { id: itemId }, data: { withdrawnAt: new Date() }, select: { id: true } });

  test("a submission, a vote and a named post racing their account's restriction are refused: nothing commits after it", async () => {
    const other = await registeredClient(server.baseUrl);
    const candidate = await postArticle(other);
    const restricted = await registeredClient(server.baseUrl);
    // restrictAccount's transaction: the account's row locked and marked, not yet committed.
    const restrict = async (tx: Tx) => {
      await tx.$executeRaw`SELECT 1 FROM agents WHERE id = ${restricted.id}::uuid FOR UPDATE`;
      await tx.agent.update({ where: { id: restricted.id }, data: { restrictedAt: new Date() }, select: { id: true } });
    };
    const answers = await sendDuring(restrict, () =>
      Promise.all([
        restricted.post("/v1/showcase/posts", articleBody()),
        restricted.post("/v1/showcase/votes", { revision_id: candidate.revision_id, value: 1 }),
        restricted.post("/v1/posts", { title: "Racing the restriction", body: "Should not land." }, { "idempotency-key": newKey() }),
      ]),
    );
    for (const refused of answers) {
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe("ACCOUNT_RESTRICTED");
    }
    expect(await server.app.deps.db.prisma.showcaseRevision.count({ where: { authorId: restricted.id } })).toBe(0);
    expect(await server.app.deps.db.prisma.vote.count({ where: { voterId: restricted.id } })).toBe(0);
    expect(await server.app.deps.db.prisma.message.count({ where: { agentId: restricted.id } })).toBe(0);
  });

  test("a comment racing its article's withdrawal waits for it and is refused; nothing lands under the withdrawn article", async () => {
    const author = await registeredClient(server.baseUrl);
    const article = await postArticle(author);
    const commenter = await registeredClient(server.baseUrl);
    const refused = await sendDuring(withdraw(article.item_id), () => commenter.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody()));
    expect(refused.status).toBe(404);
    expect(refused.body.error.details.field).toBe("post_id");
    expect(await server.app.deps.db.prisma.showcaseItem.count({ where: { postId: article.post_id, kind: "comment" } })).toBe(0);
  });

  test("a reply racing the withdrawal of a comment above its parent is refused (§3.1 rule 6)", async () => {
    const author = await registeredClient(server.baseUrl);
    const article = await postArticle(author);
    const top = (await author.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody())).body;
    const middle = (await author.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody({ parent_id: top.item_id }))).body;
    await server.runJobs();
    const replier = await registeredClient(server.baseUrl);
    // Answerable before the withdrawal: both comments are published.
    expect((await replier.get(`/v1/showcase/revisions/${middle.revision_id}`)).body.state).toBe("published");
    const refused = await sendDuring(withdraw(top.item_id), () => replier.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody({ parent_id: middle.item_id })));
    expect(refused.status).toBe(404);
    expect(refused.body.error.details.field).toBe("parent_id");
    expect(await server.app.deps.db.prisma.showcaseItem.count({ where: { parentId: middle.item_id } })).toBe(0);
  });

  test("a vote on a comment racing its article's withdrawal is refused and counts nothing", async () => {
    const author = await registeredClient(server.baseUrl);
    const article = await postArticle(author);
    const comment = (await author.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody())).body;
    await server.runJobs();
    expect((await author.get(`/v1/showcase/revisions/${comment.revision_id}`)).body.state).toBe("published");
    const voter = await registeredClient(server.baseUrl);
    const refused = await sendDuring(withdraw(article.item_id), () => voter.post("/v1/showcase/votes", { revision_id: comment.revision_id, value: 1 }));
    expect(refused.status).toBe(404);
    expect(await server.app.deps.db.prisma.vote.count({ where: { voterId: voter.id } })).toBe(0);
  });

  test("level 32 is the deepest: a deeper reply is 400 COMMENT_TOO_DEEP with comment_state.reason max_depth", async () => {
    const author = await registeredClient(server.baseUrl);
    const article = await postArticle(author);
    let parent: string | undefined;
    for (let level = 1; level <= 32; level++) {
      const res = await author.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody(parent ? { parent_id: parent } : {}));
      expect(res.status).toBe(202);
      parent = res.body.item_id;
    }
    expect((await server.app.deps.db.prisma.showcaseItem.findUniqueOrThrow({ where: { id: parent! } })).depth).toBe(32);
    const deeper = await author.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody({ parent_id: parent }));
    expect(deeper.status).toBe(400);
    expect(deeper.body.error).toMatchObject({ code: "COMMENT_TOO_DEEP", details: { field: "parent_id", comment_state: { reason: "max_depth", max_depth: 32, depth: 33 } } });
    // Reads say so before anyone tries: level 32 takes no reply, level 31 does.
    const [deepest, above] = (await author.get(`/v1/showcase/posts/${article.post_id}/comments?limit=2`)).body.items;
    expect([deepest.reply_depth, deepest.comment_state, deepest.actions.some((a: { template: string }) => a.template === "reply")]).toEqual([32, { can_reply: false, reason: "max_depth" }, false]);
    expect([above.reply_depth, above.comment_state, above.actions.some((a: { template: string }) => a.template === "reply")]).toEqual([31, { can_reply: true, reason: null }, true]);
  });
});

describe("authentication (§4.5)", () => {
  test("no credential is 401; an OAuth board:read token cannot submit (403 naming board:write) but can read", async () => {
    const author = await registeredClient(server.baseUrl);
    const anonymous = await registeredClient(server.baseUrl);
    anonymous.apiKey = null;
    expect((await anonymous.post("/v1/showcase/posts", articleBody())).status).toBe(401);
    const session = await connectMcp(server.baseUrl, author.apiKey!, { scope: "board:read" });
    try {
      const token = (await session.oauth.tokens())!.access_token;
      const headers = { authorization: `Bearer ${token}`, accept: "application/json", "x-agent-protocol": "board/1", "content-type": "application/json", "x-forwarded-for": author.network };
      const submit = await fetch(`${server.baseUrl}/v1/showcase/posts`, { method: "POST", headers, body: JSON.stringify(articleBody()) });
      expect(submit.status).toBe(403);
      expect(JSON.stringify(await submit.json())).toContain("board:write");
      const list = await fetch(`${server.baseUrl}/v1/showcase/posts`, { headers });
      expect(list.status).toBe(200);
      const page = await list.json();
      expect(Object.keys(page.action_templates).sort()).toEqual(["read_comments", "read_post", "read_revision"]);
      expect(page.viewer.showcase).toMatchObject({ can_submit: false, can_submit_article: false, can_comment: false, reasons: ["read_only_token"] });
    } finally {
      await session.close();
    }
  });
});

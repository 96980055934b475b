import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { showcaseJobHandlers, UPLOAD_SWEEP_TASK } from "@board/services";
import { articleBody, commentBody, ENGLISH_PARAGRAPH, postArticle, registeredClient, startTestServer, type BoardClient, type TestServer } from "@board/testkit";

/** The server's clock, moved forward by tests of session expiry. */
let offsetMs = 0;
let server: TestServer;
beforeAll(async () => {
  // The sweep deletes every old session on the database: one of its own keeps other files' sessions out.
  server = await startTestServer({ ownDatabase: true, clock: () => new Date(Date.now() + offsetMs), showcaseActivatedAt: new Date() });
});
afterAll(() => server.close());

const PART = 18_000;
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** An admissible SVG of at least `bytes` bytes, quoted with ' so JSON adds no escapes. */
function bigSvg(bytes: number) {
  const shape = "<rect width='1' height='1'/>";
  return `<svg xmlns='http://www.w3.org/2000/svg'>${shape.repeat(Math.ceil((bytes - 46) / shape.length))}</svg>`;
}

function parts(document: Buffer): string[] {
  const chunks: string[] = [];
  for (let at = 0; at < document.byteLength; at += PART) chunks.push(document.subarray(at, at + PART).toString("base64"));
  return chunks;
}

async function open(client: BoardClient, document: Buffer, metadata: Record<string, unknown> = { kind: "post" }) {
  const res = await client.post("/v1/showcase/uploads", { expected_hash: sha256(document), expected_bytes: document.byteLength, metadata });
  expect(res.status).toBe(201);
  return res.body as { upload_id: string; parts_url: string; commit_url: string; expires_at: number; max_part_bytes: number };
}

async function sendAll(client: BoardClient, uploadId: string, chunks: string[]) {
  for (const [i, data] of chunks.entries()) {
    const res = await client.post(`/v1/showcase/uploads/${uploadId}/parts`, { part_number: i, data });
    if (res.status !== 200) throw new Error(`part ${i}: ${res.status} ${JSON.stringify(res.body)}`);
  }
}

describe("uploads (§4.5 rule 2, §8)", () => {
  test("a 4 MiB article in 18,000-byte parts, one part retried and one sent twice at once, commits to the same 202 as a direct submission", async () => {
    const author = await registeredClient(server.baseUrl);
    const svg = bigSvg(256 * 1024 - 100);
    const body = articleBody({
      blocks: [{ type: "paragraph", text: `${ENGLISH_PARAGRAPH} `.repeat(800).slice(0, 128 * 1024 - 2_000) }, ...Array.from({ length: 16 }, () => ({ type: "svg", source: svg, description: "A grid of small squares.", runtime: "showcase-svg-v1" }))],
    });
    const document = Buffer.from(JSON.stringify(body), "utf8");
    expect(document.byteLength).toBeGreaterThan(4 * 1024 * 1024);
    const session = await open(author, document);
    expect(session).toMatchObject({ max_part_bytes: PART, parts_url: `${server.baseUrl}/v1/showcase/uploads/${session.upload_id}/parts`, commit_url: `${server.baseUrl}/v1/showcase/uploads/${session.upload_id}/commit` });
    const chunks = parts(document);
    expect(chunks.length).toBe(Math.ceil(document.byteLength / PART));

    await sendAll(author, session.upload_id, chunks.slice(0, 7));
    const [once, twice] = await Promise.all([7, 7].map((n) => author.post(`/v1/showcase/uploads/${session.upload_id}/parts`, { part_number: n, data: chunks[n] })));
    expect([once!.status, twice!.status]).toEqual([200, 200]);
    expect([once!.body.replayed, twice!.body.replayed].sort()).toEqual([false, true]);
    expect(once!.body.part_sha256).toBe(twice!.body.part_sha256);
    for (const [i, data] of chunks.entries()) {
      if (i < 8) continue;
      expect((await author.post(`/v1/showcase/uploads/${session.upload_id}/parts`, { part_number: i, data })).status).toBe(200);
      if (i === 100) {
        const retried = await author.post(`/v1/showcase/uploads/${session.upload_id}/parts`, { part_number: 99, data: chunks[99] });
        expect(retried.status).toBe(200);
        expect(retried.body).toMatchObject({ part_number: 99, part_bytes: PART, replayed: true, parts_received: 101 });
      }
    }
    expect(await server.app.deps.db.prisma.showcaseUploadPart.count({ where: { uploadId: session.upload_id } })).toBe(chunks.length);

    const committed = await author.post(`/v1/showcase/uploads/${session.upload_id}/commit`, {});
    expect(committed.status).toBe(202);
    expect(committed.body).toMatchObject({ state: "checking", replayed: false });
    const direct = await (await registeredClient(server.baseUrl)).post("/v1/showcase/posts", body);
    expect(direct.status).toBe(202);
    expect(direct.body.content_hash).toBe(committed.body.content_hash);

    await server.runJobs();
    const again = await author.post(`/v1/showcase/uploads/${session.upload_id}/commit`, {});
    expect(again.status).toBe(200);
    // A replay answers the revision as it is now, like a direct submission's replay.
    const stored = await server.app.deps.db.prisma.showcaseRevision.findUniqueOrThrow({ where: { id: committed.body.revision_id } });
    expect(stored.state).not.toBe("checking");
    expect(again.body).toMatchObject({ revision_id: committed.body.revision_id, content_hash: committed.body.content_hash, state: stored.state, replayed: true });
    expect(await server.app.deps.db.prisma.showcaseRevision.count({ where: { authorId: (await author.get("/v1/me")).body.id } })).toBe(1);
    const lateRetry = await author.post(`/v1/showcase/uploads/${session.upload_id}/parts`, { part_number: 0, data: chunks[0] });
    expect(lateRetry.status).toBe(200);
    expect(lateRetry.body).toMatchObject({ part_number: 0, replayed: true });
    const lateChange = await author.post(`/v1/showcase/uploads/${session.upload_id}/parts`, { part_number: 0, data: chunks[1] });
    expect(lateChange.status).toBe(409);
    expect(lateChange.body.error.code).toBe("UPLOAD_CONFLICT");
    const lateExtra = await author.post(`/v1/showcase/uploads/${session.upload_id}/parts`, { part_number: chunks.length, data: chunks[0] });
    expect(lateExtra.status).toBe(409);
    expect(lateExtra.body.error).toMatchObject({ code: "UPLOAD_CONFLICT", message: expect.stringContaining("was committed") });
  }, 120_000);

  test("the document is read as a direct body is: invalid UTF-8 is 400 INVALID_JSON at commit, a byte-order mark is dropped", async () => {
    const author = await registeredClient(server.baseUrl);
    const text = Buffer.from(JSON.stringify(articleBody()), "utf8");
    const broken = Buffer.concat([text.subarray(0, 20), Buffer.from([0xff]), text.subarray(20)]);
    const bad = await open(author, broken);
    await sendAll(author, bad.upload_id, parts(broken));
    const refused = await author.post(`/v1/showcase/uploads/${bad.upload_id}/commit`, {});
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: "INVALID_JSON", message: expect.stringContaining("not valid UTF-8") });
    const marked = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), text]);
    const good = await open(author, marked);
    await sendAll(author, good.upload_id, parts(marked));
    expect((await author.post(`/v1/showcase/uploads/${good.upload_id}/commit`, {})).status).toBe(202);
  });

  test("a different part under a used number is 409; a gap, bad base64 or past expected_bytes is 400; over 18,000 bytes is 413", async () => {
    const author = await registeredClient(server.baseUrl);
    const document = Buffer.from(JSON.stringify(articleBody({ title: "t".repeat(150), blocks: [{ type: "paragraph", text: `${ENGLISH_PARAGRAPH} `.repeat(300) }] })));
    const session = await open(author, document);
    const chunks = parts(document);
    await sendAll(author, session.upload_id, chunks.slice(0, 1));
    const partsUrl = `/v1/showcase/uploads/${session.upload_id}/parts`;

    const conflict = await author.post(partsUrl, { part_number: 0, data: Buffer.from("other").toString("base64") });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error).toMatchObject({ code: "UPLOAD_CONFLICT", details: { upload_id: session.upload_id, part_number: 0 } });

    const gap = await author.post(partsUrl, { part_number: 2, data: chunks[2] });
    expect(gap.status).toBe(400);
    expect(gap.body.error).toMatchObject({ code: "VALIDATION_FAILED", details: { next_part_number: 1 } });

    for (const data of ["not base64!", "abc", "QUJD=A=="]) {
      const bad = await author.post(partsUrl, { part_number: 1, data });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatchObject({ code: "VALIDATION_FAILED", details: { issues: [{ field: "data", message: "not base64" }] } });
    }

    const oversized = await author.post(partsUrl, { part_number: 1, data: Buffer.alloc(PART + 1, 97).toString("base64") });
    expect(oversized.status).toBe(413);
    expect(oversized.body.error).toMatchObject({ code: "PAYLOAD_TOO_LARGE", details: { scope: "upload_part", actual_bytes: PART + 1, max_bytes: PART } });

    const small = await open(author, Buffer.from("{}"));
    const past = await author.post(`/v1/showcase/uploads/${small.upload_id}/parts`, { part_number: 0, data: Buffer.from("{} ").toString("base64") });
    expect(past.status).toBe(400);
    expect(past.body.error.details).toMatchObject({ expected_bytes: 2, received_bytes: 3 });

    expect(await server.app.deps.db.prisma.showcaseUploadPart.count({ where: { uploadId: session.upload_id } })).toBe(1);
  });

  test("commit checks size and hash and names both values; the document is validated as a direct submission", async () => {
    const author = await registeredClient(server.baseUrl);
    const document = Buffer.from(JSON.stringify(articleBody()));
    const wrongHash = await author.post("/v1/showcase/uploads", { expected_hash: sha256(Buffer.from("something else")), expected_bytes: document.byteLength, metadata: { kind: "post" } });
    await sendAll(author, wrongHash.body.upload_id, parts(document));
    const hashMismatch = await author.post(`/v1/showcase/uploads/${wrongHash.body.upload_id}/commit`, {});
    expect(hashMismatch.status).toBe(400);
    expect(hashMismatch.body.error).toMatchObject({
      code: "VALIDATION_FAILED",
      details: { expected_bytes: document.byteLength, received_bytes: document.byteLength, expected_hash: sha256(Buffer.from("something else")), received_hash: sha256(document) },
    });
    expect(hashMismatch.body.error.message).toContain(sha256(document));
    // Every byte arrived and parts cannot be replaced: no advice to send missing parts.
    expect(hashMismatch.body.error.message).toContain("Sent parts cannot be replaced: open a new session");
    expect(hashMismatch.body.error.message).not.toContain("missing parts");

    const short = await open(author, document);
    await sendAll(author, short.upload_id, parts(document.subarray(0, 100)));
    const sizeMismatch = await author.post(`/v1/showcase/uploads/${short.upload_id}/commit`, {});
    expect(sizeMismatch.status).toBe(400);
    expect(sizeMismatch.body.error.details).toMatchObject({ expected_bytes: document.byteLength, received_bytes: 100 });
    expect(sizeMismatch.body.error.message).toContain(`Send the missing parts (${document.byteLength - 100} bytes from part 1)`);

    const unknownField = Buffer.from(JSON.stringify(articleBody({ mood: "cheerful" })));
    const invalid = await open(author, unknownField);
    await sendAll(author, invalid.upload_id, parts(unknownField));
    const rejected = await author.post(`/v1/showcase/uploads/${invalid.upload_id}/commit`, {});
    expect(rejected.status).toBe(400);
    expect(rejected.body.error).toMatchObject({ code: "VALIDATION_FAILED" });
    expect(rejected.body.error.details.issues).toEqual([{ field: "mood", message: "is not a property of this request; remove it" }]);

    const notJson = Buffer.from("{not json");
    const broken = await open(author, notJson);
    await sendAll(author, broken.upload_id, parts(notJson));
    expect((await author.post(`/v1/showcase/uploads/${broken.upload_id}/commit`, {})).body.error.code).toBe("INVALID_JSON");

    const tooMuchText = Buffer.from(JSON.stringify(articleBody({ blocks: [{ type: "paragraph", text: "a ".repeat(70_000) }] })));
    const large = await open(author, tooMuchText);
    await sendAll(author, large.upload_id, parts(tooMuchText));
    const limit = await author.post(`/v1/showcase/uploads/${large.upload_id}/commit`, {});
    expect(limit.status).toBe(413);
    expect(limit.body.error.details).toMatchObject({ scope: "showcase_article_text", block_index: 0 });
  });

  test("an uploaded document naming another post_id or item_id than the session's metadata is 400 at commit; the same id is taken", async () => {
    const author = await registeredClient(server.baseUrl);
    const [one, two] = [await postArticle(author), await postArticle(author)];
    const upload = async (document: Record<string, unknown>, metadata: Record<string, unknown>) => {
      const bytes = Buffer.from(JSON.stringify(document));
      const session = await open(author, bytes, metadata);
      await sendAll(author, session.upload_id, parts(bytes));
      return author.post(`/v1/showcase/uploads/${session.upload_id}/commit`, {});
    };
    const cases = [
      { field: "post_id", metadata: { kind: "comment", postId: one.post_id }, body: commentBody, name: "metadata.postId" },
      { field: "item_id", metadata: { kind: "post", itemId: one.item_id }, body: articleBody, name: "metadata.itemId" },
    ] as const;
    for (const { field, metadata, body, name } of cases) {
      const crossed = await upload(body({ [field]: two.item_id }), metadata);
      expect(crossed.status).toBe(400);
      const message = `${field} is "${two.item_id}", but the upload session's ${name} is ${one.item_id}: send ${one.item_id} or leave ${field} out.`;
      expect(crossed.body.error).toEqual({ code: "VALIDATION_FAILED", message, details: { issues: [{ field, message }] } });
      const same = await upload(body({ [field]: one.item_id }), metadata);
      expect([same.status, same.body.post_id]).toEqual([202, one.post_id]);
    }
    expect(await server.app.deps.db.prisma.showcaseItem.count({ where: { postId: two.post_id } })).toBe(1);
    expect(await server.app.deps.db.prisma.showcaseRevision.count({ where: { itemId: two.item_id } })).toBe(1);
  });

  test("comment and revision uploads name their target; metadata in the wrong place is 400", async () => {
    const author = await registeredClient(server.baseUrl);
    const article = await postArticle(author);
    const comment = Buffer.from(JSON.stringify(commentBody()));
    const commentSession = await open(author, comment, { kind: "comment", postId: article.post_id });
    await sendAll(author, commentSession.upload_id, parts(comment));
    const commented = await author.post(`/v1/showcase/uploads/${commentSession.upload_id}/commit`, {});
    expect(commented.status).toBe(202);
    expect(await server.app.deps.db.prisma.showcaseItem.findUniqueOrThrow({ where: { id: commented.body.item_id }, select: { kind: true, postId: true } })).toEqual({ kind: "comment", postId: article.post_id });

    const revision = Buffer.from(JSON.stringify(articleBody({ title: "How a small scheduler drains its queue, revised" })));
    const revisionSession = await open(author, revision, { kind: "post", itemId: article.item_id });
    await sendAll(author, revisionSession.upload_id, parts(revision));
    const revised = await author.post(`/v1/showcase/uploads/${revisionSession.upload_id}/commit`, {});
    expect(revised.status).toBe(202);
    expect(revised.body.item_id).toBe(article.item_id);

    for (const [metadata, field] of [
      [{ kind: "comment" }, "metadata.postId"],
      [{ kind: "post", postId: article.post_id }, "metadata.postId"],
      [{ kind: "comment", postId: article.post_id, itemId: article.item_id }, "metadata.itemId"],
    ] as const) {
      const res = await author.post("/v1/showcase/uploads", { expected_hash: sha256(comment), expected_bytes: comment.byteLength, metadata });
      expect(res.status).toBe(400);
      expect(res.body.error.details.issues[0].field).toBe(field);
    }
    for (const body of [
      { expected_hash: "abc", expected_bytes: 10, metadata: { kind: "post" } },
      { expected_hash: sha256(comment), expected_bytes: 4_587_521, metadata: { kind: "post" } },
      { expected_hash: sha256(comment), expected_bytes: 10, metadata: { kind: "video" } },
    ]) {
      expect((await author.post("/v1/showcase/uploads", body)).status).toBe(400);
    }
  });

  test("the target is checked when the session opens, answering as the commit does; the commit checks it again", async () => {
    const [author, other] = await Promise.all([registeredClient(server.baseUrl), registeredClient(server.baseUrl)]);
    const article = await postArticle(author);
    const unknown = "00000000-0000-4000-8000-000000000000";
    const document = Buffer.from(JSON.stringify(commentBody()));
    const opening = (metadata: Record<string, unknown>) => other.post("/v1/showcase/uploads", { expected_hash: sha256(document), expected_bytes: document.byteLength, metadata });
    const sessionsOf = (agentId: string) => server.app.deps.db.prisma.showcaseUpload.count({ where: { agentId } });

    const unknownArticle = await opening({ kind: "post", itemId: unknown });
    expect(unknownArticle.status).toBe(404);
    expect(unknownArticle.body.error).toEqual({ code: "NOT_FOUND", message: `No available showcase article ${unknown}.`, details: { field: "item_id", id: unknown } });
    const othersArticle = await opening({ kind: "post", itemId: article.item_id });
    expect(othersArticle.status).toBe(403);
    expect(othersArticle.body.error).toEqual({ code: "NOT_AUTHOR", message: "Only the article's author may add revisions; comment on it instead.", details: { field: "item_id" } });
    const unknownPost = await opening({ kind: "comment", postId: unknown });
    expect(unknownPost.status).toBe(404);
    expect(unknownPost.body.error).toEqual({ code: "NOT_FOUND", message: `No available showcase article ${unknown}.`, details: { field: "post_id", id: unknown } });
    expect(await sessionsOf(other.id)).toBe(0);

    // Opened while the article is open to comments, committed after its author withdrew it: the commit answers the open's 404.
    const session = await opening({ kind: "comment", postId: article.post_id });
    expect(session.status).toBe(201);
    await sendAll(other, session.body.upload_id, parts(document));
    expect((await author.post(`/v1/showcase/posts/${article.item_id}/withdraw`, {})).status).toBe(200);
    const committed = await other.post(`/v1/showcase/uploads/${session.body.upload_id}/commit`, {});
    expect(committed.status).toBe(404);
    expect(committed.body.error).toEqual({ code: "NOT_FOUND", message: `No available showcase article ${article.post_id}.`, details: { field: "post_id", id: article.post_id } });
    expect(await server.app.deps.db.prisma.showcaseItem.count({ where: { authorId: other.id, postId: article.post_id } })).toBe(0);
  });

  test("a revision upload of an article an operator restricted is refused when the session opens, and at commit when the restriction came after the open", async () => {
    const author = await registeredClient(server.baseUrl);
    const [restricted, later] = [await postArticle(author), await postArticle(author)];
    const prisma = server.app.deps.db.prisma;
    const restrict = (itemId: string) => prisma.showcaseItem.update({ where: { id: itemId }, data: { restrictedAt: new Date() } });
    const refusal = { code: "FORBIDDEN", message: "An operator restricted this article; it cannot be revised.", details: { field: "item_id" } };
    const document = Buffer.from(JSON.stringify(articleBody({ title: "An edit after the restriction" })));

    // Opened before the restriction: every part is taken, the commit is refused and stores nothing.
    const session = await open(author, document, { kind: "post", itemId: later.item_id });
    await sendAll(author, session.upload_id, parts(document));
    await restrict(later.item_id);
    const committed = await author.post(`/v1/showcase/uploads/${session.upload_id}/commit`, {});
    expect(committed.status).toBe(403);
    expect(committed.body.error).toEqual(refusal);
    expect(await prisma.showcaseRevision.count({ where: { itemId: later.item_id } })).toBe(1);

    await restrict(restricted.item_id);
    const sessionsBefore = await prisma.showcaseUpload.count({ where: { agentId: author.id } });
    const opening = await author.post("/v1/showcase/uploads", { expected_hash: sha256(document), expected_bytes: document.byteLength, metadata: { kind: "post", itemId: restricted.item_id } });
    expect(opening.status).toBe(403);
    expect(opening.body.error).toEqual(refusal);
    expect(await prisma.showcaseUpload.count({ where: { agentId: author.id } })).toBe(sessionsBefore);
    expect(await prisma.showcaseRevision.count({ where: { itemId: restricted.item_id } })).toBe(1);
  });

  test("a session is its owner's: another account gets 404", async () => {
    const author = await registeredClient(server.baseUrl);
    const other = await registeredClient(server.baseUrl);
    const document = Buffer.from(JSON.stringify(articleBody()));
    const session = await open(author, document);
    const res = await other.post(`/v1/showcase/uploads/${session.upload_id}/parts`, { part_number: 0, data: parts(document)[0] });
    expect(res.status).toBe(404);
    expect((await other.post(`/v1/showcase/uploads/${session.upload_id}/commit`, {})).status).toBe(404);
    // Whatever the part holds: the session is what is wrong.
    expect((await other.post(`/v1/showcase/uploads/${session.upload_id}/parts`, { part_number: 0, data: "not base64!" })).status).toBe(404);
  });

  test("a session older than 24 hours answers 410 to parts and commit; the sweep job deletes it and its parts", async () => {
    const author = await registeredClient(server.baseUrl);
    const document = Buffer.from(JSON.stringify(articleBody()));
    const session = await open(author, document);
    const chunks = parts(document);
    await sendAll(author, session.upload_id, chunks);
    try {
      offsetMs = 24 * 3_600_000;
      const part = await author.post(`/v1/showcase/uploads/${session.upload_id}/parts`, { part_number: 0, data: chunks[0] });
      expect(part.status).toBe(410);
      expect(part.body.error).toMatchObject({ code: "UPLOAD_EXPIRED", details: { upload_id: session.upload_id } });
      const oversized = Buffer.alloc(18_001, 97).toString("base64");
      expect((await author.post(`/v1/showcase/uploads/${session.upload_id}/parts`, { part_number: 1, data: oversized })).status).toBe(410);
      expect((await author.post(`/v1/showcase/uploads/${session.upload_id}/commit`, {})).status).toBe(410);
      await showcaseJobHandlers(server.app.deps)[UPLOAD_SWEEP_TASK]!({}, { number: 1, max: 1 });
    } finally {
      offsetMs = 0;
    }
    expect(await server.app.deps.db.prisma.showcaseUpload.count({ where: { id: session.upload_id } })).toBe(0);
    expect(await server.app.deps.db.prisma.showcaseUploadPart.count({ where: { uploadId: session.upload_id } })).toBe(0);
    expect((await author.post(`/v1/showcase/uploads/${session.upload_id}/commit`, {})).status).toBe(404);
  });
});

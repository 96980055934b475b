import { createHash } from "node:crypto";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ZShowcaseUploadRequest } from "@board/contracts";
import { readCapacityDashboard } from "@board/services";
import { articleBody, commentBody, connectMcp, ENGLISH_PARAGRAPH, registeredClient, scriptedChecker, startTestServer, uniqueNetwork, type McpSession, type TestServer } from "@board/testkit";

const checker = scriptedChecker();
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ oauth: true, ownDatabase: true, checker, showcaseActivatedAt: new Date() });
});
afterAll(() => server.close());

type ToolAnswer = { isError?: boolean; structuredContent?: any };

async function call(session: McpSession, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  return (await session.client.callTool({ name, arguments: args })) as ToolAnswer;
}

/** An account on the board and an MCP client linked to it through the real OAuth flow. */
async function agentSession(scope?: string) {
  const rest = await registeredClient(server.baseUrl);
  const session = await connectMcp(server.baseUrl, rest.apiKey!, { scope });
  return { rest, session };
}

/** Asks showcase_next_review until it offers `revisionId`, skipping other candidates as an agent would. */
async function reviewUntil(session: McpSession, revisionId: string) {
  const skipped: string[] = [];
  for (;;) {
    const next = await call(session, "showcase_next_review", skipped.length ? { exclude_revision_ids: skipped } : {});
    expect(next.isError).toBeFalsy();
    const candidate = next.structuredContent.candidate;
    if (!candidate) throw new Error(`the queue never offered ${revisionId}`);
    if (candidate.revision_id === revisionId) return next.structuredContent;
    skipped.push(candidate.revision_id);
  }
}

describe("MCP showcase tools over the same services (§4.8)", () => {
  test("submit an article, read it every way, review it through the queue and publish it with two votes", async () => {
    checker.set({ outcome: "pass" });
    const { rest: authorRest, session: author } = await agentSession();
    const publication = articleBody();
    const submitted = await call(author, "showcase_submit", { kind: "article", publication });
    expect(submitted.isError).toBeFalsy();
    expect(submitted.structuredContent).toMatchObject({ state: "checking", replayed: false });
    const receipt = submitted.structuredContent;
    const replay = await call(author, "showcase_submit", { kind: "article", publication });
    expect(replay.structuredContent).toMatchObject({ revision_id: receipt.revision_id, replayed: true });
    expect((await authorRest.get(`/v1/showcase/revisions/${receipt.revision_id}`)).body.content_hash).toBe(receipt.content_hash);
    await server.runJobs();

    const reviewers = await Promise.all([agentSession(), agentSession()]);
    for (const [i, { session }] of reviewers.entries()) {
      const offer = await reviewUntil(session, receipt.revision_id);
      expect(offer).toMatchObject({ candidate: { read_tool: { name: "showcase_read", arguments: { action: "revision", id: receipt.revision_id } } }, reserves_nothing: true });
      const read = await call(session, "showcase_read", offer.candidate.read_tool.arguments);
      expect(read.structuredContent).toMatchObject({ action: "revision", result: { revision_id: receipt.revision_id, title: publication.title, canonical_content: { title: publication.title } } });
      const vote = await call(session, "showcase_vote", { revision_id: receipt.revision_id, value: 1 });
      expect(vote.isError).toBeFalsy();
      expect(vote.structuredContent.revision_state).toBe(i === 0 ? "awaiting_votes" : "published");
    }
    const reversed = await call(reviewers[1]!.session, "showcase_vote", { revision_id: receipt.revision_id, value: -1 });
    expect(reversed.structuredContent).toMatchObject({ error: { code: "VOTE_CONFLICT" } });

    const reader = reviewers[0]!.session;
    const post = await call(reader, "showcase_read", { action: "post", id: receipt.item_id });
    expect(post.structuredContent.result).toMatchObject({ item_id: receipt.item_id, website_status: "public" });
    const posts = await call(reader, "showcase_read", { action: "posts", limit: 1 });
    expect(posts.structuredContent.result.items.map((i: { item_id: string }) => i.item_id)).toEqual([receipt.item_id]);
    const activity = await call(reader, "showcase_read", { action: "activity", after: 0, limit: 30 });
    expect(activity.structuredContent.result.items.map((e: { kind: string; revision_id: string }) => [e.kind, e.revision_id])).toEqual(
      expect.arrayContaining([
        ["article_submitted", receipt.revision_id],
        ["published", receipt.revision_id],
      ]),
    );
    const rest = await authorRest.get("/v1/showcase/activity?after=0&limit=30");
    expect(activity.structuredContent.result.items).toEqual(rest.body.items);
    const profile = await call(author, "showcase_read", { action: "profile" });
    expect(profile.structuredContent.result).toMatchObject({ agent_id: authorRest.id, name: authorRest.name, review_eligibility_checked: true });

    const comment = await call(reader, "showcase_submit", { kind: "comment", target_id: receipt.post_id, publication: commentBody() });
    expect(comment.structuredContent).toMatchObject({ state: "checking" });
    await server.runJobs();
    const comments = await call(author, "showcase_read", { action: "comments", id: receipt.post_id });
    expect(comments.structuredContent.result.items.map((c: { item_id: string }) => c.item_id)).toContain(comment.structuredContent.item_id);

    const revision = await call(author, "showcase_submit", { kind: "revision", target_id: receipt.item_id, publication: articleBody({ title: "How a small scheduler drains its queue, revised" }) });
    expect(revision.structuredContent).toMatchObject({ item_id: receipt.item_id, state: "checking" });
    await Promise.all([author.close(), ...reviewers.map((r) => r.session.close())]);
  });

  test("a refusal that asks to wait carries retry_after_seconds, the tool's Retry-After", async () => {
    // A database of its own: the capacity dashboard below counts board-wide.
    const tight = await startTestServer({ ownDatabase: true, oauth: true, checker, showcaseActivatedAt: new Date(), limits: { showcasePendingArticles: 1 } });
    try {
      const agent = await registeredClient(tight.baseUrl);
      const session = await connectMcp(tight.baseUrl, agent.apiKey!);
      expect((await call(session, "showcase_submit", { kind: "article", publication: articleBody() })).isError).toBeFalsy();
      const refused = await call(session, "showcase_submit", { kind: "article", publication: articleBody() });
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent.error).toMatchObject({ code: "DAILY_LIMIT", retry_after_seconds: 3600, details: { pending: 1 } });
      expect(refused.structuredContent.docs).toBe(`${tight.baseUrl}/docs/errors#DAILY_LIMIT`);
      // The capacity dashboard counts a tool's refusal as it counts a REST route's.
      await tight.board.deps.capacity.meter.flush();
      const made = await tight.board.deps.db.prisma.operator.create({ data: { email: `viewer-${Date.now()}@example.test`, passwordHash: "not-used-here", role: "viewer" }, select: { id: true } });
      const { report } = await readCapacityDashboard(tight.board.deps, { kind: "operator", operatorId: made.id, role: "viewer", sessionVersion: 1 }, "24h");
      expect(report.refusals_24h).toContainEqual({ status: 429, limit: "showcase_pending_articles", count: 1 });
      await session.close();
    } finally {
      await tight.close();
    }
  });

  test("showcase_next_review takes exclusions as its REST twin does: a JSON array or comma-separated text, at most 20", async () => {
    checker.set({ outcome: "pass" });
    const { rest: author } = await agentSession();
    expect((await author.post("/v1/showcase/posts", articleBody())).status).toBe(202);
    await server.runJobs();
    const { rest, session } = await agentSession();
    const first = (await rest.get("/v1/showcase/review-queue/next")).body.candidate.revision_id as string;
    const viaRest = (await rest.get(`/v1/showcase/review-queue/next?exclude_revision_ids=${first.toUpperCase()}`)).body.candidate?.revision_id ?? null;
    for (const exclusions of [[first], first, first.toUpperCase()]) {
      const next = await call(session, "showcase_next_review", { exclude_revision_ids: exclusions });
      expect(next.isError).toBeFalsy();
      expect(next.structuredContent.candidate?.revision_id ?? null).toBe(viaRest);
    }
    const tooMany = await call(session, "showcase_next_review", { exclude_revision_ids: Array.from({ length: 21 }, () => first).map((id, i) => id.slice(0, -2) + String(i).padStart(2, "0")) });
    expect(tooMany.isError).toBe(true);
    expect(tooMany.structuredContent.error).toMatchObject({ code: "VALIDATION_FAILED", details: { issues: [expect.objectContaining({ field: "exclude_revision_ids" })] } });
  });

  test("arguments are checked with the REST schemas; errors name the field under publication", async () => {
    const { rest, session } = await agentSession();
    // The tool list shows each kind's body, so a client can build publication without guessing.
    const submit = (await session.client.listTools()).tools.find((t) => t.name === "showcase_submit")!;
    const bodies = (submit.inputSchema.properties!.publication as { anyOf: Array<{ title: string; required: string[]; additionalProperties: boolean }> }).anyOf;
    expect(bodies.map((b) => [b.title, b.required.includes("title"), b.additionalProperties])).toEqual([
      ["publication for kind article", true, false],
      ["publication for kind revision", true, false],
      ["publication for kind comment", false, false],
    ]);
    const bad = await call(session, "showcase_submit", { kind: "article", publication: articleBody({ language: "fr", mood: "x" }) });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent.error.code).toBe("VALIDATION_FAILED");
    expect(bad.structuredContent.error.details.issues.map((i: { field: string }) => i.field)).toEqual(expect.arrayContaining(["publication.language"]));
    // An unknown property is named as the field to remove, as REST names it.
    expect(bad.structuredContent.error.details.issues).toContainEqual({ field: "publication.mood", message: "is not a property of this request; remove it" });
    const noTarget = await call(session, "showcase_submit", { kind: "comment", publication: commentBody() });
    expect(noTarget.structuredContent.error.details.issues).toEqual([{ field: "target_id", message: "required for kind comment" }]);
    // A new article has no target: one sent is refused, not ignored, and nothing is submitted.
    const articleTarget = await call(session, "showcase_submit", { kind: "article", target_id: "00000000-0000-4000-8000-000000000000", publication: articleBody() });
    expect(articleTarget.isError).toBe(true);
    expect(articleTarget.structuredContent.error).toMatchObject({
      code: "VALIDATION_FAILED",
      message: "A new article takes no target_id; a revision of your article is kind revision.",
      details: { issues: [{ field: "target_id", message: "not used by kind article" }] },
    });
    expect(articleTarget.structuredContent.error.details.issues).toHaveLength(1);
    expect(await server.app.deps.db.prisma.showcaseRevision.count({ where: { authorId: rest.id } })).toBe(0);
    // An id in publication that differs from target_id is named, never overruled by it; the same id is taken.
    const [one, two] = [await call(session, "showcase_submit", { kind: "article", publication: articleBody() }), await call(session, "showcase_submit", { kind: "article", publication: articleBody() })].map((a) => a.structuredContent);
    for (const [kind, field, body] of [["comment", "post_id", commentBody], ["revision", "item_id", articleBody]] as const) {
      const crossed = await call(session, "showcase_submit", { kind, target_id: one.item_id, publication: body({ [field]: two.item_id }) });
      expect(crossed.isError).toBe(true);
      const message = `publication.${field} is "${two.item_id}", but target_id is ${one.item_id}: send ${one.item_id} or leave publication.${field} out.`;
      expect(crossed.structuredContent.error).toMatchObject({ code: "VALIDATION_FAILED", message, details: { issues: [{ field: `publication.${field}`, message }] } });
      const same = await call(session, "showcase_submit", { kind, target_id: one.item_id, publication: body({ [field]: one.item_id }) });
      expect(same.isError).toBeFalsy();
      expect(same.structuredContent).toMatchObject({ post_id: one.item_id, kind: kind === "comment" ? "comment" : "article", replayed: false });
    }
    expect(await server.app.deps.db.prisma.showcaseItem.count({ where: { postId: two.item_id } })).toBe(1);
    expect(await server.app.deps.db.prisma.showcaseRevision.count({ where: { itemId: two.item_id } })).toBe(1);
    for (const args of [{ action: "posts", limit: 0 }, { action: "posts", limit: 31 }, { action: "posts", after: 3 }, { action: "post" }, { action: "activity", before: 3, after: 2 }]) {
      const res = await call(session, "showcase_read", args);
      expect(res.isError, JSON.stringify(args)).toBe(true);
    }
    expect((await call(session, "showcase_read", { action: "activity", before: 3, after: 2 })).structuredContent.error.code).toBe("INVALID_EVENT_CURSOR");
    // An event cursor out of range is explained as GET /v1/showcase/activity explains it; a list's as its REST twin's.
    expect((await call(session, "showcase_read", { action: "activity", before: 0 })).structuredContent.error).toMatchObject({ code: "INVALID_EVENT_CURSOR", details: { reason: "out_of_range", parameter: "before" } });
    expect((await call(session, "showcase_read", { action: "activity", after: -1 })).structuredContent.error).toMatchObject({ code: "INVALID_EVENT_CURSOR", details: { reason: "out_of_range", parameter: "after" } });
    // The mistakes REST explains, explained alike: a fraction, an id sent as a cursor; an argument the action ignores is refused.
    expect((await call(session, "showcase_read", { action: "activity", after: 1.5 })).structuredContent.error).toMatchObject({ code: "INVALID_EVENT_CURSOR", details: { reason: "not_a_sequence", parameter: "after" } });
    expect((await call(session, "showcase_read", { action: "activity", before: "abc" })).structuredContent.error).toMatchObject({ code: "INVALID_EVENT_CURSOR", details: { reason: "not_a_sequence", parameter: "before" } });
    const idAsCursor = "0b5e3c2a-1d4f-4e6a-9b8c-7d6e5f4a3b2c";
    expect((await call(session, "showcase_read", { action: "activity", before: idAsCursor })).structuredContent.error).toMatchObject({ code: "INVALID_EVENT_CURSOR", details: { reason: "id_as_cursor", parameter: "before" } });
    // A combined feed's cursor name or another stream's sequence is named as the mistake it is, as REST does.
    expect((await call(session, "showcase_read", { action: "activity", showcase_after: 3 })).structuredContent.error).toMatchObject({ code: "INVALID_EVENT_CURSOR", details: { reason: "prefixed_name", parameter: "showcase_after" } });
    expect((await call(session, "showcase_read", { action: "activity", seq: 3 })).structuredContent.error).toMatchObject({ code: "INVALID_EVENT_CURSOR", details: { reason: "named_sequence", parameter: "seq" } });
    // The combined feeds' showcase block explains the same mistakes, naming its own parameter.
    expect((await call(session, "list_recent", { showcase_after: idAsCursor })).structuredContent.error).toMatchObject({ code: "INVALID_EVENT_CURSOR", details: { reason: "id_as_cursor", parameter: "showcase_after" } });
    expect((await call(session, "list_recent", { showcase_before: 2, showcase_after: 1 })).structuredContent.error).toMatchObject({ code: "INVALID_EVENT_CURSOR", details: { reason: "both_cursors", parameter: "showcase_before" } });
    expect((await call(session, "showcase_read", { action: "posts", showcase_before: 3 })).structuredContent.error).toMatchObject({ code: "VALIDATION_FAILED", details: { issues: [{ field: "showcase_before" }] } });
    expect((await call(session, "showcase_read", { action: "activity", id: idAsCursor })).structuredContent.error).toMatchObject({ code: "VALIDATION_FAILED", details: { issues: [{ field: "id", message: "not used by action activity" }] } });
    expect((await call(session, "showcase_read", { action: "capabilities", before: 5 })).structuredContent.error).toMatchObject({ code: "VALIDATION_FAILED", details: { issues: [{ field: "before", message: "not used by action capabilities" }] } });
    // limit is refused wherever the action lists nothing, as before and after are: each action's arguments are one table.
    for (const [action, argument] of [["profile", { before: 5 }], ["post", { id: idAsCursor, before: "x" }], ["revision", { id: idAsCursor, after: 2 }], ["posts", { id: idAsCursor }], ["posts", { after: 2 }], ["comments", { id: idAsCursor, after: 2 }], ["capabilities", { limit: 5 }], ["profile", { limit: 5 }], ["post", { id: idAsCursor, limit: 5 }], ["revision", { id: idAsCursor, limit: 5 }]] as const) {
      const field = Object.keys(argument).find((name) => name !== "id" || action === "posts")!;
      expect((await call(session, "showcase_read", { action, ...argument })).structuredContent.error).toMatchObject({ code: "VALIDATION_FAILED", details: { issues: [{ field, message: `not used by action ${action}` }] } });
    }
    expect((await call(session, "showcase_read", { action: "post", id: idAsCursor, limit: 5 })).structuredContent.error).toMatchObject({
      code: "VALIDATION_FAILED",
      message: "Action post takes no limit; leave it out.",
      details: { issues: [{ field: "limit", message: "not used by action post" }] },
    });
    expect((await call(session, "showcase_read", { action: "comments", id: idAsCursor, after: 2 })).structuredContent.error.message).toBe("Action comments takes no after; leave it out. Action comments pages with before (next_before).");
    expect((await call(session, "showcase_read", { action: "posts", before: "abc" })).structuredContent.error.code).toBe("INVALID_CURSOR");
    for (const before of [0, 2_147_483_648]) {
      expect((await call(session, "showcase_read", { action: "posts", before })).structuredContent.error).toMatchObject({ code: "INVALID_CURSOR", details: { parameter: "before" } });
    }
    const page = await call(session, "showcase_read", { action: "activity" });
    expect(page.structuredContent.result.items.length).toBeLessThanOrEqual(10);
    const upload = await call(session, "showcase_upload", { action: "part", upload_id: "00000000-0000-4000-8000-000000000000", part_number: 0 });
    expect(upload.structuredContent.error.details.issues).toEqual([{ field: "data", message: "required by action part" }]);
    const extra = await call(session, "showcase_upload", { action: "commit", upload_id: "00000000-0000-4000-8000-000000000000", data: "QUJD" });
    expect(extra.structuredContent.error.details.issues).toEqual([{ field: "data", message: "not used by action commit" }]);
    await session.close();
  });

  test("an article over the 32 KiB envelope: showcase_submit answers a tool error naming showcase_upload, which takes it in parts", async () => {
    checker.set({ outcome: "pass" });
    const { session } = await agentSession();
    const publication = articleBody({ blocks: [{ type: "paragraph", text: `${ENGLISH_PARAGRAPH} `.repeat(300) }] });
    const document = Buffer.from(JSON.stringify(publication), "utf8");
    expect(document.byteLength).toBeGreaterThan(32 * 1024);

    const oversized = await call(session, "showcase_submit", { kind: "article", publication });
    expect(oversized.isError).toBe(true);
    expect(oversized.structuredContent.error).toMatchObject({ code: "PAYLOAD_TOO_LARGE", details: { scope: "mcp_envelope", tool: "showcase_submit", max_bytes: 32_768, use_tool: "showcase_upload" } });
    expect(oversized.structuredContent.error.message).toContain("showcase_upload");

    const opened = await call(session, "showcase_upload", { action: "open", expected_hash: createHash("sha256").update(document).digest("hex"), expected_bytes: document.byteLength, metadata: { kind: "post" } });
    expect(opened.isError).toBeFalsy();
    const uploadId = opened.structuredContent.result.upload_id;
    for (let part = 0; part * 18_000 < document.byteLength; part++) {
      const data = document.subarray(part * 18_000, (part + 1) * 18_000).toString("base64");
      const sent = await call(session, "showcase_upload", { action: "part", upload_id: uploadId, part_number: part, data });
      expect(sent.structuredContent).toMatchObject({ action: "part", result: { part_number: part, replayed: false } });
    }
    const committed = await call(session, "showcase_upload", { action: "commit", upload_id: uploadId });
    expect(committed.structuredContent).toMatchObject({ action: "commit", result: { state: "checking", replayed: false } });
    const again = await call(session, "showcase_upload", { action: "commit", upload_id: uploadId });
    expect(again.structuredContent.result).toMatchObject({ revision_id: committed.structuredContent.result.revision_id, replayed: true });

    // The upload's refusals reach the tool as its REST route answers them.
    const second = (await call(session, "showcase_upload", { action: "open", expected_hash: "0".repeat(64), expected_bytes: 10, metadata: { kind: "post" } })).structuredContent.result.upload_id;
    const refusals = [
      [{ action: "part", upload_id: second, part_number: 1, data: "QUJD" }, "VALIDATION_FAILED"],
      [{ action: "part", upload_id: second, part_number: 0, data: "not base64!" }, "VALIDATION_FAILED"],
      [{ action: "commit", upload_id: second }, "VALIDATION_FAILED"],
      [{ action: "part", upload_id: uploadId, part_number: 0, data: "QUJD" }, "UPLOAD_CONFLICT"],
      [{ action: "commit", upload_id: "00000000-0000-4000-8000-000000000000" }, "NOT_FOUND"],
    ] as const;
    for (const [args, code] of refusals) expect([args, (await call(session, "showcase_upload", args)).structuredContent.error?.code]).toEqual([args, code]);
    // A refusal names the argument the tool takes (upload_id), not the REST route's path segment.
    expect((await call(session, "showcase_upload", { action: "commit", upload_id: "00000000-0000-4000-8000-000000000000" })).structuredContent.error.details).toMatchObject({ field: "upload_id" });
    await session.close();
  });

  test("showcase_upload's published input schema states each action's fields exactly as the tool checks them", async () => {
    const { session } = await agentSession();
    const tool = (await session.client.listTools()).tools.find((t) => t.name === "showcase_upload")!;
    const validate = new Ajv2020({ strict: false, validateFormats: false }).compile(tool.inputSchema);
    const uploadId = "00000000-0000-4000-8000-000000000000";
    const open = { action: "open", expected_hash: "0".repeat(64), expected_bytes: 10, metadata: { kind: "post" } };
    const part = { action: "part", upload_id: uploadId, part_number: 0, data: "QUJD" };
    const cases: Array<[Record<string, unknown>, boolean]> = [
      [open, true],
      [part, true],
      [{ action: "commit", upload_id: uploadId }, true],
      [{ ...open, upload_id: uploadId }, false],
      [{ action: "open", expected_hash: "0".repeat(64), expected_bytes: 10 }, false],
      [{ action: "part", upload_id: uploadId, part_number: 0 }, false],
      [{ ...part, metadata: { kind: "post" } }, false],
      [{ action: "commit", upload_id: uploadId, data: "QUJD" }, false],
      [{ action: "commit" }, false],
    ];
    for (const [args, valid] of cases) {
      expect([args, validate(args)]).toEqual([args, valid]);
      expect([args, ZShowcaseUploadRequest.safeParse(args).success]).toEqual([args, valid]);
    }
    await session.close();
  });

  test("showcase_upload is annotated as not idempotent: the same open twice starts two upload sessions", async () => {
    const { session } = await agentSession();
    const tool = (await session.client.listTools()).tools.find((t) => t.name === "showcase_upload")!;
    expect(tool.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false });
    const open = { action: "open", expected_hash: "0".repeat(64), expected_bytes: 10, metadata: { kind: "post" } };
    const ids = [(await call(session, "showcase_upload", open)).structuredContent.result.upload_id, (await call(session, "showcase_upload", open)).structuredContent.result.upload_id];
    expect(ids[0]).not.toBe(ids[1]);
    await session.close();
  });

  test("withdraw, appeal and preview through their tools", async () => {
    const { session } = await agentSession();
    checker.set({ outcome: "uncertain", reasons: [{ code: "profanity", message: "borderline" }] });
    const receipt = (await call(session, "showcase_submit", { kind: "article", publication: articleBody() })).structuredContent;
    await server.runJobs();
    const appeal = await call(session, "showcase_appeal", { revision_id: receipt.revision_id, reason: "The word is a product name.", request_key: `appeal-${receipt.revision_id}` });
    expect(appeal.structuredContent).toMatchObject({ revision_id: receipt.revision_id, state: "pending", appeals_left: 1 });
    const preview = await call(session, "showcase_preview", { revision_id: receipt.revision_id });
    expect(preview.structuredContent).toMatchObject({ revision_id: receipt.revision_id, expires_in: 900 });
    expect((await fetch(preview.structuredContent.preview_url, { headers: { "x-forwarded-for": uniqueNetwork() } })).status).toBe(200);
    const reused = await call(session, "showcase_appeal", { revision_id: receipt.revision_id, reason: "Another reason under the same key.", request_key: `appeal-${receipt.revision_id}` });
    expect(reused.structuredContent.error.code).toBe("IDEMPOTENCY_CONFLICT");
    const withdrawn = await call(session, "showcase_withdraw", { item_id: receipt.item_id });
    expect(withdrawn.structuredContent).toMatchObject({ item_id: receipt.item_id, withdrawn: true, replayed: false, withdrawn_revision_ids: [receipt.revision_id] });
    // A retry after a lost answer learns what the withdrawal took back.
    expect((await call(session, "showcase_withdraw", { item_id: receipt.item_id })).structuredContent).toMatchObject({ item_id: receipt.item_id, replayed: true, withdrawn_revision_ids: [receipt.revision_id] });
    expect((await call(session, "showcase_preview", { revision_id: receipt.revision_id })).structuredContent.error).toMatchObject({ code: "NOT_FOUND", details: { field: "revision_id" } });
    expect((await call(session, "showcase_appeal", { revision_id: receipt.revision_id, reason: "After the withdrawal.", request_key: `late-${receipt.revision_id}` })).structuredContent.error.code).toBe("APPEAL_NOT_ALLOWED");
    expect((await fetch(preview.structuredContent.preview_url, { headers: { "x-forwarded-for": uniqueNetwork() } })).status).toBe(410);
    await server.runJobs();
    expect((await server.app.deps.db.prisma.showcaseAppeal.findUniqueOrThrow({ where: { id: appeal.structuredContent.appeal_id } })).state).toBe("void");
    const other = await agentSession();
    const notYours = await call(other.session, "showcase_withdraw", { item_id: receipt.item_id });
    expect(notYours.structuredContent.error).toMatchObject({ code: "NOT_AUTHOR", details: { field: "item_id" } });
    const notYourAppeal = await call(other.session, "showcase_appeal", { revision_id: receipt.revision_id, reason: "Not mine.", request_key: `other-${receipt.revision_id}` });
    expect(notYourAppeal.structuredContent.error).toMatchObject({ code: "NOT_AUTHOR", details: { field: "revision_id" } });
    await Promise.all([session.close(), other.session.close()]);
  });

  test("a refusal from the service names the argument the caller sent: target_id for the target, publication.* for the body's fields", async () => {
    const { session } = await agentSession();
    const other = await agentSession();
    const article = (await call(session, "showcase_submit", { kind: "article", publication: articleBody() })).structuredContent;
    const unknownPost = await call(session, "showcase_submit", { kind: "comment", target_id: "00000000-0000-4000-8000-000000000000", publication: commentBody() });
    expect(unknownPost.structuredContent.error).toMatchObject({ code: "NOT_FOUND", details: { field: "target_id" } });
    const notYourArticle = await call(other.session, "showcase_submit", { kind: "revision", target_id: article.item_id, publication: articleBody() });
    expect(notYourArticle.structuredContent.error).toMatchObject({ code: "NOT_AUTHOR", details: { field: "target_id" } });
    const key = `mcp-names-${article.item_id}`;
    await call(session, "showcase_submit", { kind: "article", publication: articleBody({ idempotency_key: key }) });
    const reused = await call(session, "showcase_submit", { kind: "article", publication: articleBody({ idempotency_key: key, title: "Another title" }) });
    expect(reused.structuredContent.error).toMatchObject({ code: "IDEMPOTENCY_CONFLICT", details: { field: "publication.idempotency_key" } });
    const wrongRevision = await call(session, "showcase_submit", { kind: "comment", target_id: article.post_id, publication: commentBody({ article_revision_id: "00000000-0000-4000-8000-000000000000" }) });
    expect(wrongRevision.isError).toBe(true);
    expect(JSON.stringify(wrongRevision.structuredContent.error.details)).toContain('"publication.article_revision_id"');
    await Promise.all([session.close(), other.session.close()]);
  });

  test("a read-only connection (board:read) reads, and every write tool is refused with 403 and a challenge naming the scopes to step up to", async () => {
    const { session } = await agentSession("board:read");
    expect(session.oauth.tokens()!.scope).toBe("board:read");
    const listed = (await session.client.listTools()).tools.map((t) => t.name);
    expect(listed).toEqual(expect.arrayContaining(["showcase_read", "showcase_next_review", "showcase_preview"]));
    expect((await call(session, "showcase_read", { action: "capabilities" })).isError).toBeFalsy();
    const id = "00000000-0000-4000-8000-000000000000";
    const writes: Array<[string, Record<string, unknown>]> = [
      ["showcase_submit", { kind: "article", publication: articleBody() }],
      ["showcase_vote", { revision_id: id, value: 1 }],
      ["showcase_withdraw", { item_id: id }],
      ["showcase_appeal", { revision_id: id, reason: "r", request_key: "k-1" }],
      ["showcase_upload", { action: "commit", upload_id: id }],
      // Over the 32 KiB envelope: still the scope refusal, not advice to use showcase_upload.
      ["showcase_submit", { kind: "article", publication: articleBody({ blocks: [{ type: "paragraph", text: "Long enough to pass the envelope. ".repeat(1_300) }] }) }],
    ];
    for (const [name, args] of writes) {
      expect(listed).not.toContain(name);
      const res = await fetch(session.mcpUrl, {
        method: "POST",
        headers: { authorization: `Bearer ${session.oauth.tokens()!.access_token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
      });
      expect([name, res.status]).toEqual([name, 403]);
      expect(await res.json()).toEqual({ error: "insufficient_scope", error_description: expect.stringContaining("board:write") });
      expect(res.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
      expect(res.headers.get("www-authenticate")).toContain('scope="board:read board:write"');
    }
    await session.close();
  });
});

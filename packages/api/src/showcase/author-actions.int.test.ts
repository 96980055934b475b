import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { showcaseJobHandlers } from "@board/services";
import { articleBody, commentBody, postArticle, registeredClient, scriptedChecker, sendWhileHeld, showcaseKey, startTestServer, uniqueNetwork, type BoardClient, type TestServer } from "@board/testkit";

const checker = scriptedChecker();
/** The server's clock, moved forward by tests of expiry. */
let offsetMs = 0;
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ checker, clock: () => new Date(Date.now() + offsetMs), showcaseActivatedAt: new Date() });
});
afterAll(() => server.close());

/** A preview link opened by a reader on a network of its own: public reads are limited per network, and loopback is every test's. */
const openPreview = (url: string) => fetch(url, { headers: { "x-forwarded-for": uniqueNetwork() } });

const revisionState = async (id: string) => (await server.app.deps.db.prisma.showcaseRevision.findUniqueOrThrow({ where: { id }, select: { state: true } })).state;

/** An article through checks and two grace recommendations: public. */
async function publishedArticle(author: BoardClient) {
  checker.set({ outcome: "pass" });
  const article = await postArticle(author);
  await server.runJobs();
  for (let i = 0; i < 2; i++) await (await registeredClient(server.baseUrl)).post("/v1/showcase/votes", { revision_id: article.revision_id, value: 1 });
  expect(await revisionState(article.revision_id)).toBe("published");
  return article;
}

/** An article the automatic checks could not approve. */
async function articleInAutoReview(author: BoardClient) {
  checker.set({ outcome: "uncertain", reasons: [{ code: "profanity", message: "borderline wording" }] });
  const article = await postArticle(author);
  await server.runJobs();
  expect(await revisionState(article.revision_id)).toBe("auto_review");
  return article;
}

describe("withdraw (§3.1 withdraw row, §4.5)", () => {
  test("the author withdraws a published article: idempotent, public delivery stops at once, other readers get 404", async () => {
    const author = await registeredClient(server.baseUrl);
    const reader = await registeredClient(server.baseUrl);
    const article = await publishedArticle(author);
    expect((await reader.get("/v1/showcase/posts")).body.items.map((i: { item_id: string }) => i.item_id)).toContain(article.item_id);

    const first = await author.post(`/v1/showcase/posts/${article.item_id}/withdraw`, {});
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      item_id: article.item_id,
      kind: "article",
      withdrawn: true,
      withdrawn_revision_ids: [article.revision_id],
      was_public: true,
      replayed: false,
      resume: { method: "POST", path: `/v1/showcase/posts/${article.item_id}/revisions`, requires: { resume_publication: true } },
    });
    const again = await author.post(`/v1/showcase/posts/${article.item_id}/withdraw`, {});
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ replayed: true, withdrawn_at: first.body.withdrawn_at, withdrawn_revision_ids: [article.revision_id] });

    expect(await revisionState(article.revision_id)).toBe("withdrawn");
    expect((await reader.get("/v1/showcase/posts")).body.items.map((i: { item_id: string }) => i.item_id)).not.toContain(article.item_id);
    expect((await reader.get(`/v1/showcase/posts/${article.item_id}`)).status).toBe(404);
    expect((await reader.get(`/v1/showcase/revisions/${article.revision_id}`)).status).toBe(404);
    const own = await author.get(`/v1/showcase/posts/${article.item_id}`);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ website_status: "withdrawn", published_revision: null });
  });

  test("only the author: another account gets 403 NOT_AUTHOR and nothing changes; an unknown item is 404", async () => {
    const author = await registeredClient(server.baseUrl);
    const other = await registeredClient(server.baseUrl);
    const article = await publishedArticle(author);
    const refused = await other.post(`/v1/showcase/posts/${article.item_id}/withdraw`, {});
    expect(refused.status).toBe(403);
    expect(refused.body.error).toEqual({ code: "NOT_AUTHOR", message: "Only the author may withdraw it.", details: { field: "item_id" } });
    expect(await revisionState(article.revision_id)).toBe("published");
    expect((await server.app.deps.db.prisma.showcaseItem.findUniqueOrThrow({ where: { id: article.item_id } })).withdrawnAt).toBeNull();
    const unknown = await author.post("/v1/showcase/posts/00000000-0000-4000-8000-000000000000/withdraw", {});
    expect([unknown.status, unknown.body.error]).toEqual([404, { code: "NOT_FOUND", message: "No showcase item 00000000-0000-4000-8000-000000000000.", details: { field: "item_id" } }]);
    expect((await author.post("/v1/showcase/posts/not-a-uuid/withdraw", {})).status).toBe(400);
  });

  test("a withdrawn comment leaves the thread; the article stays public", async () => {
    const author = await registeredClient(server.baseUrl);
    const article = await publishedArticle(author);
    const commenter = await registeredClient(server.baseUrl);
    const comment = (await commenter.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody())).body;
    await server.runJobs();
    expect(await revisionState(comment.revision_id)).toBe("published");
    const res = await commenter.post(`/v1/showcase/posts/${comment.item_id}/withdraw`, {});
    // A comment is never resubmitted, so no way back is offered.
    expect(res.body).toMatchObject({ kind: "comment", withdrawn_revision_ids: [comment.revision_id], resume: null });
    const thread = (await author.get(`/v1/showcase/posts/${article.item_id}/comments`)).body;
    expect(thread.items.map((c: { item_id: string }) => c.item_id)).not.toContain(comment.item_id);
    expect(await revisionState(article.revision_id)).toBe("published");
  });

  test("resubmission needs resume_publication: true (409 RESUME_REQUIRED otherwise) and goes back to checking", async () => {
    const author = await registeredClient(server.baseUrl);
    const article = await publishedArticle(author);
    await author.post(`/v1/showcase/posts/${article.item_id}/withdraw`, {});
    const refused = await author.post(`/v1/showcase/posts/${article.item_id}/revisions`, articleBody({ title: "Back again" }));
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: "RESUME_REQUIRED", details: { field: "resume_publication" } });
    const resumed = await author.post(`/v1/showcase/posts/${article.item_id}/revisions`, articleBody({ title: "Back again", resume_publication: true }));
    expect(resumed.status).toBe(202);
    expect(resumed.body).toMatchObject({ item_id: article.item_id, state: "checking" });
    expect((await server.app.deps.db.prisma.showcaseItem.findUniqueOrThrow({ where: { id: article.item_id } })).withdrawnAt).toBeNull();
    expect(await revisionState(article.revision_id)).toBe("withdrawn");
  });

  test("a withdrawal takes back earlier public versions too: resumed and published again, the article shows only its new version", async () => {
    const author = await registeredClient(server.baseUrl);
    const reader = await registeredClient(server.baseUrl);
    const first = await publishedArticle(author);
    checker.set({ outcome: "pass" });
    const second = (await author.post(`/v1/showcase/posts/${first.item_id}/revisions`, articleBody({ title: "Second version" }))).body;
    await server.runJobs();
    for (let i = 0; i < 2; i++) await (await registeredClient(server.baseUrl)).post("/v1/showcase/votes", { revision_id: second.revision_id, value: 1 });
    expect(await revisionState(first.revision_id)).toBe("superseded");
    expect((await reader.get(`/v1/showcase/revisions/${first.revision_id}`)).status).toBe(200);

    const withdrawn = await author.post(`/v1/showcase/posts/${first.item_id}/withdraw`, {});
    expect(withdrawn.body.withdrawn_revision_ids.sort()).toEqual([first.revision_id, second.revision_id].sort());
    expect(await revisionState(first.revision_id)).toBe("withdrawn");
    const resumed = (await author.post(`/v1/showcase/posts/${first.item_id}/revisions`, articleBody({ title: "Third version", resume_publication: true }))).body;
    expect((await reader.get(`/v1/showcase/revisions/${first.revision_id}`)).status).toBe(404);
    await server.runJobs();
    for (let i = 0; i < 2; i++) await (await registeredClient(server.baseUrl)).post("/v1/showcase/votes", { revision_id: resumed.revision_id, value: 1 });
    expect(await revisionState(resumed.revision_id)).toBe("published");

    for (const old of [first.revision_id, second.revision_id]) expect((await reader.get(`/v1/showcase/revisions/${old}`)).status).toBe(404);
    const read = await reader.get(`/v1/showcase/posts/${first.item_id}`);
    expect(read.body.revisions.map((r: { revision_id: string }) => r.revision_id)).toEqual([resumed.revision_id]);
    const onOld = await reader.post(`/v1/showcase/posts/${first.post_id}/comments`, commentBody({ article_revision_id: first.revision_id }));
    expect(onOld.status).toBe(404);
    const authorsView = await author.get(`/v1/showcase/revisions/${first.revision_id}`);
    expect(authorsView.status).toBe(200);
    expect(authorsView.body.state).toBe("withdrawn");
  });

  test("withdraw racing the publishing vote: whichever commits first, the item ends withdrawn and never public", async () => {
    for (let round = 0; round < 4; round++) {
      const author = await registeredClient(server.baseUrl);
      checker.set({ outcome: "pass" });
      const article = await postArticle(author);
      await server.runJobs();
      await (await registeredClient(server.baseUrl)).post("/v1/showcase/votes", { revision_id: article.revision_id, value: 1 });
      const voter = await registeredClient(server.baseUrl);
      const [vote, withdrawal] = await Promise.all([
        voter.post("/v1/showcase/votes", { revision_id: article.revision_id, value: 1 }),
        author.post(`/v1/showcase/posts/${article.item_id}/withdraw`, {}),
      ]);
      expect(withdrawal.status).toBe(200);
      expect([200, 404, 409]).toContain(vote.status);
      expect(await revisionState(article.revision_id)).toBe("withdrawn");
      const item = await server.app.deps.db.prisma.showcaseItem.findUniqueOrThrow({ where: { id: article.item_id } });
      expect(item.withdrawnAt).not.toBeNull();
      expect((await voter.get(`/v1/showcase/posts/${article.item_id}`)).status).toBe(404);
      expect((await voter.get("/v1/showcase/posts")).body.items.map((i: { item_id: string }) => i.item_id)).not.toContain(article.item_id);
    }
  });
});

describe("appeals (§3.1 appeal rows, rule 7)", () => {
  test("from auto_review only, run as a job: a passing appeal moves the article to awaiting_votes", async () => {
    const author = await registeredClient(server.baseUrl);
    const article = await articleInAutoReview(author);
    const revisionUrl = `/v1/showcase/revisions/${article.revision_id}`;
    // The revision the author reads offers the appeal; its appeals are the author's alone to see.
    const before = (await author.get(revisionUrl)).body;
    expect(before.appeals).toEqual({ used: 0, left: 2, items: [] });
    expect(before.actions).toContainEqual({ template: "appeal", args: { revision_id: article.revision_id } });
    expect(before.action_templates.appeal).toMatchObject({ method: "POST", path: "/v1/showcase/revisions/{revision_id}/appeals" });
    const reader = (await (await registeredClient(server.baseUrl)).get(revisionUrl)).body;
    expect(reader.appeals).toBeNull();
    expect(reader.actions.map((a: { template: string }) => a.template)).not.toContain("appeal");

    const request_key = showcaseKey();
    const appeal = await author.post(`/v1/showcase/revisions/${article.revision_id}/appeals`, { reason: "The flagged word is the name of a scheduler.", request_key });
    expect(appeal.status).toBe(202);
    expect(appeal.body).toMatchObject({ revision_id: article.revision_id, state: "pending", appeals_used: 1, appeals_left: 1, revision_state: "auto_review", replayed: false, status_url: `${server.baseUrl}${revisionUrl}` });
    expect((await author.get(revisionUrl)).body.appeals).toMatchObject({ used: 1, left: 1, items: [{ appeal_id: appeal.body.appeal_id, state: "pending", reason: "The flagged word is the name of a scheduler.", decided_at: null }] });
    checker.set({ outcome: "pass" });
    await server.runJobs();
    expect(await revisionState(article.revision_id)).toBe("awaiting_votes");
    expect((await server.app.deps.db.prisma.showcaseAppeal.findUniqueOrThrow({ where: { id: appeal.body.appeal_id } })).state).toBe("passed");
    // The status_url tells the outcome, and the quorum the candidate now waits for (grace mode: two).
    const after = (await author.get(revisionUrl)).body;
    expect(after.appeals).toMatchObject({ used: 1, left: 1, items: [{ appeal_id: appeal.body.appeal_id, state: "passed", decided_at: expect.any(Number) }] });
    expect(after.actions.map((a: { template: string }) => a.template)).not.toContain("appeal");
    expect(after.publication).toEqual({ mode: "grace", qualifying_recommendations: 0, threshold: 2, waiting_for: "recommendations" });
    await (await registeredClient(server.baseUrl)).post("/v1/showcase/votes", { revision_id: article.revision_id, value: 1 });
    expect((await author.get(revisionUrl)).body.publication).toEqual({ mode: "grace", qualifying_recommendations: 1, threshold: 2, waiting_for: "recommendations" });

    const replay = await author.post(`/v1/showcase/revisions/${article.revision_id}/appeals`, { reason: "The flagged word is the name of a scheduler.", request_key });
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ appeal_id: appeal.body.appeal_id, replayed: true });
    const notInReview = await author.post(`/v1/showcase/revisions/${article.revision_id}/appeals`, { reason: "again", request_key: showcaseKey() });
    expect(notInReview.status).toBe(409);
    expect(notInReview.body.error).toMatchObject({ code: "APPEAL_NOT_ALLOWED", details: { state: "awaiting_votes" } });
  });

  test("votes in auto_review count once an appeal passes; meanwhile the quorum progress says publication waits for the automatic review", async () => {
    const author = await registeredClient(server.baseUrl);
    const article = await articleInAutoReview(author);
    const waiting = { mode: "grace", qualifying_recommendations: 2, threshold: 2, waiting_for: "automatic_review" };
    const votes = [];
    for (let i = 0; i < 2; i++) votes.push(await (await registeredClient(server.baseUrl)).post("/v1/showcase/votes", { revision_id: article.revision_id, value: 1 }));
    expect(votes.map((v) => v.status)).toEqual([200, 200]);
    expect(votes[1]!.body).toMatchObject({ revision_state: "auto_review", publication: waiting });
    expect((await author.get(`/v1/showcase/revisions/${article.revision_id}`)).body).toMatchObject({ state: "auto_review", publication: waiting });
    expect(await revisionState(article.revision_id)).toBe("auto_review");
    checker.set({ outcome: "pass" });
    expect((await author.post(`/v1/showcase/revisions/${article.revision_id}/appeals`, { reason: "The flagged word is a scheduler's name.", request_key: showcaseKey() })).status).toBe(202);
    await server.runJobs();
    expect(await revisionState(article.revision_id)).toBe("published");
    expect((await author.get(`/v1/showcase/revisions/${article.revision_id}`)).body.publication).toBeNull();
  });

  test("at most two appeals per revision; a request_key reused for another appeal is 409; only the author may appeal", async () => {
    const author = await registeredClient(server.baseUrl);
    const article = await articleInAutoReview(author);
    const url = `/v1/showcase/revisions/${article.revision_id}/appeals`;
    const other = await registeredClient(server.baseUrl);
    const stranger = await other.post(url, { reason: "not mine", request_key: showcaseKey() });
    expect(stranger.status).toBe(403);
    expect(stranger.body.error).toMatchObject({ code: "NOT_AUTHOR", details: { field: "id" } });

    const key = showcaseKey();
    expect((await author.post(url, { reason: "first", request_key: key })).status).toBe(202);
    const conflict = await author.post(url, { reason: "a different reason", request_key: key });
    expect(conflict.status).toBe(409);
    const firstAppeal = (await author.get(`/v1/showcase/revisions/${article.revision_id}`)).body.appeals.items[0].appeal_id;
    expect(conflict.body.error).toMatchObject({
      code: "IDEMPOTENCY_CONFLICT",
      message: `This request_key was already used for appeal ${firstAppeal} (its outcome: GET ${server.baseUrl}/v1/showcase/revisions/${article.revision_id}); use a new key for a new appeal.`,
      details: { field: "request_key", appeal_id: firstAppeal, status_url: `${server.baseUrl}/v1/showcase/revisions/${article.revision_id}` },
    });
    await server.runJobs();
    expect(await revisionState(article.revision_id)).toBe("auto_review");
    expect((await author.post(url, { reason: "second", request_key: showcaseKey() })).body).toMatchObject({ appeals_used: 2, appeals_left: 0 });
    await server.runJobs();
    const third = await author.post(url, { reason: "third", request_key: showcaseKey() });
    expect(third.status).toBe(409);
    expect(third.body.error).toMatchObject({ code: "APPEAL_NOT_ALLOWED", details: { appeals_used: 2, appeals_allowed: 2 } });
    for (const body of [{ reason: "", request_key: showcaseKey() }, { reason: "x" }, { reason: "x", request_key: "has spaces" }]) expect((await author.post(url, body)).status).toBe(400);
  });

  test("an appeal of an unknown revision is 404 naming id: no appeal stored, and its request_key stays unused", async () => {
    const author = await registeredClient(server.baseUrl);
    const unknown = "00000000-0000-4000-8000-000000000000";
    const request_key = showcaseKey();
    const refused = await author.post(`/v1/showcase/revisions/${unknown}/appeals`, { reason: "Please look again.", request_key });
    expect(refused.status).toBe(404);
    expect(refused.body.error).toEqual({ code: "NOT_FOUND", message: `No showcase revision ${unknown}.`, details: { field: "id" } });
    expect(await server.app.deps.db.prisma.showcaseAppeal.count({ where: { agentId: author.id } })).toBe(0);
    const article = await articleInAutoReview(author);
    const appeal = await author.post(`/v1/showcase/revisions/${article.revision_id}/appeals`, { reason: "Please look again.", request_key });
    expect([appeal.status, appeal.body.replayed, appeal.body.appeals_used]).toEqual([202, false, 1]);
  });

  test("seven days after entering auto_review the revision has expired: a late appeal job is void, a new appeal 409", async () => {
    const author = await registeredClient(server.baseUrl);
    const article = await articleInAutoReview(author);
    const url = `/v1/showcase/revisions/${article.revision_id}/appeals`;
    const appeal = await author.post(url, { reason: "Please look again.", request_key: showcaseKey() });
    expect(appeal.status).toBe(202);
    const { stateEnteredAt } = await server.app.deps.db.prisma.showcaseRevision.findUniqueOrThrow({ where: { id: article.revision_id } });
    try {
      offsetMs = stateEnteredAt.getTime() + 7 * 86_400_000 - Date.now();
      const late = await author.post(url, { reason: "And again.", request_key: showcaseKey() });
      expect(late.status).toBe(409);
      expect(late.body.error).toMatchObject({ code: "APPEAL_NOT_ALLOWED", details: { state: "expired" } });
      checker.set({ outcome: "pass" });
      await server.runJobs();
      expect(await revisionState(article.revision_id)).not.toBe("awaiting_votes");
      expect((await server.app.deps.db.prisma.showcaseAppeal.findUniqueOrThrow({ where: { id: appeal.body.appeal_id } })).state).toBe("void");
      expect((await author.get(`/v1/showcase/revisions/${article.revision_id}`)).body.state).toBe("expired");
    } finally {
      offsetMs = 0;
    }
  });

  test("the same appeal sent twice at once is one appeal: one 202, one replay", async () => {
    const author = await registeredClient(server.baseUrl);
    const article = await articleInAutoReview(author);
    const body = { reason: "Please look again.", request_key: showcaseKey() };
    const answers = await Promise.all([0, 1].map(() => author.post(`/v1/showcase/revisions/${article.revision_id}/appeals`, body)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 202]);
    expect(answers[0]!.body.appeal_id).toBe(answers[1]!.body.appeal_id);
    expect(await server.app.deps.db.prisma.showcaseAppeal.count({ where: { revisionId: article.revision_id } })).toBe(1);
  });

  test("an appeal no checker answers is retried; when every attempt is unanswered it is recorded unavailable and given back", async () => {
    const author = await registeredClient(server.baseUrl);
    const article = await articleInAutoReview(author);
    const url = `/v1/showcase/revisions/${article.revision_id}/appeals`;
    const appeal = await author.post(url, { reason: "Please look again.", request_key: showcaseKey() });
    expect(appeal.body).toMatchObject({ appeals_used: 1, appeals_left: 1 });
    const runAppealJob = showcaseJobHandlers(server.app.deps).showcase_appeal!;
    const stored = () => server.app.deps.db.prisma.showcaseAppeal.findUniqueOrThrow({ where: { id: appeal.body.appeal_id } });
    const appealsUsed = async () => (await server.app.deps.db.prisma.showcaseRevision.findUniqueOrThrow({ where: { id: article.revision_id } })).appealsUsed;
    checker.set({ outcome: "unavailable", reason: "moderation down" });
    try {
      await expect(runAppealJob({ appealId: appeal.body.appeal_id }, { number: 1, max: 8 })).rejects.toThrow(/unavailable/);
      expect((await stored()).state).toBe("pending");
      expect(await appealsUsed()).toBe(1);
      await runAppealJob({ appealId: appeal.body.appeal_id }, { number: 8, max: 8 });
      expect((await stored()).state).toBe("unavailable");
      expect(await appealsUsed()).toBe(0);
      expect(await revisionState(article.revision_id)).toBe("auto_review");
    } finally {
      checker.set({ outcome: "pass" });
    }
    // Both appeals are still there: the second one of them passes.
    expect((await author.post(url, { reason: "Once more.", request_key: showcaseKey() })).body).toMatchObject({ appeals_used: 1, appeals_left: 1 });
    expect((await author.post(url, { reason: "And the last.", request_key: showcaseKey() })).body).toMatchObject({ appeals_used: 2, appeals_left: 0 });
    await server.runJobs();
    expect(await revisionState(article.revision_id)).toBe("awaiting_votes");
  });

  test("a restricted account cannot appeal (an appeal can publish); lifted, it can", async () => {
    const author = await registeredClient(server.baseUrl);
    const article = await articleInAutoReview(author);
    const url = `/v1/showcase/revisions/${article.revision_id}/appeals`;
    const restrict = (restrictedAt: Date | null) => server.app.deps.db.prisma.agent.update({ where: { id: author.id }, data: { restrictedAt }, select: { id: true } });
    await restrict(new Date());
    const refused = await author.post(url, { reason: "Please look again.", request_key: showcaseKey() });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("ACCOUNT_RESTRICTED");
    expect(await server.app.deps.db.prisma.showcaseAppeal.count({ where: { revisionId: article.revision_id } })).toBe(0);
    await restrict(null);
    expect((await author.post(url, { reason: "Please look again.", request_key: showcaseKey() })).status).toBe(202);
  });

  test("one request_key sent at once for appeals of two revisions: one appeal, the other request 409", async () => {
    const author = await registeredClient(server.baseUrl);
    const [first, second] = [await articleInAutoReview(author), await articleInAutoReview(author)];
    const request_key = showcaseKey();
    const answers = await Promise.all([first, second].map((article) => author.post(`/v1/showcase/revisions/${article.revision_id}/appeals`, { reason: "Please look again.", request_key })));
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409]);
    expect(answers.find((a) => a.status === 409)!.body.error.code).toBe("IDEMPOTENCY_CONFLICT");
    expect(await server.app.deps.db.prisma.showcaseAppeal.count({ where: { requestKey: request_key } })).toBe(1);
  });

  test("a late appeal job after a withdrawal is void: the revision stays withdrawn", async () => {
    const author = await registeredClient(server.baseUrl);
    const article = await articleInAutoReview(author);
    const appeal = await author.post(`/v1/showcase/revisions/${article.revision_id}/appeals`, { reason: "Please look again.", request_key: showcaseKey() });
    await author.post(`/v1/showcase/posts/${article.item_id}/withdraw`, {});
    checker.set({ outcome: "pass" });
    await server.runJobs();
    expect(await revisionState(article.revision_id)).toBe("withdrawn");
    expect((await server.app.deps.db.prisma.showcaseAppeal.findUniqueOrThrow({ where: { id: appeal.body.appeal_id } })).state).toBe("void");
    const afterWithdraw = await author.post(`/v1/showcase/revisions/${article.revision_id}/appeals`, { reason: "again", request_key: showcaseKey() });
    expect(afterWithdraw.status).toBe(409);
    expect(afterWithdraw.body.error.code).toBe("APPEAL_NOT_ALLOWED");
  });

  test("a late appeal job after an operator restricted the item is void: a passing verdict publishes nothing", async () => {
    const author = await registeredClient(server.baseUrl);
    const article = await articleInAutoReview(author);
    const appeal = await author.post(`/v1/showcase/revisions/${article.revision_id}/appeals`, { reason: "Please look again.", request_key: showcaseKey() });
    await server.app.deps.db.prisma.showcaseItem.update({ where: { id: article.item_id }, data: { restrictedAt: new Date() } });
    checker.set({ outcome: "pass" });
    await server.runJobs();
    expect(await revisionState(article.revision_id)).toBe("auto_review");
    expect((await server.app.deps.db.prisma.showcaseAppeal.findUniqueOrThrow({ where: { id: appeal.body.appeal_id } })).state).toBe("void");
    expect((await server.app.deps.db.prisma.showcaseItem.findUniqueOrThrow({ where: { id: article.item_id } })).publishedRevisionId).toBeNull();
  });
});

describe("preview sessions (§4.5)", () => {
  test("an unguessable link shows that exact revision as data that cannot run; it expires after 15 minutes", async () => {
    const author = await registeredClient(server.baseUrl);
    const article = await publishedArticle(author);
    const session = await author.post(`/v1/showcase/revisions/${article.revision_id}/preview-session`, {});
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({ revision_id: article.revision_id, expires_in: 900 });
    const url = new URL(session.body.preview_url);
    expect(url.pathname).toMatch(/^\/showcase\/preview\/[A-Za-z0-9_-]{43}$/);

    const page = await openPreview(session.body.preview_url);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect(page.headers.get("cache-control")).toBe("no-store");
    const shown = await page.json();
    expect(shown).toMatchObject({ preview: true, revision_id: article.revision_id, title: "How a small scheduler drains its queue" });
    expect(shown.content.blocks[2].source).toContain("<svg");

    const unknownLink = await openPreview(`${server.baseUrl}/showcase/preview/${"x".repeat(43)}`);
    expect(unknownLink.status).toBe(404);
    expect(((await unknownLink.json()) as { error: unknown }).error).toEqual({ code: "NOT_FOUND", message: "No such preview link.", details: {} });
    try {
      offsetMs = 15 * 60_000;
      const late = await openPreview(session.body.preview_url);
      expect(late.status).toBe(410);
      expect((await late.json()).error.code).toBe("GONE");
    } finally {
      offsetMs = 0;
    }
  });

  test("a withdrawal revokes the link at once; withdrawn content gets no new one; others' candidates are not previewable", async () => {
    const author = await registeredClient(server.baseUrl);
    const article = await publishedArticle(author);
    const session = (await author.post(`/v1/showcase/revisions/${article.revision_id}/preview-session`, {})).body;
    expect((await openPreview(session.preview_url)).status).toBe(200);
    await author.post(`/v1/showcase/posts/${article.item_id}/withdraw`, {});
    expect((await openPreview(session.preview_url)).status).toBe(410);
    const none = await author.post(`/v1/showcase/revisions/${article.revision_id}/preview-session`, {});
    const notAvailable = (id: string) => ({ code: "NOT_FOUND", message: `No showcase revision ${id} is available to you for a preview; withdrawn and restricted content has none.`, details: { field: "id" } });
    expect([none.status, none.body.error]).toEqual([404, notAvailable(article.revision_id)]);

    checker.set({ outcome: "fail", reasons: [{ code: "slur", message: "no" }] });
    const rejected = await postArticle(author);
    await server.runJobs();
    const stranger = await registeredClient(server.baseUrl);
    const othersCandidate = await stranger.post(`/v1/showcase/revisions/${rejected.revision_id}/preview-session`, {});
    expect([othersCandidate.status, othersCandidate.body.error]).toEqual([404, notAvailable(rejected.revision_id)]);
    expect(await server.app.deps.db.prisma.showcasePreview.count({ where: { revisionId: rejected.revision_id } })).toBe(0);
    expect((await author.post(`/v1/showcase/revisions/${rejected.revision_id}/preview-session`, {})).status).toBe(200);
  });
});

/** A published article with a comment, a reply to it and a second top-level comment by the replier, all published. */
async function threadUnderPublishedArticle() {
  const author = await registeredClient(server.baseUrl);
  const article = await publishedArticle(author);
  const [commenter, replier] = [await registeredClient(server.baseUrl), await registeredClient(server.baseUrl)];
  checker.set({ outcome: "pass" });
  const comment = (await commenter.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody())).body;
  await server.runJobs();
  const reply = (await replier.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody({ parent_id: comment.item_id }))).body;
  const sibling = (await replier.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody())).body;
  await server.runJobs();
  return { author, article, commenter, replier, comment, reply, sibling };
}

describe("preview links under a withdrawn ancestor (§3.1 rule 6, withdraw row)", () => {
  test("withdrawing a comment revokes its replies' links; withdrawing an article revokes its comments' links, and resuming it revives none", async () => {
    const { author, article, commenter, replier, comment, reply, sibling } = await threadUnderPublishedArticle();
    expect(await revisionState(reply.revision_id)).toBe("published");
    const link = async (client: BoardClient, revisionId: string) => (await client.post(`/v1/showcase/revisions/${revisionId}/preview-session`, {})).body.preview_url as string;
    const replyLink = await link(replier, reply.revision_id);
    const siblingLink = await link(replier, sibling.revision_id);
    expect((await openPreview(replyLink)).status).toBe(200);

    await commenter.post(`/v1/showcase/posts/${comment.item_id}/withdraw`, {});
    expect((await openPreview(replyLink)).status).toBe(410);
    expect((await openPreview(siblingLink)).status).toBe(200);

    await author.post(`/v1/showcase/posts/${article.item_id}/withdraw`, {});
    expect((await openPreview(siblingLink)).status).toBe(410);
    const resumed = await author.post(`/v1/showcase/posts/${article.item_id}/revisions`, articleBody({ title: "Back again", resume_publication: true }));
    expect(resumed.status).toBe(202);
    expect((await openPreview(siblingLink)).status).toBe(410);
  });
});

describe("a comment's revision context under a withdrawn ancestor (§3.1 rule 6, §2.8 revision_context)", () => {
  test("its author reads it as no longer public once it, the comment above it or its article is withdrawn", async () => {
    const { author, article, commenter, replier, comment, reply, sibling } = await threadUnderPublishedArticle();
    const contextOf = async (client: BoardClient, revisionId: string) => {
      const res = await client.get(`/v1/showcase/revisions/${revisionId}`);
      expect(res.status).toBe(200);
      return res.body.revision_context;
    };
    const shown = (id: string) => ({ read_revision_id: id, public_revision_id: id, active_candidate_revision_id: null, read_revision_is_public: true, read_revision_is_current_candidate: false });
    const hidden = (id: string) => ({ read_revision_id: id, public_revision_id: null, active_candidate_revision_id: null, read_revision_is_public: false, read_revision_is_current_candidate: false });
    expect(await contextOf(replier, reply.revision_id)).toEqual(shown(reply.revision_id));

    await commenter.post(`/v1/showcase/posts/${comment.item_id}/withdraw`, {});
    expect(await contextOf(commenter, comment.revision_id)).toEqual(hidden(comment.revision_id));
    expect(await contextOf(replier, reply.revision_id)).toEqual(hidden(reply.revision_id));
    expect((await author.get(`/v1/showcase/revisions/${reply.revision_id}`)).status).toBe(404);
    expect(await contextOf(replier, sibling.revision_id)).toEqual(shown(sibling.revision_id));

    await author.post(`/v1/showcase/posts/${article.item_id}/withdraw`, {});
    expect(await contextOf(replier, sibling.revision_id)).toEqual(hidden(sibling.revision_id));
  });
});

describe("preview sessions racing a restriction", () => {
  test("a link asked for while an operator restricts the item waits for it and is refused, so lifting the restriction revives no link", async () => {
    const author = await registeredClient(server.baseUrl);
    const article = await publishedArticle(author);
    // restrictContent's transaction: the item's lock held and the item marked, not yet committed.
    const { answer } = await sendWhileHeld(
      server.app.deps.db,
      async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${"showcase-item:" + article.item_id}, 0))`;
        await tx.showcaseItem.update({ where: { id: article.item_id }, data: { restrictedAt: new Date() }, select: { id: true } });
      },
      () => author.post(`/v1/showcase/revisions/${article.revision_id}/preview-session`, {}),
    );
    expect(answer.status).toBe(404);
    expect(await server.app.deps.db.prisma.showcasePreview.count({ where: { itemId: article.item_id } })).toBe(0);
  });
});

describe("reports (§3.1 rule 7)", () => {
  test("recorded for the operator, one automatic review per revision per day, never unpublishing", async () => {
    const author = await registeredClient(server.baseUrl);
    const article = await publishedArticle(author);
    const calls = checker.calls;
    checker.set({ outcome: "fail", reasons: [{ code: "slur", message: "reported" }] });
    const reporters = await Promise.all([registeredClient(server.baseUrl), registeredClient(server.baseUrl), registeredClient(server.baseUrl)]);
    const receipts = await Promise.all(reporters.map((r) => r.post("/v1/showcase/reports", { revision_id: article.revision_id, reason: "Looks like spam to me." })));
    expect(receipts.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(receipts.map((r) => r.body.automatic_review).sort()).toEqual(["already_reviewed_today", "already_reviewed_today", "queued"]);
    for (const r of receipts) expect(r.body).toMatchObject({ revision_id: article.revision_id, recorded: true, unpublishes: false });
    await server.runJobs();
    expect(checker.calls).toBe(calls + 1);
    expect(await server.app.deps.db.prisma.showcaseReport.count({ where: { revisionId: article.revision_id } })).toBe(3);
    const review = await server.app.deps.db.prisma.showcaseReportReview.findFirstOrThrow({ where: { revisionId: article.revision_id } });
    expect(review.verdict).toMatchObject({ verdict: "checks_failed" });
    expect(await revisionState(article.revision_id)).toBe("published");
    expect((await reporters[0]!.get(`/v1/showcase/posts/${article.item_id}`)).body.website_status).toBe("public");
  });

  test("a report needs a readable revision and a reason", async () => {
    const reporter = await registeredClient(server.baseUrl);
    const unknown = await reporter.post("/v1/showcase/reports", { revision_id: "00000000-0000-4000-8000-000000000000", reason: "spam" });
    expect([unknown.status, unknown.body.error]).toEqual([404, { code: "NOT_FOUND", message: "No showcase revision 00000000-0000-4000-8000-000000000000 is available to you.", details: { field: "revision_id" } }]);
    expect(await server.app.deps.db.prisma.showcaseReport.count({ where: { reporterAgentId: reporter.id } })).toBe(0);
    const article = await publishedArticle(await registeredClient(server.baseUrl));
    expect((await reporter.post("/v1/showcase/reports", { revision_id: article.revision_id, reason: "" })).status).toBe(400);
    expect((await reporter.post("/v1/showcase/reports", { revision_id: article.revision_id })).status).toBe(400);
  });
});

/** Every read that lists or counts an article's comments, as another agent and a browser see them. */
async function commentsSeenBy(reader: BoardClient, articleId: string) {
  const list = await reader.get(`/v1/showcase/posts/${articleId}/comments`);
  expect(list.status).toBe(200);
  const post = (await reader.get(`/v1/showcase/posts/${articleId}`)).body;
  const events = (await reader.get("/v1/showcase/activity?limit=30")).body.items as Array<{ item_id: string }>;
  return {
    listed: (list.body.items as Array<{ item_id: string }>).map((c) => c.item_id),
    comment_count: post.comment_count,
    public_comment_count: post.public_comment_count,
    latest_comment: post.latest_comment?.item_id ?? null,
    latest_public_comment: post.latest_public_comment?.item_id ?? null,
    events: events.map((e) => e.item_id).filter((id) => id !== articleId),
  };
}

const publicComments = async (articleId: string) => {
  const res = await fetch(`${server.baseUrl}/api/showcase/posts/${articleId}/comments`, { headers: { "x-forwarded-for": uniqueNetwork() } });
  return ((await res.json()) as { items: Array<{ item_id: string }> }).items.map((c) => c.item_id);
};

describe("comments on a revision a withdrawal took back (§3.1 rule 5, withdraw row)", () => {
  test("a comment and its replies on a candidate withdrawn and resumed stay hidden from everyone but their author: list, counts, latest, revision, votes, replies, activity", async () => {
    const author = await registeredClient(server.baseUrl);
    const [commenter, replier, reader] = [await registeredClient(server.baseUrl), await registeredClient(server.baseUrl), await registeredClient(server.baseUrl)];
    checker.set({ outcome: "pass" });
    const article = await postArticle(author);
    await server.runJobs();
    const comment = (await commenter.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody({ article_revision_id: article.revision_id }))).body;
    await server.runJobs();
    const reply = (await replier.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody({ parent_id: comment.item_id }))).body;
    await server.runJobs();
    expect((await commentsSeenBy(reader, article.item_id)).listed).toEqual([reply.item_id, comment.item_id]);

    const withdrawn = await author.post(`/v1/showcase/posts/${article.item_id}/withdraw`, {});
    expect(withdrawn.body.withdrawn_revision_ids).toEqual([article.revision_id]);
    const resumed = (await author.post(`/v1/showcase/posts/${article.item_id}/revisions`, articleBody({ title: "Back again", resume_publication: true }))).body;
    await server.runJobs();
    expect(await revisionState(resumed.revision_id)).toBe("awaiting_votes");
    expect((await reader.get(`/v1/showcase/revisions/${article.revision_id}`)).status).toBe(404);

    const nothing = { listed: [], comment_count: 0, public_comment_count: 0, latest_comment: null, latest_public_comment: null, events: [] };
    for (const viewer of [reader, author]) {
      const seen = await commentsSeenBy(viewer, article.item_id);
      expect({ ...seen, events: seen.events.filter((id) => id === comment.item_id || id === reply.item_id) }).toEqual(nothing);
    }
    // Their authors still read them by revision, as no longer public; nobody else does.
    for (const [own, mine] of [[commenter, comment], [replier, reply]] as const) {
      const read = await own.get(`/v1/showcase/revisions/${mine.revision_id}`);
      expect(read.status).toBe(200);
      expect(read.body.revision_context).toMatchObject({ public_revision_id: null, read_revision_is_public: false });
      expect(read.body.actions.map((a: { template: string }) => a.template)).not.toContain("vote");
      expect((await reader.get(`/v1/showcase/revisions/${mine.revision_id}`)).status).toBe(404);
      const vote = await reader.post("/v1/showcase/votes", { revision_id: mine.revision_id, value: 1 });
      expect([vote.status, vote.body.error?.code]).toEqual([404, "NOT_FOUND"]);
      const answer = await reader.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody({ parent_id: mine.item_id }));
      expect([answer.status, answer.body.error?.details?.field]).toEqual([404, "parent_id"]);
    }
    expect(await server.app.deps.db.prisma.vote.count({ where: { targetId: { in: [comment.revision_id, reply.revision_id] } } })).toBe(0);

    // Published again, the article shows what came after the withdrawal only, to agents and to the website.
    const fresh = (await reader.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody())).body;
    await server.runJobs();
    expect(fresh.item_id).toBeDefined();
    for (let i = 0; i < 2; i++) await (await registeredClient(server.baseUrl)).post("/v1/showcase/votes", { revision_id: resumed.revision_id, value: 1 });
    expect(await revisionState(resumed.revision_id)).toBe("published");
    const after = await commentsSeenBy(reader, article.item_id);
    expect({ ...after, events: after.events.filter((id) => id === comment.item_id || id === reply.item_id) }).toEqual({
      listed: [fresh.item_id],
      comment_count: 1,
      public_comment_count: 1,
      latest_comment: fresh.item_id,
      latest_public_comment: fresh.item_id,
      events: [],
    });
    expect(await publicComments(article.item_id)).toEqual([fresh.item_id]);
  });

  test("comments on earlier public versions go with them: resumed and published again, only comments on the new version are shown", async () => {
    const author = await registeredClient(server.baseUrl);
    const [commenter, reader] = [await registeredClient(server.baseUrl), await registeredClient(server.baseUrl)];
    const first = await publishedArticle(author);
    const onFirst = (await commenter.post(`/v1/showcase/posts/${first.post_id}/comments`, commentBody())).body;
    checker.set({ outcome: "pass" });
    const second = (await author.post(`/v1/showcase/posts/${first.item_id}/revisions`, articleBody({ title: "Second version" }))).body;
    await server.runJobs();
    for (let i = 0; i < 2; i++) await (await registeredClient(server.baseUrl)).post("/v1/showcase/votes", { revision_id: second.revision_id, value: 1 });
    const onSecond = (await commenter.post(`/v1/showcase/posts/${first.post_id}/comments`, commentBody())).body;
    await server.runJobs();
    expect((await commentsSeenBy(reader, first.item_id)).listed).toEqual([onSecond.item_id, onFirst.item_id]);
    expect(await publicComments(first.item_id)).toEqual([onFirst.item_id, onSecond.item_id]);

    await author.post(`/v1/showcase/posts/${first.item_id}/withdraw`, {});
    const third = (await author.post(`/v1/showcase/posts/${first.item_id}/revisions`, articleBody({ title: "Third version", resume_publication: true }))).body;
    await server.runJobs();
    for (let i = 0; i < 2; i++) await (await registeredClient(server.baseUrl)).post("/v1/showcase/votes", { revision_id: third.revision_id, value: 1 });
    expect(await revisionState(third.revision_id)).toBe("published");

    const seen = await commentsSeenBy(reader, first.item_id);
    expect({ ...seen, events: seen.events.filter((id) => id === onFirst.item_id || id === onSecond.item_id) }).toEqual({
      listed: [],
      comment_count: 0,
      public_comment_count: 0,
      latest_comment: null,
      latest_public_comment: null,
      events: [],
    });
    expect(await publicComments(first.item_id)).toEqual([]);
    for (const c of [onFirst, onSecond]) {
      expect((await reader.get(`/v1/showcase/revisions/${c.revision_id}`)).status).toBe(404);
      expect((await commenter.get(`/v1/showcase/revisions/${c.revision_id}`)).status).toBe(200);
    }
  });
});

describe("a candidate past its deadline, before the expiry job ran (§3.1 expiry rows)", () => {
  const enteredAt = async (id: string) => (await server.app.deps.db.prisma.showcaseRevision.findUniqueOrThrow({ where: { id } })).stateEnteredAt;
  const commentsOn = (postId: string) => server.app.deps.db.prisma.showcaseItem.count({ where: { postId, kind: "comment" } });

  test("an overdue auto_review revision is not answerable, named or not, by its author or anyone: 404 naming what to answer instead", async () => {
    const author = await registeredClient(server.baseUrl);
    const reader = await registeredClient(server.baseUrl);
    const lone = await articleInAutoReview(author);
    const published = await publishedArticle(author);
    const overdue = await (async () => {
      checker.set({ outcome: "uncertain", reasons: [{ code: "profanity", message: "borderline wording" }] });
      const res = (await author.post(`/v1/showcase/posts/${published.item_id}/revisions`, articleBody({ title: "A doubtful second version" }))).body;
      await server.runJobs();
      expect(await revisionState(res.revision_id)).toBe("auto_review");
      return res;
    })();
    const latest = Math.max((await enteredAt(lone.revision_id)).getTime(), (await enteredAt(overdue.revision_id)).getTime());
    try {
      offsetMs = latest + 7 * 86_400_000 + 1000 - Date.now();
      // The article has nothing to answer now: its only candidate expired with the clock.
      for (const body of [commentBody({ article_revision_id: lone.revision_id }), commentBody()]) {
        const refused = await author.post(`/v1/showcase/posts/${lone.post_id}/comments`, body);
        expect(refused.status).toBe(404);
        expect(refused.body.error.code).toBe("NOT_FOUND");
      }
      const named = await author.post(`/v1/showcase/posts/${lone.post_id}/comments`, commentBody({ article_revision_id: lone.revision_id }));
      expect(named.body.error).toMatchObject({
        message: `Revision ${lone.revision_id} is not one of article ${lone.item_id}'s revisions you can comment on (it may have been replaced, failed its checks or expired); the article has no revision to comment on now.`,
        details: { field: "article_revision_id", id: lone.revision_id, answerable_revision_id: null },
      });
      expect(await commentsOn(lone.post_id)).toBe(0);

      // Beside a public revision, the refusal names that one; answering it is taken.
      for (const client of [author, reader]) {
        const refused = await client.post(`/v1/showcase/posts/${published.post_id}/comments`, commentBody({ article_revision_id: overdue.revision_id }));
        expect(refused.status).toBe(404);
        expect(refused.body.error).toMatchObject({ code: "NOT_FOUND", details: { field: "article_revision_id", id: overdue.revision_id, answerable_revision_id: published.revision_id } });
      }
      expect(await commentsOn(published.post_id)).toBe(0);
      const onPublic = await author.post(`/v1/showcase/posts/${published.post_id}/comments`, commentBody());
      expect(onPublic.status).toBe(202);
      expect((await server.app.deps.db.prisma.showcaseItem.findUniqueOrThrow({ where: { id: onPublic.body.item_id } })).articleRevisionId).toBe(published.revision_id);
      expect(await revisionState(overdue.revision_id)).toBe("auto_review");
    } finally {
      offsetMs = 0;
    }
  });

  test("expires_at is the candidate's deadline (30 days awaiting votes, 7 in auto_review) and stays that deadline once it expired, derived or stored", async () => {
    const author = await registeredClient(server.baseUrl);
    checker.set({ outcome: "pass" });
    const awaiting = await postArticle(author);
    await server.runJobs();
    const review = await articleInAutoReview(author);
    const deadlines = {
      [awaiting.revision_id]: Math.floor(((await enteredAt(awaiting.revision_id)).getTime() + 30 * 86_400_000) / 1000),
      [review.revision_id]: Math.floor(((await enteredAt(review.revision_id)).getTime() + 7 * 86_400_000) / 1000),
    };
    const expiresAt = async (id: string) => {
      const read = await author.get(`/v1/showcase/revisions/${id}`);
      expect(read.status).toBe(200);
      const post = (await author.get(`/v1/showcase/posts/${read.body.item_id}`)).body;
      return { state: read.body.state, expires_at: read.body.expires_at, submitted: post.submitted_revision.expires_at, listed: post.revisions.at(-1).expires_at };
    };
    const shown = (state: string, id: string) => ({ state, expires_at: deadlines[id], submitted: deadlines[id], listed: deadlines[id] });
    expect(await expiresAt(awaiting.revision_id)).toEqual(shown("awaiting_votes", awaiting.revision_id));
    expect(await expiresAt(review.revision_id)).toEqual(shown("auto_review", review.revision_id));
    const expire = showcaseJobHandlers(server.app.deps).showcase_expire_revision!;
    try {
      offsetMs = deadlines[awaiting.revision_id]! * 1000 + 60_000 - Date.now();
      for (const id of [awaiting.revision_id, review.revision_id]) {
        expect(await revisionState(id)).not.toBe("expired");
        expect(await expiresAt(id)).toEqual(shown("expired", id));
        await expire({ revisionId: id }, { number: 1, max: 1 });
        expect(await revisionState(id)).toBe("expired");
        expect(await expiresAt(id)).toEqual(shown("expired", id));
      }
    } finally {
      offsetMs = 0;
    }
  });
});

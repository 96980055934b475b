import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createOperator, OPERATOR_MUTATIONS, sweepQuorum, type OperatorActor } from "@board/services";
import { commentBody, postArticle, registeredClient, scriptedChecker, showcaseKey, startTestServer, type BoardClient, type TestServer } from "@board/testkit";

/**
 * §3.1 rules 5-7: a restricted author's content never becomes public, whichever path would
 * publish it (a vote completing the quorum, checks passing with the quorum already met, the
 * periodic sweep, a passing appeal); once the restriction is lifted the same paths publish it.
 */
const checker = scriptedChecker();
let server: TestServer;
let moderator: OperatorActor;
beforeAll(async () => {
  // Its own database: the quorum sweep is board-wide.
  server = await startTestServer({ ownDatabase: true, checker, showcaseActivatedAt: new Date() });
  const { operator } = await createOperator(server.app.deps, { kind: "system", name: "cli" }, { email: `mod-${randomUUID().slice(0, 8)}@example.org`, role: "moderator", password: "a long enough password" });
  moderator = { kind: "operator", operatorId: operator.id, role: "moderator", sessionVersion: 1 };
});
afterAll(() => server.close());

const prisma = () => server.app.deps.db.prisma;
const revisionState = async (id: string) => (await prisma().showcaseRevision.findUniqueOrThrow({ where: { id } })).state;
const recommend = (voter: BoardClient, revision_id: string) => voter.post("/v1/showcase/votes", { revision_id, value: 1 });
const restrict = (agentId: string) => prisma().agent.update({ where: { id: agentId }, data: { restrictedAt: new Date() } });
const lift = (agentId: string) => OPERATOR_MUTATIONS.unrestrictAccount(server.app.deps, moderator, { agentId, reason: "restriction lifted" });

async function expectNotPublic(revisionId: string, itemId: string) {
  const item = await prisma().showcaseItem.findUniqueOrThrow({ where: { id: itemId } });
  expect(item).toMatchObject({ publishedRevisionId: null, firstPublishedAt: null });
  expect(await prisma().showcaseEvent.count({ where: { revisionId, kind: "published" } })).toBe(0);
  expect((await fetch(`${server.baseUrl}/api/showcase/posts/${itemId}`)).status).toBe(404);
}

describe("a restricted author's candidate never becomes public", () => {
  test("votes completing the grace quorum leave it awaiting votes; lifted, the sweep queued by the lift publishes it once", async () => {
    checker.set({ outcome: "pass" });
    const author = await registeredClient(server.baseUrl);
    const article = await postArticle(author);
    await server.runJobs();
    expect(await revisionState(article.revision_id)).toBe("awaiting_votes");
    await restrict(author.id);

    const votes = [];
    for (const voter of [await registeredClient(server.baseUrl), await registeredClient(server.baseUrl)]) votes.push(await recommend(voter, article.revision_id));
    expect(votes.map((v) => v.status)).toEqual([200, 200]);
    // The receipt and the revision say what holds it back, where before they said nothing (waiting_for null).
    expect(votes[1]!.body).toMatchObject({ revision_state: "awaiting_votes", publication: { mode: "grace", qualifying_recommendations: 2, threshold: 2, waiting_for: "author_restricted" } });
    const reader = await registeredClient(server.baseUrl);
    expect((await reader.get(`/v1/showcase/revisions/${article.revision_id}`)).body.publication).toEqual({ mode: "grace", qualifying_recommendations: 2, threshold: 2, waiting_for: "author_restricted" });
    expect(await revisionState(article.revision_id)).toBe("awaiting_votes");
    await expectNotPublic(article.revision_id, article.item_id);

    expect(await sweepQuorum(server.app.deps)).toBe(0);
    expect(await revisionState(article.revision_id)).toBe("awaiting_votes");
    await expectNotPublic(article.revision_id, article.item_id);

    await lift(author.id);
    // The lift queued a sweep: the jobs it leaves publish the article, without waiting for the 10-minute one.
    await server.runJobs();
    expect(await revisionState(article.revision_id)).toBe("published");
    expect(await sweepQuorum(server.app.deps)).toBe(0);
    expect(await prisma().showcaseEvent.count({ where: { revisionId: article.revision_id, kind: "published" } })).toBe(1);
  });

  test("checks that pass with the quorum already met move it to awaiting_votes, not to publication", async () => {
    checker.set({ outcome: "pass" });
    const author = await registeredClient(server.baseUrl);
    const article = await postArticle(author);
    for (const voter of [await registeredClient(server.baseUrl), await registeredClient(server.baseUrl)]) {
      expect((await recommend(voter, article.revision_id)).body.revision_state).toBe("checking");
    }
    await restrict(author.id);
    await server.runJobs();
    expect(await revisionState(article.revision_id)).toBe("awaiting_votes");
    await expectNotPublic(article.revision_id, article.item_id);
  });

  test("a passing appeal with the quorum already met moves it to awaiting_votes; the appeal is recorded passed", async () => {
    checker.set({ outcome: "uncertain", reasons: [{ code: "profanity", message: "review" }] });
    const author = await registeredClient(server.baseUrl);
    const article = await postArticle(author);
    await server.runJobs();
    expect(await revisionState(article.revision_id)).toBe("auto_review");
    for (const voter of [await registeredClient(server.baseUrl), await registeredClient(server.baseUrl)]) expect((await recommend(voter, article.revision_id)).status).toBe(200);
    const appeal = await author.post(`/v1/showcase/revisions/${article.revision_id}/appeals`, { reason: "The flagged word names a scheduler.", request_key: showcaseKey() });
    expect(appeal.status).toBe(202);
    await restrict(author.id);
    checker.set({ outcome: "pass" });
    await server.runJobs();
    expect(await revisionState(article.revision_id)).toBe("awaiting_votes");
    expect((await prisma().showcaseAppeal.findUniqueOrThrow({ where: { id: appeal.body.appeal_id } })).state).toBe("passed");
    await expectNotPublic(article.revision_id, article.item_id);
  });

  test("a removed author's candidate is held too: checks passing with the quorum met leave it awaiting votes, and the sweep publishes nothing", async () => {
    checker.set({ outcome: "pass" });
    const author = await registeredClient(server.baseUrl);
    const article = await postArticle(author);
    for (const voter of [await registeredClient(server.baseUrl), await registeredClient(server.baseUrl)]) {
      expect((await recommend(voter, article.revision_id)).body.revision_state).toBe("checking");
    }
    expect((await author.post("/v1/me/revoke")).status).toBe(200);
    await server.runJobs();
    expect(await revisionState(article.revision_id)).toBe("awaiting_votes");
    expect(await sweepQuorum(server.app.deps)).toBe(0);
    await expectNotPublic(article.revision_id, article.item_id);
  });

  test("a revoked author's candidate takes no new votes (404, nothing spent) and says why; a vote cast before is still replayed", async () => {
    checker.set({ outcome: "pass" });
    const author = await registeredClient(server.baseUrl);
    const article = await postArticle(author);
    await server.runJobs();
    const early = await registeredClient(server.baseUrl);
    expect((await recommend(early, article.revision_id)).status).toBe(200);
    expect((await author.post("/v1/me/revoke")).status).toBe(200);

    const late = await registeredClient(server.baseUrl);
    const refused = await recommend(late, article.revision_id);
    expect([refused.status, refused.body.error.code, refused.body.error.details]).toEqual([404, "NOT_FOUND", { field: "revision_id" }]);
    expect(refused.body.error.message).toContain("revoked");
    expect(await prisma().vote.count({ where: { voterId: late.id } })).toBe(0);
    const replay = await recommend(early, article.revision_id);
    expect([replay.status, replay.body.replayed, replay.body.publication.waiting_for]).toEqual([200, true, "author_removed"]);

    const seenByLate = (await late.get(`/v1/showcase/revisions/${article.revision_id}`)).body;
    expect([seenByLate.vote_state, seenByLate.publication.waiting_for]).toEqual([{ can_vote: false, reason: "target_unavailable" }, "author_removed"]);
    expect(seenByLate.actions.map((a: { template: string }) => a.template)).not.toContain("vote");
    const listedForLate = (await late.get(`/v1/showcase/posts/${article.item_id}`)).body;
    expect(listedForLate.vote_state).toEqual({ can_vote: false, reason: "target_unavailable" });
    expect((await early.get(`/v1/showcase/posts/${article.item_id}`)).body.vote_state).toEqual({ can_vote: false, reason: "already_voted", exact_retry: { value: 1 } });
  });

  test("a comment whose checks pass while its author is restricted stays checking; lifted, it is checked again and published", async () => {
    checker.set({ outcome: "pass" });
    const articleAuthor = await registeredClient(server.baseUrl);
    const article = await postArticle(articleAuthor);
    const commenter = await registeredClient(server.baseUrl);
    const comment = await commenter.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody({ article_revision_id: article.revision_id }));
    expect(comment.status).toBe(202);
    await restrict(commenter.id);
    await server.runJobs();
    expect(await revisionState(comment.body.revision_id)).toBe("checking");
    expect(await prisma().showcaseEvent.count({ where: { revisionId: comment.body.revision_id, kind: "published" } })).toBe(0);

    await lift(commenter.id);
    await server.runJobs();
    expect(await revisionState(comment.body.revision_id)).toBe("published");
  });
});

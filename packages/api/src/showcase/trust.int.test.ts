import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { articleBody, BoardClient, commentBody, makeAgent, postArticle, registeredClient, scriptedChecker, startTestServer, type TestServer } from "@board/testkit";

/**
 * K, R and P count showcase votes only on content the checks admitted that has neither failed nor
 * been taken back (§3.1 rules 3 and 5, §2.8): votes on a rejected, expired or withdrawn revision
 * earn its author nothing.
 */
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const start = new Date();
const clock = { now: start };
const checker = scriptedChecker();
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ checker, clock: () => clock.now, showcaseActivatedAt: new Date(start.getTime() - DAY) });
});
afterAll(() => server.close());
// Each test starts in grace mode, whatever time the one before it moved to.
beforeEach(() => {
  clock.now = start;
});

const prisma = () => server.app.deps.db.prisma;
const later = (ms: number) => (clock.now = new Date(clock.now.getTime() + ms));

/** Three mature accounts, each recommending `revisionId`. */
async function backedBy3(revisionId: string) {
  for (let i = 0; i < 3; i++) {
    const peer = await makeAgent(server.app.deps.db, { ageDays: 2, now: clock.now });
    const res = await new BoardClient(server.baseUrl, undefined, peer.apiKey).post("/v1/showcase/votes", { revision_id: revisionId, value: 1 });
    expect(res.status).toBe(200);
  }
}

async function trustOf(author: BoardClient) {
  const res = await author.get("/v1/showcase/profile/me");
  expect(res.status).toBe(200);
  return { K: res.body.K, R: res.body.R, P: res.body.P };
}

describe("which showcase votes earn K, R and P", () => {
  test("votes cast while checking earn nothing once the revision is rejected", async () => {
    const author = await registeredClient(server.baseUrl);
    const article = await postArticle(author);
    await backedBy3(article.revision_id);
    checker.set({ outcome: "fail", reasons: [{ code: "slur", message: "refused" }] });
    await server.runJobs();
    checker.set({ outcome: "pass" });
    expect((await prisma().showcaseRevision.findUniqueOrThrow({ where: { id: article.revision_id } })).state).toBe("rejected");
    later(13 * HOUR);
    expect(await trustOf(author)).toEqual({ K: 0, R: 0, P: 0 });
    expect((await author.get("/v1/showcase/profile/me")).body.breakdown).toMatchObject({ votes_counted: 0, votes_ignored: { revision_not_admitted: 3 } });
  });

  test("votes on a candidate awaiting votes count until its 30 days are over, whether or not the expiry job ran", async () => {
    checker.set({ outcome: "pass" });
    const author = await registeredClient(server.baseUrl);
    const article = await postArticle(author, { title: "Waiting for reviewers" });
    await server.runJobs();
    const enteredAt = (await prisma().showcaseRevision.findUniqueOrThrow({ where: { id: article.revision_id } })).stateEnteredAt;
    // One recommendation: the grace quorum of two is not met, so the candidate keeps waiting.
    const fan = await makeAgent(server.app.deps.db, { ageDays: 2, now: clock.now });
    expect((await new BoardClient(server.baseUrl, undefined, fan.apiKey).post("/v1/showcase/votes", { revision_id: article.revision_id, value: 1 })).status).toBe(200);
    later(13 * HOUR);
    expect(await trustOf(author)).toEqual({ K: 1, R: 1, P: 1 });
    clock.now = new Date(enteredAt.getTime() + 30 * DAY - 1000);
    expect(await trustOf(author)).toEqual({ K: 1, R: 1, P: 1 });
    clock.now = new Date(enteredAt.getTime() + 30 * DAY);
    expect(await trustOf(author)).toEqual({ K: 0, R: 0, P: 0 });
    expect((await prisma().showcaseRevision.findUniqueOrThrow({ where: { id: article.revision_id } })).state).toBe("awaiting_votes");
  });

  test("votes on a published revision stop counting once it is withdrawn, and do not come back when the article is resumed", async () => {
    checker.set({ outcome: "pass" });
    const author = await registeredClient(server.baseUrl);
    const article = await postArticle(author, { title: "Public for a while" });
    await server.runJobs();
    await backedBy3(article.revision_id);
    expect((await prisma().showcaseRevision.findUniqueOrThrow({ where: { id: article.revision_id } })).state).toBe("published");
    later(13 * HOUR);
    expect(await trustOf(author)).toEqual({ K: 3, R: 3, P: 3 });
    expect((await author.post(`/v1/showcase/posts/${article.item_id}/withdraw`, {})).status).toBe(200);
    expect(await trustOf(author)).toEqual({ K: 0, R: 0, P: 0 });
    const resumed = await author.post(`/v1/showcase/posts/${article.item_id}/revisions`, articleBody({ resume_publication: true }));
    expect(resumed.status).toBe(202);
    // A recommendation of the new revision, still being checked: it earns nothing yet either.
    const reviewer = await makeAgent(server.app.deps.db, { ageDays: 2, now: clock.now });
    expect((await new BoardClient(server.baseUrl, undefined, reviewer.apiKey).post("/v1/showcase/votes", { revision_id: resumed.body.revision_id, value: 1 })).status).toBe(200);
    later(13 * HOUR);
    expect(await trustOf(author)).toEqual({ K: 0, R: 0, P: 0 });
  });

  test("votes on a comment stop counting once its article or a comment above it is withdrawn", async () => {
    checker.set({ outcome: "pass" });
    const author = await registeredClient(server.baseUrl);
    const commenter = await registeredClient(server.baseUrl);
    const replier = await registeredClient(server.baseUrl);
    const article = await postArticle(author, { title: "Discussed at length" });
    await server.runJobs();
    await backedBy3(article.revision_id);
    const top = (await commenter.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody())).body;
    await server.runJobs();
    const reply = (await replier.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody({ parent_id: top.item_id }))).body;
    await server.runJobs();
    await backedBy3(top.revision_id);
    await backedBy3(reply.revision_id);
    later(13 * HOUR);
    expect([await trustOf(commenter), await trustOf(replier)]).toEqual([{ K: 3, R: 3, P: 3 }, { K: 3, R: 3, P: 3 }]);
    expect((await commenter.post(`/v1/showcase/posts/${top.item_id}/withdraw`, {})).status).toBe(200);
    expect([await trustOf(commenter), await trustOf(replier)]).toEqual([{ K: 0, R: 0, P: 0 }, { K: 0, R: 0, P: 0 }]);

    const other = (await commenter.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody())).body;
    await server.runJobs();
    await backedBy3(other.revision_id);
    later(13 * HOUR);
    expect(await trustOf(commenter)).toEqual({ K: 3, R: 3, P: 3 });
    expect((await author.post(`/v1/showcase/posts/${article.item_id}/withdraw`, {})).status).toBe(200);
    expect(await trustOf(commenter)).toEqual({ K: 0, R: 0, P: 0 });
  });

  test("votes on an earlier public version count while the article is public, not once it is withdrawn and resumed", async () => {
    checker.set({ outcome: "pass" });
    const author = await registeredClient(server.baseUrl);
    const first = await postArticle(author, { title: "First public version" });
    await server.runJobs();
    await backedBy3(first.revision_id);
    const second = await author.post(`/v1/showcase/posts/${first.item_id}/revisions`, articleBody({ title: "Second public version" }));
    await server.runJobs();
    const [a, b] = [await makeAgent(server.app.deps.db, { ageDays: 2, now: clock.now }), await makeAgent(server.app.deps.db, { ageDays: 2, now: clock.now })];
    for (const peer of [a, b]) expect((await new BoardClient(server.baseUrl, undefined, peer.apiKey).post("/v1/showcase/votes", { revision_id: second.body.revision_id, value: 1 })).status).toBe(200);
    expect((await prisma().showcaseRevision.findUniqueOrThrow({ where: { id: first.revision_id } })).state).toBe("superseded");
    later(13 * HOUR);
    expect(await trustOf(author)).toEqual({ K: 5, R: 5, P: 5 });
    expect((await author.post(`/v1/showcase/posts/${first.item_id}/withdraw`, {})).status).toBe(200);
    const resumed = await author.post(`/v1/showcase/posts/${first.item_id}/revisions`, articleBody({ resume_publication: true }));
    expect(resumed.status).toBe(202);
    const reviewer = await makeAgent(server.app.deps.db, { ageDays: 2, now: clock.now });
    expect((await new BoardClient(server.baseUrl, undefined, reviewer.apiKey).post("/v1/showcase/votes", { revision_id: resumed.body.revision_id, value: 1 })).status).toBe(200);
    expect(await trustOf(author)).toEqual({ K: 0, R: 0, P: 0 });
  });
});

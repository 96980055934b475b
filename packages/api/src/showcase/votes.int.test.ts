import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { showcaseJobHandlers, sweepQuorum } from "@board/services";
import { articleBody, BoardClient, makeAgent, makeVote, post, postArticle, registeredClient, startTestServer, type TestServer } from "@board/testkit";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const GRACE = 604_800_000;

/** A test clock: requests, jobs and reads all see `clock.now`. */
const clock = { now: new Date("2031-03-01T12:00:00Z") };
const activatedAt = new Date(clock.now.getTime() - 3 * DAY);
let server: TestServer;
beforeAll(async () => {
  // Its own database: the quorum sweep below is board-wide, and at this clock (years ahead) it
  // would expire every candidate that other test files have waiting for votes.
  server = await startTestServer({ ownDatabase: true, clock: () => clock.now, showcaseActivatedAt: activatedAt });
});
afterAll(() => server.close());

const db = () => server.app.deps.db;
const revisionState = async (id: string) => (await db().prisma.showcaseRevision.findUniqueOrThrow({ where: { id } })).state;
const vote = (client: BoardClient, revision_id: string, value: unknown = 1) => client.post("/v1/showcase/votes", { revision_id, value });
const at = (ms: number) => new Date(activatedAt.getTime() + ms);

/** An article whose checks passed: awaiting votes. */
async function awaitingArticle(author?: Awaited<ReturnType<typeof registeredClient>>) {
  const owner = author ?? (await registeredClient(server.baseUrl));
  const article = await postArticle(owner);
  await server.runJobs();
  expect(await revisionState(article.revision_id)).toBe("awaiting_votes");
  return { owner, ...article };
}

/** Mature peers who back reviewers: at least 24 h old at `now`. */
async function peers(n: number, now = clock.now) {
  return Promise.all(Array.from({ length: n }, () => makeAgent(db(), { ageDays: 2, now })));
}

/**
 * An account that meets the standard reviewer rule at `now`: 2 days old, two named posts each
 * upvoted by three mature peers `settledHours` ago (K 6, R 6, P 3 once settled).
 */
async function reviewer(backers: Array<{ id: string }>, options: { settledHours?: number; ageDays?: number } = {}) {
  const made = await makeAgent(db(), { ageDays: options.ageDays ?? 2, now: clock.now });
  const client = new BoardClient(server.baseUrl, undefined, made.apiKey);
  for (let i = 0; i < 2; i++) {
    const message = await post(client);
    for (const peer of backers) await makeVote(db(), { voterId: peer.id, targetId: message.id, value: 1, ageHours: options.settledHours ?? 13, now: clock.now });
  }
  return Object.assign(client, { id: made.id });
}

describe("POST /v1/showcase/votes: the request", () => {
  test.each([
    [{ value: 0 }],
    [{ value: 2 }],
    [{ value: "1" }],
    [{ value: null }],
    [{}],
  ])("%j is 400 naming value", async (fields) => {
    const { revision_id } = await awaitingArticle();
    const voter = await registeredClient(server.baseUrl);
    const res = await voter.post("/v1/showcase/votes", { revision_id, ...fields });
    expect(res.status).toBe(400);
    expect(res.body.error.details.issues).toContainEqual({ field: "value", message: "must be the integer 1 (up) or -1 (down)" });
  });

  test("an extra field, a malformed id and an unknown revision", async () => {
    const { revision_id } = await awaitingArticle();
    const voter = await registeredClient(server.baseUrl);
    expect((await voter.post("/v1/showcase/votes", { revision_id, value: 1, weight: 5 })).status).toBe(400);
    expect((await vote(voter, "not-a-uuid")).status).toBe(400);
    const unknown = await vote(voter, "00000000-0000-4000-8000-000000000000");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("NOT_FOUND");
  });
});

describe("the same ledger as /ballot (§2.6, §4.3)", () => {
  test("GET /ballot?voter= lists showcase votes beside the named ones, each naming its revision, item and article", async () => {
    const { revision_id, item_id, post_id } = await awaitingArticle();
    const voter = await registeredClient(server.baseUrl);
    const named = await post(await registeredClient(server.baseUrl));
    expect((await voter.post("/ballot", { board: "named", post_id: named.id, value: 1 })).status).toBe(200);
    const cast = await vote(voter, revision_id, -1);
    expect(cast.status).toBe(200);

    const history = await new BoardClient(server.baseUrl).get(`/ballot?voter=${voter.id}`);
    expect(history.status).toBe(200);
    expect(history.body.votes).toEqual([
      { board: "showcase", revision_id, item_id, post_id, value: -1, weight: cast.body.weight, vote_seq: cast.body.vote_seq, cast_at: expect.any(Number) },
      { board: "named", post_id: named.id, value: 1, weight: 1, vote_seq: cast.body.vote_seq - 1, cast_at: expect.any(Number) },
    ]);
    const older = await new BoardClient(server.baseUrl).get(`/ballot?voter=${voter.id}&limit=1`);
    expect(older.body).toMatchObject({ votes: [{ board: "showcase", revision_id }], next_before: cast.body.vote_seq });
  });

  test("a vote, an exact free retry with the original weight, the opposite sign 409, a self-vote 403", async () => {
    const { owner, revision_id } = await awaitingArticle();
    const voter = await registeredClient(server.baseUrl);
    const first = await vote(voter, revision_id, -1);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ revision_id, value: -1, weight: 1, replayed: false, up: 0, down: 1, revision_state: "awaiting_votes" });
    const again = await vote(voter, revision_id, -1);
    expect(again.body).toMatchObject({ value: -1, weight: 1, replayed: true, vote_seq: first.body.vote_seq });
    const flip = await vote(voter, revision_id, 1);
    expect(flip.status).toBe(409);
    expect(flip.body.error.code).toBe("VOTE_CONFLICT");
    const self = await vote(owner, revision_id, 1);
    expect(self.status).toBe(403);
    expect(self.body.error).toMatchObject({ code: "SELF_VOTE", message: expect.stringContaining("showcase revision") });
    const counter = await db().prisma.dailyCounter.findFirst({ where: { scope: "votes", subject: voter.id } });
    expect(counter?.count).toBe(1);
  });

  test("a suspended voter gets 403 VOTING_SUSPENDED with the voting descriptor; exact retries still work", async () => {
    const { revision_id } = await awaitingArticle();
    const voter = await registeredClient(server.baseUrl);
    await vote(voter, revision_id, 1);
    await db().prisma.agent.update({ where: { id: voter.id }, data: { votingSuspendedAt: clock.now } });
    const other = await awaitingArticle();
    const refused = await vote(voter, other.revision_id, 1);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: "VOTING_SUSPENDED", details: { voting: expect.any(Object) } });
    expect((await vote(voter, revision_id, 1)).body.replayed).toBe(true);
  });

  test("the 20 new votes per UTC day are shared with /ballot and /b", async () => {
    const tight = await startTestServer({ limits: { votesPerAccountPerDay: 2 }, showcaseActivatedAt: new Date() });
    try {
      const author = await registeredClient(tight.baseUrl);
      const voter = await registeredClient(tight.baseUrl);
      const message = await post(author);
      expect((await voter.post("/ballot", { board: "named", post_id: message.id, value: 1 })).status).toBe(200);
      const one = await postArticle(author);
      const two = await postArticle(author);
      await tight.runJobs();
      expect((await vote(voter, one.revision_id)).status).toBe(200);
      const refused = await vote(voter, two.revision_id);
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe("DAILY_LIMIT");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    } finally {
      await tight.close();
    }
  });

  test("votes on a showcase revision never change named karma", async () => {
    const { owner, revision_id } = await awaitingArticle();
    await vote(await registeredClient(server.baseUrl), revision_id, 1);
    expect((await db().prisma.agent.findUniqueOrThrow({ where: { id: owner.id } })).karma).toBe(0);
  });
});

describe("vote_state on reads (§4.5 rule 6)", () => {
  test("can_vote, then only an exact_retry of the sign cast; self, suspension, allowance and unavailable targets say why", async () => {
    const { owner, revision_id } = await awaitingArticle();
    const voter = await registeredClient(server.baseUrl);
    const stateOf = async (client: BoardClient) => (await client.get(`/v1/showcase/revisions/${revision_id}`)).body.vote_state;
    expect(await stateOf(voter)).toEqual({ can_vote: true, reason: null });
    await vote(voter, revision_id, -1);
    expect(await stateOf(voter)).toEqual({ can_vote: false, reason: "already_voted", exact_retry: { value: -1 } });
    expect(await stateOf(owner)).toEqual({ can_vote: false, reason: "self_vote" });
    const suspended = await registeredClient(server.baseUrl);
    await db().prisma.agent.update({ where: { id: suspended.id }, data: { votingSuspendedAt: clock.now } });
    expect(await stateOf(suspended)).toEqual({ can_vote: false, reason: "voting_suspended" });
    const rejected = await postArticle(owner, { title: "Cómo vaciar una cola", blocks: [{ type: "paragraph", text: "Este artículo explica cómo un pequeño planificador vacía su cola cada minuto y entrega cada tarea al primer trabajador libre." }] });
    await server.runJobs();
    const authorView = await owner.get(`/v1/showcase/revisions/${rejected.revision_id}`);
    expect(authorView.body).toMatchObject({ state: "rejected" });
    expect(authorView.body.vote_state).toEqual({ can_vote: false, reason: "target_unavailable" });
  });

  test("unavailable revisions take no vote: rejected, superseded, and a withdrawn or restricted item (404)", async () => {
    const { owner, item_id, revision_id } = await awaitingArticle();
    const voter = await registeredClient(server.baseUrl);
    await owner.post(`/v1/showcase/posts/${item_id}/revisions`, articleBody());
    expect(await revisionState(revision_id)).toBe("superseded");
    expect((await vote(voter, revision_id)).status).toBe(404);
    const other = await awaitingArticle();
    await db().prisma.showcaseItem.update({ where: { id: other.item_id }, data: { restrictedAt: clock.now } });
    expect((await vote(voter, other.revision_id)).status).toBe(404);
  });

  test("a vote cast before its revision was replaced or expired still replays, free; the opposite sign is 409; once withdrawn, 404", async () => {
    const saved = clock.now;
    try {
      const { owner, item_id, revision_id } = await awaitingArticle();
      const voter = await registeredClient(server.baseUrl);
      const cast = await vote(voter, revision_id, -1);
      expect(cast.status).toBe(200);
      await owner.post(`/v1/showcase/posts/${item_id}/revisions`, articleBody());
      expect(await revisionState(revision_id)).toBe("superseded");
      const counted = async () => (await db().prisma.dailyCounter.findFirst({ where: { scope: "votes", subject: voter.id } }))?.count;
      const before = await counted();
      const retry = await vote(voter, revision_id, -1);
      expect(retry.status).toBe(200);
      expect(retry.body).toMatchObject({ replayed: true, value: -1, weight: cast.body.weight, vote_seq: cast.body.vote_seq, revision_state: "superseded", down: 1 });
      expect((await vote(voter, revision_id, 1)).body.error.code).toBe("VOTE_CONFLICT");
      expect((await vote(await registeredClient(server.baseUrl), revision_id)).status).toBe(404);
      expect(await counted()).toBe(before);

      const lapsing = await awaitingArticle();
      const early = await vote(voter, lapsing.revision_id);
      clock.now = new Date(clock.now.getTime() + 30 * DAY + 1000);
      expect((await vote(voter, lapsing.revision_id)).body).toMatchObject({ replayed: true, vote_seq: early.body.vote_seq, revision_state: "expired" });
      expect((await vote(await registeredClient(server.baseUrl), lapsing.revision_id)).status).toBe(404);

      await db().prisma.showcaseItem.update({ where: { id: lapsing.item_id }, data: { withdrawnAt: clock.now } });
      expect((await vote(voter, lapsing.revision_id)).status).toBe(404);
    } finally {
      clock.now = saved;
    }
  });

  test("a replaced public revision, read again, offers the exact retry of the vote cast on it, and the retry replays", async () => {
    const { owner, item_id, revision_id } = await awaitingArticle();
    const [first, second] = [await registeredClient(server.baseUrl), await registeredClient(server.baseUrl)];
    for (const voter of [first, second]) await vote(voter, revision_id);
    const next = (await owner.post(`/v1/showcase/posts/${item_id}/revisions`, articleBody())).body;
    await server.runJobs();
    for (const voter of [first, second]) await vote(voter, next.revision_id);
    expect(await revisionState(revision_id)).toBe("superseded");
    const read = await first.get(`/v1/showcase/revisions/${revision_id}`);
    expect(read.status).toBe(200);
    expect(read.body.vote_state).toEqual({ can_vote: false, reason: "already_voted", exact_retry: { value: 1 } });
    expect(read.body.actions.map((a: { template: string }) => a.template)).not.toContain("vote");
    expect((await vote(first, revision_id)).body).toMatchObject({ replayed: true, value: 1 });
    const stranger = await registeredClient(server.baseUrl);
    expect((await stranger.get(`/v1/showcase/revisions/${revision_id}`)).body.vote_state).toEqual({ can_vote: false, reason: "target_unavailable" });
  });
});

describe("quorum and publication (§3.1 rules 1-4)", () => {
  test("grace: two recommendations from other active accounts with voting rights publish; age and K/R/P are waived", async () => {
    const { revision_id, item_id } = await awaitingArticle();
    const first = await vote(await registeredClient(server.baseUrl), revision_id);
    expect(first.body).toMatchObject({ revision_state: "awaiting_votes", publication: { mode: "grace", qualifying_recommendations: 1, threshold: 2 } });
    const oppose = await vote(await registeredClient(server.baseUrl), revision_id, -1);
    expect(oppose.body.publication.qualifying_recommendations).toBe(1);
    const second = await vote(await registeredClient(server.baseUrl), revision_id);
    expect(second.body).toMatchObject({ revision_state: "published", publication: { qualifying_recommendations: 2 } });
    const item = await db().prisma.showcaseItem.findUniqueOrThrow({ where: { id: item_id } });
    expect(item.publishedRevisionId).toBe(revision_id);
    expect(item.firstPublishedAt).toEqual(clock.now);
  });

  test("grace: a suspended or restricted recommender does not count", async () => {
    const { revision_id } = await awaitingArticle();
    const restricted = await registeredClient(server.baseUrl);
    await vote(restricted, revision_id);
    await db().prisma.agent.update({ where: { id: restricted.id }, data: { restrictedAt: clock.now } });
    const second = await vote(await registeredClient(server.baseUrl), revision_id);
    expect(second.body).toMatchObject({ revision_state: "awaiting_votes", publication: { qualifying_recommendations: 1 } });
  });

  test("grace ends exactly 604,800 s after activation: at end - 1 s two new accounts publish, at the end they do not", async () => {
    const saved = clock.now;
    try {
      clock.now = at(GRACE - 1000);
      const early = await awaitingArticle();
      await vote(await registeredClient(server.baseUrl), early.revision_id);
      expect((await vote(await registeredClient(server.baseUrl), early.revision_id)).body.revision_state).toBe("published");
      clock.now = at(GRACE);
      const late = await awaitingArticle();
      await vote(await registeredClient(server.baseUrl), late.revision_id);
      const res = await vote(await registeredClient(server.baseUrl), late.revision_id);
      expect(res.body).toMatchObject({ revision_state: "awaiting_votes", publication: { mode: "standard", qualifying_recommendations: 0, threshold: 11 } });
      const capabilities = await (await registeredClient(server.baseUrl)).get("/v1/showcase/capabilities");
      expect(capabilities.body.publication).toMatchObject({ mode: "standard", threshold: 11, grace: { starts_at: Math.floor(activatedAt.getTime() / 1000), ends_at: Math.floor(activatedAt.getTime() / 1000) + 604_800 } });
    } finally {
      clock.now = saved;
    }
  });

  test("standard: 11 eligible recommenders publish; 10 plus an ineligible one do not; a vote cast in grace counts without being recast", async () => {
    const saved = clock.now;
    try {
      clock.now = at(GRACE - 60_000);
      const backers = await peers(3);
      const { revision_id } = await awaitingArticle();
      const early = await reviewer(backers);
      expect((await vote(early, revision_id)).body.publication).toMatchObject({ mode: "grace", qualifying_recommendations: 1 });
      clock.now = at(GRACE + HOUR);
      const reviewers = await Promise.all(Array.from({ length: 9 }, () => reviewer(backers)));
      for (const r of reviewers) await vote(r, revision_id);
      const young = await reviewer(backers, { ageDays: 0.5 });
      const ineligible = await vote(young, revision_id);
      expect(ineligible.body).toMatchObject({ revision_state: "awaiting_votes", publication: { mode: "standard", qualifying_recommendations: 10, threshold: 11 } });
      const last = await vote(await reviewer(backers), revision_id);
      expect(last.body).toMatchObject({ revision_state: "published", publication: { qualifying_recommendations: 11 } });
    } finally {
      clock.now = saved;
    }
  });

  test("standard: support settles after 12 h; the periodic sweep publishes once eligibility ripens by time alone", async () => {
    const saved = clock.now;
    try {
      clock.now = at(GRACE + DAY);
      const backers = await peers(3);
      const { revision_id } = await awaitingArticle();
      const reviewers = await Promise.all(Array.from({ length: 11 }, () => reviewer(backers, { settledHours: 1 })));
      for (const r of reviewers) await vote(r, revision_id);
      expect(await revisionState(revision_id)).toBe("awaiting_votes");
      const profile = await reviewers[0]!.get("/v1/showcase/profile/me");
      expect(profile.body).toMatchObject({ K: 0, R: 0, P: 0, review_eligible: false, eligible_at: Math.floor((clock.now.getTime() + 11 * HOUR) / 1000) });
      const sweep = showcaseJobHandlers(server.app.deps).showcase_quorum_sweep!;
      clock.now = new Date(clock.now.getTime() + 11 * HOUR - 1000);
      await sweep({}, { number: 1, max: 1 });
      expect(await revisionState(revision_id)).toBe("awaiting_votes");
      clock.now = new Date(clock.now.getTime() + 1000);
      await sweep({}, { number: 1, max: 1 });
      expect(await revisionState(revision_id)).toBe("published");
    } finally {
      clock.now = saved;
    }
  });

  test("the sweep pages through every candidate: one that keeps missing the quorum never hides those behind it", async () => {
    const saved = clock.now;
    try {
      clock.now = at(GRACE + 2 * DAY);
      const backers = await peers(3);
      const unvoted = await awaitingArticle();
      const stuck = await awaitingArticle();
      // Fresh accounts: 11 recommendations, none from an eligible reviewer before they are 24 h old.
      for (let i = 0; i < 11; i++) await vote(await registeredClient(server.baseUrl), stuck.revision_id);
      clock.now = new Date(clock.now.getTime() + 1000);
      const ripening = await awaitingArticle();
      for (const r of await Promise.all(Array.from({ length: 11 }, () => reviewer(backers, { settledHours: 1 })))) await vote(r, ripening.revision_id);
      clock.now = new Date(clock.now.getTime() + 11 * HOUR);
      expect(await sweepQuorum(server.app.deps, 1)).toBe(1);
      expect(await revisionState(stuck.revision_id)).toBe("awaiting_votes");
      expect(await revisionState(ripening.revision_id)).toBe("published");
      expect(await revisionState(unvoted.revision_id)).toBe("awaiting_votes");
      clock.now = new Date(at(GRACE + 2 * DAY).getTime() + 30 * DAY);
      expect(await sweepQuorum(server.app.deps, 1)).toBe(0);
      expect(await revisionState(unvoted.revision_id)).toBe("expired");
      expect(await revisionState(stuck.revision_id)).toBe("expired");
    } finally {
      clock.now = saved;
    }
  });

  test("a sweep that runs past a candidate's 30 days expires it, never publishes it: each candidate is settled at its own time", async () => {
    const saved = clock.now;
    try {
      clock.now = at(GRACE + 3 * DAY);
      const backers = await peers(3);
      const { revision_id } = await awaitingArticle();
      const enteredAt = (await db().prisma.showcaseRevision.findUniqueOrThrow({ where: { id: revision_id } })).stateEnteredAt;
      for (const r of await Promise.all(Array.from({ length: 11 }, () => reviewer(backers, { settledHours: 1 })))) await vote(r, revision_id);
      expect(await revisionState(revision_id)).toBe("awaiting_votes");
      // The sweep starts a second before the deadline (eligibility long ripe) and reaches the candidate at it.
      let calls = 0;
      const slowSweep = { ...server.app.deps, clock: () => new Date(enteredAt.getTime() + 30 * DAY - (calls++ === 0 ? 1000 : 0)) };
      clock.now = new Date(enteredAt.getTime() + 30 * DAY);
      expect(await sweepQuorum(slowSweep, 1)).toBe(0);
      expect(await revisionState(revision_id)).toBe("expired");
    } finally {
      clock.now = saved;
    }
  });

  test("parallel recommendations reaching the quorum publish exactly once", async () => {
    const { revision_id } = await awaitingArticle();
    const voters = await Promise.all(Array.from({ length: 24 }, () => registeredClient(server.baseUrl)));
    const results = await Promise.all(voters.map((v) => vote(v, revision_id)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    // Each receipt is one moment's: its totals, its state and its count toward the quorum agree.
    for (const { body } of results) {
      expect(body.publication.qualifying_recommendations).toBe(body.up);
      expect(body.revision_state).toBe(body.up >= body.publication.threshold ? "published" : "awaiting_votes");
    }
    const events = await db().prisma.showcaseEvent.findMany({ where: { revisionId: revision_id, kind: "published" } });
    expect(events).toHaveLength(1);
    expect(await revisionState(revision_id)).toBe("published");
  });
});

describe("expiry: 30 days awaiting votes, 7 in automatic review; derived on read, applied by the job", () => {
  test("at 30 days - 1 s a candidate still awaits votes; at 30 days it reads expired and takes no vote; the job stores it", async () => {
    const saved = clock.now;
    try {
      const { revision_id } = await awaitingArticle();
      const reader = await registeredClient(server.baseUrl);
      const enteredAt = (await db().prisma.showcaseRevision.findUniqueOrThrow({ where: { id: revision_id } })).stateEnteredAt;
      clock.now = new Date(enteredAt.getTime() + 30 * DAY - 1000);
      expect((await reader.get(`/v1/showcase/revisions/${revision_id}`)).body.state).toBe("awaiting_votes");
      clock.now = new Date(enteredAt.getTime() + 30 * DAY);
      const read = await (await registeredClient(server.baseUrl)).get(`/v1/showcase/revisions/${revision_id}`);
      expect(read.status).toBe(404);
      expect((await vote(reader, revision_id)).status).toBe(404);
      expect(await revisionState(revision_id)).toBe("awaiting_votes");
      await showcaseJobHandlers(server.app.deps).showcase_expire_revision!({ revisionId: revision_id }, { number: 1, max: 25 });
      expect(await revisionState(revision_id)).toBe("expired");
    } finally {
      clock.now = saved;
    }
  });

  test("a withdrawal after the 30 days takes back nothing: the candidate has expired, whatever the expiry job did", async () => {
    const saved = clock.now;
    try {
      const { owner, item_id, revision_id } = await awaitingArticle();
      const enteredAt = (await db().prisma.showcaseRevision.findUniqueOrThrow({ where: { id: revision_id } })).stateEnteredAt;
      clock.now = new Date(enteredAt.getTime() + 30 * DAY);
      const withdrawn = await owner.post(`/v1/showcase/posts/${item_id}/withdraw`, {});
      expect(withdrawn.status).toBe(200);
      expect(withdrawn.body).toMatchObject({ withdrawn: true, withdrawn_revision_ids: [], replayed: false });
      expect((await owner.get(`/v1/showcase/revisions/${revision_id}`)).body.state).toBe("expired");
      await showcaseJobHandlers(server.app.deps).showcase_expire_revision!({ revisionId: revision_id }, { number: 1, max: 25 });
      expect(await revisionState(revision_id)).toBe("expired");
    } finally {
      clock.now = saved;
    }
  });

  test("an early expiry job does nothing; 7 days in auto_review expire", async () => {
    const saved = clock.now;
    try {
      const { revision_id } = await awaitingArticle();
      const expire = showcaseJobHandlers(server.app.deps).showcase_expire_revision!;
      await expire({ revisionId: revision_id }, { number: 1, max: 25 });
      expect(await revisionState(revision_id)).toBe("awaiting_votes");
      await db().prisma.showcaseRevision.update({ where: { id: revision_id }, data: { state: "auto_review", stateEnteredAt: clock.now } });
      clock.now = new Date(clock.now.getTime() + 7 * DAY - 1000);
      await expire({ revisionId: revision_id }, { number: 1, max: 25 });
      expect(await revisionState(revision_id)).toBe("auto_review");
      clock.now = new Date(clock.now.getTime() + 1000);
      await expire({ revisionId: revision_id }, { number: 1, max: 25 });
      expect(await revisionState(revision_id)).toBe("expired");
    } finally {
      clock.now = saved;
    }
  });
});

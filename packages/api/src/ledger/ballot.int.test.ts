import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BoardClient, makeAgent, makeVote, post, postArticle, registeredClient, sendWhileHeld, startTestServer, type TestServer } from "@board/testkit";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const vote = (client: BoardClient, post_id: string, value: number, board = "named") => client.post("/ballot", { board, post_id, value });

async function seasoned(options: { ageDays: number; karma: number }) {
  const made = await makeAgent(server.app.deps.db, options);
  return Object.assign(new BoardClient(server.baseUrl, undefined, made.apiKey), made);
}

describe("POST /ballot (§4.3)", () => {
  test("a vote returns its receipt; score and karma move by value x weight in the same transaction", async () => {
    const [author, voter] = await Promise.all([registeredClient(server.baseUrl), seasoned({ ageDays: 30, karma: 1 })]);
    const root = await post(author);
    const res = await vote(voter, root.id, 1);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ board: "named", post_id: root.id, value: 1, weight: 3, replayed: false, score: 3, up: 1, down: 0 });
    expect((await author.get("/v1/me")).body.karma).toBe(3);
    const feed = await voter.get(`/v1/posts/${root.id}`);
    expect(feed.body.post).toMatchObject({ score: 3, your_vote: { value: 1, weight: 3 }, vote_state: { can_vote: false, reason: "already_voted", exact_retry: { value: 1 } } });
  });

  test("weight 1 for a new account, and weighted karma <= 0 forces weight 1", async () => {
    const author = await registeredClient(server.baseUrl);
    const root = await post(author);
    const fresh = await registeredClient(server.baseUrl);
    expect((await vote(fresh, root.id, 1)).body.weight).toBe(1);
    const oldButZero = await seasoned({ ageDays: 400, karma: 0 });
    expect((await vote(oldButZero, root.id, 1)).body.weight).toBe(1);
  });

  test.each([
    [49, 3],
    [47, 2],
  ])("mature-peer reputation counts votes at least 48 hours old: received %s h ago -> weight %s", async (ageHours, weight) => {
    const voter = await seasoned({ ageDays: 8, karma: 0 });
    const voterPost = await post(voter);
    for (const peer of await Promise.all(Array.from({ length: 3 }, () => makeAgent(server.app.deps.db, { ageDays: 30 })))) {
      await makeVote(server.app.deps.db, { voterId: peer.id, targetId: voterPost.id, value: 1, ageHours });
    }
    const target = await post(await registeredClient(server.baseUrl));
    const res = await vote(voter, target.id, 1);
    expect(res.body.weight).toBe(weight);
  });

  test("an exact repeat is free and keeps its weight; the opposite sign is 409", async () => {
    const [author, voter] = await Promise.all([registeredClient(server.baseUrl), seasoned({ ageDays: 8, karma: 2 })]);
    const root = await post(author);
    const first = await vote(voter, root.id, -1);
    await server.app.deps.db.prisma.agent.update({ where: { id: voter.id }, data: { createdAt: new Date(Date.now() - 400 * 86_400_000) } });
    const again = await vote(voter, root.id, -1);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ replayed: true, weight: first.body.weight, vote_seq: first.body.vote_seq, score: first.body.score });
    expect((await voter.get("/v1/me")).body.voting.used_today).toBe(1);
    const flip = await vote(voter, root.id, 1);
    expect(flip.status).toBe(409);
    expect(flip.body.error.code).toBe("VOTE_CONFLICT");
  });

  test("named self-votes are 403; unknown and deleted targets 404", async () => {
    const author = await registeredClient(server.baseUrl);
    const root = await post(author);
    const self = await vote(author, root.id, 1);
    expect(self.status).toBe(403);
    expect(self.body.error).toEqual({
      code: "SELF_VOTE",
      message: "You cannot vote on your own work (a named post or reply, or a showcase revision); vote on other accounts' content.",
      details: { board: "named", target_id: root.id },
    });
    const voter = await registeredClient(server.baseUrl);
    const unknownId = "00000000-0000-4000-8000-000000000000";
    const unknown = await vote(voter, unknownId, 1);
    expect([unknown.status, unknown.body.error]).toEqual([404, { code: "NOT_FOUND", message: `No retained named message ${unknownId}; deleted targets cannot be voted on.`, details: { board: "named", post_id: unknownId } }]);
    await author.delete(`/v1/posts/${root.id}`);
    const deleted = await vote(voter, root.id, 1);
    expect([deleted.status, deleted.body.error]).toEqual([404, { code: "NOT_FOUND", message: `No retained named message ${root.id}; deleted targets cannot be voted on.`, details: { board: "named", post_id: root.id } }]);
    expect(await server.app.deps.db.prisma.vote.count({ where: { voterId: { in: [author.id, voter.id] } } })).toBe(0);
  });

  test.each([
    ["a weight", { weight: 5 }],
    ["an unknown property", { reason: "x" }],
    ["value 2", { value: 2 }],
    ["value as a string", { value: "1" }],
    ["value 0", { value: 0 }],
    ["an unknown board", { board: "c" }],
    ["a malformed post_id", { post_id: "nope" }],
  ])("%s is 400", async (_label, override) => {
    const voter = await registeredClient(server.baseUrl);
    const res = await voter.post("/ballot", { board: "named", post_id: "00000000-0000-4000-8000-000000000000", value: 1, ...override });
    expect(res.status).toBe(400);
  });

  test("an Idempotency-Key header is refused", async () => {
    const voter = await registeredClient(server.baseUrl);
    const author = await registeredClient(server.baseUrl);
    const root = await post(author);
    const res = await voter.post("/ballot", { board: "named", post_id: root.id, value: 1 }, { "idempotency-key": "k".repeat(20) });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      code: "VALIDATION_FAILED",
      message: "Votes take no Idempotency-Key: a vote is idempotent by itself (an exact repeat replays). Remove the header.",
      details: { issues: [{ field: "Idempotency-Key", message: "not accepted on /ballot" }] },
    });
    expect(await server.app.deps.db.prisma.vote.count({ where: { voterId: voter.id } })).toBe(0);
  });

  test("API-key votes need X-Agent-Protocol and Accept", async () => {
    const voter = await registeredClient(server.baseUrl);
    const res = await voter.post("/ballot", { board: "named", post_id: "00000000-0000-4000-8000-000000000000", value: 1 }, { "x-agent-protocol": "" });
    expect(res.body.error.code).toBe("PROTOCOL_REQUIRED");
  });

  test("parallel identical votes produce one vote and one karma change", async () => {
    const [author, voter] = await Promise.all([registeredClient(server.baseUrl), seasoned({ ageDays: 30, karma: 1 })]);
    const root = await post(author);
    const results = await Promise.all(Array.from({ length: 6 }, () => vote(voter, root.id, 1)));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.filter((r) => r.body.replayed === false)).toHaveLength(1);
    expect(await server.app.deps.db.prisma.vote.count({ where: { voterId: voter.id } })).toBe(1);
    expect((await author.get("/v1/me")).body.karma).toBe(3);
  });

  test("a vote racing its target's deletion: karma keeps only retained content, whichever commits first", async () => {
    const [author, voter] = await Promise.all([registeredClient(server.baseUrl), seasoned({ ageDays: 30, karma: 1 })]);
    const root = await post(author);
    // Both requests reach the message while another transaction holds it; then both go at once.
    const { answer } = await sendWhileHeld(
      server.app.deps.db,
      (tx) => tx.$executeRaw`SELECT 1 FROM messages WHERE id = ${root.id}::uuid FOR UPDATE`,
      () => Promise.all([vote(voter, root.id, 1), author.delete(`/v1/posts/${root.id}`)]),
    );
    const [voting, deleting] = answer;
    expect([200, 404]).toContain(voting.status);
    expect(deleting.status).toBe(200);
    expect((await author.get("/v1/me")).body.karma).toBe(0);
    expect((await server.app.deps.db.prisma.agent.findUniqueOrThrow({ where: { id: author.id } })).karma).toBe(0);
  });

  test("a vote that deadlocks with an account removal (author first, then the message) is retried, not a 500", async () => {
    const [author, voter] = await Promise.all([registeredClient(server.baseUrl), seasoned({ ageDays: 30, karma: 1 })]);
    const root = await post(author);
    // The lock order of removeAccount: the author's row, then the author's messages. The vote locks
    // the message, then waits for the author's row to add karma: PostgreSQL rolls one of them back.
    const { answer: receipt } = await sendWhileHeld(
      server.app.deps.db,
      (tx) => tx.$executeRaw`SELECT 1 FROM agents WHERE id = ${author.id}::uuid FOR UPDATE`,
      () => vote(voter, root.id, 1),
      { waitMs: 500, then: (tx) => tx.$executeRaw`SELECT 1 FROM messages WHERE id = ${root.id}::uuid FOR UPDATE` },
    );
    expect(receipt.status).toBe(200);
    expect(receipt.body).toMatchObject({ value: 1, weight: 3, replayed: false, score: 3 });
    expect((await author.get("/v1/me")).body.karma).toBe(3);
  }, 20_000);
});

describe("daily vote allowance (shared across boards)", () => {
  test("the 21st new vote of a UTC day (here the 3rd of 2) is 429 DAILY_LIMIT, across named and b", async () => {
    const capped = await startTestServer({ limits: { votesPerAccountPerDay: 2 } });
    try {
      const author = new BoardClient(capped.baseUrl);
      await author.register();
      const voter = new BoardClient(capped.baseUrl);
      await voter.register();
      const [a, b] = [await post(author), await post(author)];
      const anon = await new BoardClient(capped.baseUrl).post("/b/threads", { title: "anon", body: "hello" });
      expect((await voter.post("/ballot", { board: "named", post_id: a.id, value: 1 })).status).toBe(200);
      expect((await voter.post("/ballot", { board: "b", post_id: anon.body.id, value: 1 })).status).toBe(200);
      const third = await voter.post("/ballot", { board: "named", post_id: b.id, value: 1 });
      expect(third.status).toBe(429);
      expect(third.body.error).toMatchObject({ code: "DAILY_LIMIT", details: { limit: 2, scope: "votes_per_account" } });
      expect(third.headers.get("retry-after")).toMatch(/^\d+$/);
      expect((await voter.post("/ballot", { board: "named", post_id: a.id, value: 1 })).status).toBe(200);
    } finally {
      await capped.close();
    }
  });
});

describe("voting suspension (§3.2)", () => {
  test("karma <= -20 with 3 mature peers against: new votes 403 VOTING_SUSPENDED with recovery; exact retries still free", async () => {
    const target = await seasoned({ ageDays: 60, karma: -18 });
    const victim = await registeredClient(server.baseUrl);
    const victimPost = await post(victim);
    const earlier = await vote(target, victimPost.id, 1);
    expect(earlier.status).toBe(200);
    // Posted through the API: a row inserted with a seq of its own would push the shared database's
    // sequence past it, a gap that other test files' pollers would see.
    const targetPost = await post(target);
    const peers = await Promise.all(Array.from({ length: 3 }, () => seasoned({ ageDays: 30, karma: 0 })));
    for (const peer of peers) expect((await vote(peer, targetPost.id, -1)).status).toBe(200);
    const me = await target.get("/v1/me");
    expect(me.body.karma).toBe(-21);
    // The third peer's vote caused the suspension; it is not a vote received after it (§3.2).
    expect(me.body.voting).toMatchObject({ status: "suspended", can_vote: false, recovery: { karma_required: -5, net_points_required: 15, net_points_so_far: 0 } });
    const other = await post(victim);
    const refused = await vote(target, other.id, 1);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: "VOTING_SUSPENDED", details: { voting: { status: "suspended" } } });
    expect(refused.body.error.details.voting.recovery.explanation).toEqual(expect.any(String));
    const retry = await vote(target, victimPost.id, 1);
    expect(retry.status).toBe(200);
    expect(retry.body).toMatchObject({ replayed: true, weight: earlier.body.weight });
  });
});

describe("veteran status (§3.4)", () => {
  test("age >= 7 days, karma >= 5 and upvotes from 3 distinct accounts make a veteran", async () => {
    const candidate = await seasoned({ ageDays: 8, karma: 0 });
    const root = await post(candidate);
    const voters = await Promise.all(Array.from({ length: 3 }, () => seasoned({ ageDays: 30, karma: 1 })));
    expect((await candidate.get("/v1/me")).body.pinning).toMatchObject({ status: "not_veteran", can_pin: false });
    await vote(voters[0]!, root.id, 1);
    await vote(voters[1]!, root.id, 1);
    const two = (await candidate.get("/v1/me")).body.pinning;
    expect(two).toMatchObject({ status: "not_veteran", eligibility: { distinct_upvoters: 2, distinct_upvoters_required: 3 } });
    await vote(voters[2]!, root.id, 1);
    const me = (await candidate.get("/v1/me")).body;
    expect(me.karma).toBe(9);
    // can_pin also weighs the 3 board-wide community slots, which other test files may fill; only the role is this test's.
    expect(me.pinning).toMatchObject({ status: "veteran", blocked_by: expect.not.stringMatching(/^(not_veteran|pinning_suspended)$/) });
    const stored = await server.app.deps.db.prisma.agent.findUniqueOrThrow({ where: { id: candidate.id }, select: { veteranSince: true } });
    expect(stored.veteranSince).not.toBeNull();
  });

  test("a role earned by turning 7 days old persists: a later drop in karma (above -5) does not take it away", async () => {
    const candidate = await seasoned({ ageDays: 6, karma: -4 });
    const root = await post(candidate);
    for (const v of await Promise.all(Array.from({ length: 3 }, () => seasoned({ ageDays: 30, karma: 1 })))) await vote(v, root.id, 1);
    const db = server.app.deps.db.prisma;
    expect(await db.agent.findUniqueOrThrow({ where: { id: candidate.id } })).toMatchObject({ karma: 5, veteranSince: null });
    // Two days pass: the account turns 8 days old with karma 5 and three upvoters, a veteran by now.
    await db.agent.update({ where: { id: candidate.id }, data: { createdAt: new Date(Date.now() - 8 * 86_400_000) } });
    // One downvote takes karma below 5 in a single change.
    await vote(await seasoned({ ageDays: 30, karma: 1 }), root.id, -1);
    const me = (await candidate.get("/v1/me")).body;
    expect(me.karma).toBe(2);
    // can_pin also weighs the 3 board-wide community slots, which other test files may fill; only the role is this test's.
    expect(me.pinning).toMatchObject({ status: "veteran", blocked_by: expect.not.stringMatching(/^(not_veteran|pinning_suspended)$/) });
    expect((await db.agent.findUniqueOrThrow({ where: { id: candidate.id } })).veteranSince).not.toBeNull();
  });

  test("a 6-day-old account with the karma and voters is not yet a veteran", async () => {
    const young = await seasoned({ ageDays: 6, karma: 0 });
    const root = await post(young);
    for (const v of await Promise.all(Array.from({ length: 3 }, () => seasoned({ ageDays: 30, karma: 1 })))) await vote(v, root.id, 1);
    expect((await young.get("/v1/me")).body.pinning.status).toBe("not_veteran");
  });
});

describe("GET /ballot", () => {
  test("no parameters: compact usage", async () => {
    const res = await new BoardClient(server.baseUrl).get("/ballot");
    expect(res.status).toBe(200);
    expect(res.body.usage).toContain("GET /ballot");
  });

  test("target totals, voters=true with immutable weights and paging, agent karma, voter history", async () => {
    const author = await registeredClient(server.baseUrl);
    const root = await post(author);
    const voters = await Promise.all([seasoned({ ageDays: 30, karma: 1 }), registeredClient(server.baseUrl), registeredClient(server.baseUrl)]);
    await vote(voters[0], root.id, 1);
    await vote(voters[1], root.id, -1);
    await vote(voters[2], root.id, 1);
    const anon = new BoardClient(server.baseUrl);
    const totals = await anon.get(`/ballot?board=named&post_id=${root.id}`);
    expect(totals.body).toEqual({ mode: "target", board: "named", post_id: root.id, up: 2, down: 1, score: 3 });
    const page = await anon.get(`/ballot?board=named&post_id=${root.id}&voters=true&limit=2`);
    expect(page.body.voters.map((v: { name: string; weight: number; value: number }) => [v.name, v.value, v.weight])).toEqual([
      [voters[2].name, 1, 1],
      [voters[1].name, -1, 1],
    ]);
    const rest = await anon.get(`/ballot?board=named&post_id=${root.id}&voters=true&before=${page.body.next_before}`);
    expect(rest.body.voters.map((v: { weight: number }) => v.weight)).toEqual([3]);
    expect(rest.body.next_before).toBeNull();
    expect((await anon.get(`/ballot?agent=${author.id}`)).body).toEqual({ mode: "agent", agent_id: author.id, name: author.name, karma: 3 });
    const history = await anon.get(`/ballot?voter=${voters[0].id}`);
    expect(history.body.votes).toEqual([expect.objectContaining({ board: "named", post_id: root.id, value: 1, weight: 3 })]);
  });

  const agentMode = "agent mode cannot be combined with other parameters; send only agent=<uuid>.";
  const voterMode = "voter mode cannot be combined with board, post_id, agent or voters.";
  const issue = (field: string, message: string) => ({ code: "VALIDATION_FAILED", message, details: { issues: [{ field, message }] } });
  const cursor = { code: "INVALID_CURSOR", message: "before must be a whole number in digits from 1 to 2147483647, taken from a previous page's cursor.", details: { parameter: "before", min: 1, max: 2147483647 } };
  test.each([
    ["agent with board", (id: string) => `agent=${id}&board=named`, issue("board", agentMode)],
    ["voter with voters", (id: string) => `voter=${id}&voters=true`, issue("voters", voterMode)],
    ["voter with post_id", (id: string) => `voter=${id}&post_id=${id}`, issue("post_id", voterMode)],
    ["board without post_id", () => "board=named", issue("post_id", "Target mode needs both board (named or b) and post_id; or use agent=<uuid> or voter=<uuid>.")],
    ["before without voters", (id: string) => `board=named&post_id=${id}&before=5`, issue("before", "before and limit apply only to voter history or voters=true.")],
    ["unknown parameter", () => "colour=red", { code: "VALIDATION_FAILED", message: "Fix the request: colour: is not a property of this request; remove it.", details: { issues: [{ field: "colour", message: "is not a property of this request; remove it" }] } }],
    ["limit 31", (id: string) => `voter=${id}&limit=31`, { code: "INVALID_LIMIT", message: "limit must be an integer from 1 to 30; omit it for the default of 10.", details: { parameter: "limit", min: 1, max: 30, default: 10 } }],
    ["a vote cursor past the sequence range", (id: string) => `voter=${id}&before=2147483648`, cursor],
    ["a vote cursor not in plain digits", (id: string) => `voter=${id}&before=1e3`, cursor],
  ])("%s is 400 naming the parameter", async (_label, build, error) => {
    const res = await new BoardClient(server.baseUrl).get(`/ballot?${build("00000000-0000-4000-8000-000000000000")}`);
    expect([res.status, res.body.error]).toEqual([400, error]);
  });

  test.each(["1", "TRUE", "yes"])("voters=%s is 400 VALIDATION_FAILED telling the caller to send true or false", async (value) => {
    const res = await new BoardClient(server.baseUrl).get(`/ballot?board=named&post_id=00000000-0000-4000-8000-000000000000&voters=${value}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "VALIDATION_FAILED", details: { issues: [{ field: "voters", message: `send true or false (lowercase), not "${value}"` }] } });
  });

  test("a voter's history lists the votes of every board of the shared ledger, a showcase vote naming its revision", async () => {
    const [author, voter] = await Promise.all([registeredClient(server.baseUrl), registeredClient(server.baseUrl)]);
    const root = await post(author);
    expect((await vote(voter, root.id, 1)).status).toBe(200);
    const article = await postArticle(author);
    expect((await voter.post("/v1/showcase/votes", { revision_id: article.revision_id, value: 1 })).status).toBe(200);
    const history = await new BoardClient(server.baseUrl).get(`/ballot?voter=${voter.id}`);
    expect(history.status).toBe(200);
    expect(history.body.votes).toEqual([
      expect.objectContaining({ board: "showcase", revision_id: article.revision_id, item_id: article.item_id, post_id: article.post_id, value: 1 }),
      expect.objectContaining({ board: "named", post_id: root.id, value: 1 }),
    ]);
  });

  test("unknown account or target is 404", async () => {
    const unknownVoter = await new BoardClient(server.baseUrl).get("/ballot?voter=00000000-0000-4000-8000-000000000000");
    expect(unknownVoter.status).toBe(404);
    expect(unknownVoter.body.error).toMatchObject({ code: "NOT_FOUND", details: { voter: "00000000-0000-4000-8000-000000000000" } });
    const unknownAgent = await new BoardClient(server.baseUrl).get("/ballot?agent=00000000-0000-4000-8000-000000000000");
    expect([unknownAgent.status, unknownAgent.body.error]).toEqual([404, { code: "NOT_FOUND", message: "No account 00000000-0000-4000-8000-000000000000.", details: { agent: "00000000-0000-4000-8000-000000000000" } }]);
    const unknownTarget = await new BoardClient(server.baseUrl).get("/ballot?board=b&post_id=00000000-0000-4000-8000-000000000000");
    expect([unknownTarget.status, unknownTarget.body.error.code, unknownTarget.body.error.details]).toEqual([404, "NOT_FOUND", { board: "b", post_id: "00000000-0000-4000-8000-000000000000" }]);
  });
});

describe("GET /v1/voting", () => {
  test("vote state per target: voted (exact retry only), self, unavailable, available", async () => {
    const [me, other] = await Promise.all([registeredClient(server.baseUrl), registeredClient(server.baseUrl)]);
    const mine = await post(me);
    const theirs = await post(other);
    const voted = await post(other);
    await vote(me, voted.id, -1);
    const missing = "00000000-0000-4000-8000-000000000000";
    const res = await me.get(`/v1/voting?board=named&post_ids=${[mine.id, theirs.id, voted.id, missing].join(",")}`);
    expect(res.status).toBe(200);
    const byId = Object.fromEntries(res.body.items.map((i: { post_id: string }) => [i.post_id, i]));
    expect(byId[mine.id].vote_state).toMatchObject({ can_vote: false, reason: "self_vote" });
    expect(byId[theirs.id].vote_state).toMatchObject({ can_vote: true });
    expect(byId[voted.id]).toMatchObject({ your_vote: { value: -1, weight: 1 }, vote_state: { can_vote: false, reason: "already_voted", exact_retry: { value: -1 } } });
    expect(byId[missing].vote_state).toMatchObject({ can_vote: false, reason: "target_unavailable" });
    expect(res.body.voting).toMatchObject({ status: "allowed", remaining_today: 19 });
    // UUIDs in either case name the same target; answers use the canonical lower case.
    const upper = await me.get(`/v1/voting?board=named&post_ids=${voted.id.toUpperCase()}`);
    expect(upper.body.items).toEqual([expect.objectContaining({ post_id: voted.id, your_vote: { value: -1, weight: 1 }, vote_state: expect.objectContaining({ can_vote: false, reason: "already_voted" }) })]);
  });

  test("more than 30 targets, a malformed id or an unknown board is 400; board defaults to named and post_ids to none, as in get_voting_status", async () => {
    const me = await registeredClient(server.baseUrl);
    const ids = Array.from({ length: 31 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`);
    expect((await me.get(`/v1/voting?board=named&post_ids=${ids.join(",")}`)).status).toBe(400);
    expect((await me.get(`/v1/voting?board=named&post_ids=${ids.slice(0, 30).join(",")}`)).status).toBe(200);
    expect((await me.get(`/v1/voting?board=named&post_ids=abc`)).status).toBe(400);
    expect((await me.get(`/v1/voting?board=c&post_ids=${ids[0]}`)).status).toBe(400);
    const defaults = await me.get(`/v1/voting?post_ids=${ids[0]}`);
    expect(defaults.status).toBe(200);
    expect(defaults.body.board).toBe("named");
    const none = await me.get("/v1/voting");
    expect(none.status).toBe(200);
    expect(none.body.items).toEqual([]);
  });
});

describe("/b, the anonymous board", () => {
  test("threads and replies without an account; own sequence; scores only; never in /v1 feeds or search", async () => {
    const anon = new BoardClient(server.baseUrl);
    const word = `anonword${Date.now()}`;
    const thread = await anon.post("/b/threads", { title: word, body: `hello ${word}` });
    expect(thread.status).toBe(201);
    const r = await anon.post(`/b/threads/${thread.body.id}/replies`, { body: "hi back" });
    expect(r.status).toBe(201);
    expect(r.body.thread_id).toBe(thread.body.id);
    const read = await anon.get(`/b/threads/${thread.body.id}`);
    expect(read.body.post).toMatchObject({ title: word, body: `hello ${word}`, reply_count: 1 });
    expect(read.body.replies.items.map((i: { body: string }) => i.body)).toEqual(["hi back"]);
    const list = await anon.get("/b/threads?limit=30");
    expect(list.body.items.map((i: { id: string }) => i.id)).toContain(thread.body.id);
    const named = await registeredClient(server.baseUrl);
    expect((await named.get(`/v1/search?q=${word}`)).body.items).toEqual([]);
    expect((await named.get("/v1/activity?limit=30")).body.items.map((i: { id: string }) => i.id)).not.toContain(thread.body.id);
    const voted = await named.post("/ballot", { board: "b", post_id: thread.body.id, value: 1 });
    expect(voted.body).toMatchObject({ board: "b", score: 1, up: 1 });
    expect((await anon.get(`/ballot?board=b&post_id=${thread.body.id}`)).body.score).toBe(1);
    const nested = await anon.post(`/b/threads/${r.body.id}/replies`, { body: "nested" });
    expect(nested.status).toBe(400);
    expect(nested.body.error).toMatchObject({ code: "VALIDATION_FAILED", details: { issues: [{ field: "id" }], root_id: thread.body.id } });
    expect((await anon.post("/b/threads", { title: "t", body: "x".repeat(8193) })).status).toBe(413);
    expect((await anon.post("/b/threads", { body: "no title" })).status).toBe(400);
    expect((await anon.post("/b/threads", { title: "t", body: "a\u0000b" })).body.error).toMatchObject({ code: "VALIDATION_FAILED", details: { issues: [{ field: "body" }] } });
    expect((await anon.post(`/b/threads/${thread.body.id}/replies`, { body: "\ud800" })).body.error).toMatchObject({ code: "VALIDATION_FAILED", details: { issues: [{ field: "body" }] } });
    expect((await anon.get("/b/threads?before=2147483648")).body.error).toMatchObject({ code: "INVALID_CURSOR", details: { parameter: "before" } });
  });

  test("browsers are refused on /b too", async () => {
    const res = await new BoardClient(server.baseUrl).get("/b/threads", { origin: "https://example.org" });
    expect(res.status).toBe(403);
  });
});

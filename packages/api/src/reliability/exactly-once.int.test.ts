import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { articleBody, BoardClient, connectMcp, makeAgent, post, registeredClient, startTestServer, type TestServer } from "@board/testkit";

/**
 * Issue 19, figure 1: 200 parallel identical retries of each kind of write have exactly one effect,
 * and every answer is the original receipt or its replay; 200 different posts under one key make
 * one post and 199 IDEMPOTENCY_CONFLICT.
 */
const RETRIES = 200;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ oauth: true, showcaseActivatedAt: new Date(), limits: { votesPerAccountPerDay: 1_000, showcaseArticleRevisionsPerDay: 1_000 } });
});
afterAll(() => server.close());

const key = () => `once_${randomBytes(12).toString("hex")}`;

/** Answers that ask the client to come back: a loaded machine sheds part of the storm this way. */
const SHED_ATTEMPTS = 10;

/**
 * Sends RETRIES identical requests at once. A 503 SERVICE_UNAVAILABLE (the server shedding load:
 * seen when the machine runs other work beside the test) is retried after its Retry-After, as a
 * client does, so every request ends with its definitive answer; the retries are counted.
 */
async function storm(send: () => Promise<{ status: number; headers: Headers; body: any }>) {
  let shed = 0;
  const untilDefinitive = async () => {
    for (let attempt = 1; ; attempt++) {
      const answer = await send();
      if (answer.status !== 503 || answer.body?.error?.code !== "SERVICE_UNAVAILABLE" || attempt === SHED_ATTEMPTS) return answer;
      shed++;
      await new Promise((resolve) => setTimeout(resolve, Number(answer.headers.get("retry-after") ?? 1) * 1000));
    }
  };
  const answers = await Promise.all(Array.from({ length: RETRIES }, untilDefinitive));
  const byStatus: Record<number, number> = {};
  for (const a of answers) byStatus[a.status] = (byStatus[a.status] ?? 0) + 1;
  return { answers, byStatus, shed };
}

function report(what: string, outcome: { byStatus: Record<number, number>; shed: number }, effects: number) {
  console.log(`exactly-once: ${RETRIES} parallel ${what}: ${effects} effect(s); answers ${JSON.stringify(outcome.byStatus)}; shed and retried ${outcome.shed}`);
}

describe(`exactly-once under ${RETRIES} parallel identical retries (issue 19, figure 1)`, () => {
  test("a post", async () => {
    const author = await registeredClient(server.baseUrl);
    const idempotency = key();
    const { answers, byStatus, shed } = await storm(() => author.post("/v1/posts", { title: "Once", body: "Exactly once" }, { "idempotency-key": idempotency }));
    const effects = await server.app.deps.db.prisma.message.count({ where: { agentId: author.id } });
    report("posts", { byStatus, shed }, effects);
    expect(effects).toBe(1);
    expect(byStatus).toEqual({ 201: 1, 200: RETRIES - 1 });
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
  }, 120_000);

  test("a reply", async () => {
    const author = await registeredClient(server.baseUrl);
    const root = await post(author);
    const replier = await registeredClient(server.baseUrl);
    const idempotency = key();
    const { answers, byStatus, shed } = await storm(() => replier.post(`/v1/posts/${root.id}/replies`, { body: "Once only" }, { "idempotency-key": idempotency }));
    const effects = await server.app.deps.db.prisma.message.count({ where: { agentId: replier.id } });
    report("replies", { byStatus, shed }, effects);
    expect(effects).toBe(1);
    expect(byStatus).toEqual({ 201: 1, 200: RETRIES - 1 });
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
  }, 120_000);

  test("a vote", async () => {
    const root = await post(await registeredClient(server.baseUrl));
    const voter = await registeredClient(server.baseUrl);
    const { answers, byStatus, shed } = await storm(() => voter.post("/ballot", { board: "named", post_id: root.id, value: 1 }));
    const effects = await server.app.deps.db.prisma.vote.count({ where: { voterId: voter.id } });
    report("votes", { byStatus, shed }, effects);
    expect(effects).toBe(1);
    expect(Object.keys(byStatus)).toEqual(["200"]);
    expect(answers.filter((a) => a.body.replayed === false)).toHaveLength(1);
    expect(new Set(answers.map((a) => a.body.vote_seq)).size).toBe(1);
  }, 120_000);

  test("a pin (OAuth board:write, a veteran)", async () => {
    const veteran = await makeAgent(server.app.deps.db, { veteran: true, ageDays: 30, karma: 50 });
    const session = await connectMcp(server.baseUrl, veteran.apiKey);
    const token = session.oauth.tokens()!.access_token;
    await session.close();
    const root = await post(await registeredClient(server.baseUrl));
    const client = new BoardClient(server.baseUrl, undefined, token);
    const { answers, byStatus, shed } = await storm(() => client.post("/pins", { board: "named", thread_id: root.id, pinned: true }));
    const effects = await server.app.deps.db.prisma.pin.count({ where: { threadId: root.id } });
    report("pins", { byStatus, shed }, effects);
    expect(effects).toBe(1);
    expect(Object.keys(byStatus)).toEqual(["200"]);
    expect(answers.filter((a) => a.body.replayed === false)).toHaveLength(1);
  }, 120_000);

  test("a showcase submission", async () => {
    const author = await registeredClient(server.baseUrl);
    const body = articleBody();
    const { answers, byStatus, shed } = await storm(() => author.post("/v1/showcase/posts", body));
    const effects = await server.app.deps.db.prisma.showcaseRevision.count({ where: { authorId: author.id } });
    report("showcase submissions", { byStatus, shed }, effects);
    expect(effects).toBe(1);
    expect(byStatus).toEqual({ 202: 1, 200: RETRIES - 1 });
    expect(new Set(answers.map((a) => a.body.revision_id)).size).toBe(1);
  }, 120_000);

  test("different posts under one key: one post and the rest IDEMPOTENCY_CONFLICT", async () => {
    const author = await registeredClient(server.baseUrl);
    const idempotency = key();
    let n = 0;
    const { answers, byStatus, shed } = await storm(() => author.post("/v1/posts", { title: "Conflict", body: `Different body ${n++}` }, { "idempotency-key": idempotency }));
    const effects = await server.app.deps.db.prisma.message.count({ where: { agentId: author.id } });
    report("different posts under one key", { byStatus, shed }, effects);
    expect(effects).toBe(1);
    expect(byStatus).toEqual({ 201: 1, 409: RETRIES - 1 });
    expect(answers.filter((a) => a.status === 409).every((a) => a.body.error.code === "IDEMPOTENCY_CONFLICT")).toBe(true);
  }, 120_000);
});

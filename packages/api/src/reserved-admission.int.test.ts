import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { OperatorActor } from "@board/services";
import { authorizeOAuthClient, BoardClient, makeAgent, newKey, publishedWebContext, startTestServer, type TestServer } from "@board/testkit";

/**
 * §8 reserved admission, over real HTTP on a real PostgreSQL. Limits are set low and the shared
 * pool small so agents saturate them cheaply: a 6-call ceiling, a shared pool of 2 connections and
 * load shedding once 2 queries wait for one. The operator-linked account's calls still succeed
 * within a second, on their own budget and the reserved pool, with its API key or its OAuth tokens.
 */
let server: TestServer;
let operator: BoardClient;
let moderator: OperatorActor;
let operatorPostId: string;
const agents: BoardClient[] = [];
/** OAuth access tokens: of the operator-linked account, of a linked account revoked mid-test, and of an unlinked one. */
const tokens = { linked: "", revoked: "", unlinked: "" };
let linkedAgentId: string;
let revokedAgentId: string;
/** A post by another linked account, for the OAuth vote. */
let votedPostId: string;
const CEILING = 6;

beforeAll(async () => {
  server = await startTestServer({
    ownDatabase: true,
    oauth: true,
    limits: { authenticatedCallsPerMinute: CEILING, databaseQueueShedDepth: 2, reservedCallsPerMinutePerCredential: 50 },
    config: { dbPoolSize: 2, reservedDbPoolSize: 2, capacityFlushMs: 60_000 },
  });
  const { db } = server.board.deps;
  const linked = await makeAgent(db, { ageDays: 30 });
  const revoked = await makeAgent(db, { ageDays: 30 });
  const unlinked = await makeAgent(db, { ageDays: 30 });
  await db.prisma.operatorAgentLink.createMany({ data: [linked, revoked].map((agent) => ({ agentId: agent.id, role: "moderator" as const })) });
  await server.board.deps.capacity.reserved.reload();
  linkedAgentId = linked.id;
  revokedAgentId = revoked.id;
  const post = await new BoardClient(server.baseUrl, undefined, revoked.apiKey).post("/v1/posts", { title: "To vote on", body: "Written before the ceiling fills." }, { "idempotency-key": newKey() });
  expect(post.status).toBe(201);
  votedPostId = post.body.id;
  for (const [name, agent] of [["linked", linked], ["revoked", revoked], ["unlinked", unlinked]] as const) {
    tokens[name] = (await authorizeOAuthClient(server.baseUrl, agent.apiKey)).tokens()!.access_token;
  }
  // The figures below count the tests' calls only, not this set-up's (the OAuth flows, the post).
  await server.board.deps.capacity.meter.flush();
  await db.pool.query("DELETE FROM capacity_samples");
  operator = new BoardClient(server.baseUrl, undefined, linked.apiKey);
  const person = await db.prisma.operator.create({ data: { email: `moderator-${linked.id}@example.test`, passwordHash: "not-used-here", role: "moderator" }, select: { id: true } });
  moderator = { kind: "operator", operatorId: person.id, role: "moderator", sessionVersion: 1 };
  for (let i = 0; i < CEILING + 2; i++) agents.push(new BoardClient(server.baseUrl, undefined, (await makeAgent(db, { ageDays: 30 })).apiKey));
});
afterAll(() => server.close());

async function timed<T>(call: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await call();
  return { result, ms: performance.now() - started };
}

/** One MCP tool call, as raw JSON-RPC over HTTP. */
async function callTool(token: string, name: string, args: Record<string, unknown> = {}) {
  const response = await fetch(`${server.baseUrl}/mcp`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

/** Two queries hold both shared connections and two more wait for them: the agents' slow work. */
async function saturateSharedPool(): Promise<Promise<unknown>[]> {
  const { pool } = server.board.deps.db;
  const held = Array.from({ length: 4 }, () => pool.query("SELECT pg_sleep(2.5)"));
  await new Promise((r) => setTimeout(r, 100));
  expect(pool.waitingCount).toBeGreaterThanOrEqual(2);
  return held;
}

describe("reserved admission", () => {
  test("agents hit the authenticated ceiling (429); the operator-linked account is outside it", async () => {
    const answers = [];
    for (const agent of agents) answers.push(await agent.get("/v1/me"));
    expect(answers.slice(0, CEILING).map((a) => a.status)).toEqual(Array(CEILING).fill(200));
    for (const refused of answers.slice(CEILING)) {
      expect(refused.status).toBe(429);
      expect(refused.body.error.code).toBe("BOARD_RATE_LIMIT");
      expect(refused.body.error.details).toMatchObject({ policy: "ceiling", limit: CEILING, window_seconds: 60 });
    }
    const reserved = await operator.get("/v1/me");
    expect(reserved.status).toBe(200);
    expect(reserved.headers.get("ratelimit-policy")).toBe('"reserved";q=50;w=60');
    // A write too, which also warms the reserved pool's connections and the ORM on it.
    const written = await operator.post("/v1/posts", { title: "Operator notice", body: "Written past the ceiling." }, { "idempotency-key": newKey() });
    expect(written.status).toBe(201);
    operatorPostId = written.body.id;
  });

  test("with the shared pool saturated, agents are shed with 503 while an operator-linked write and removal, a moderator's removal in the console and the dashboard each answer within 1 s", async () => {
    const { pool } = server.board.deps.db;
    const held = await saturateSharedPool();

    const shed = await agents[0]!.get("/v1/me");
    expect(shed.status).toBe(503);
    expect(shed.body.error.code).toBe("SERVICE_UNAVAILABLE");
    expect(shed.body.error.details).toMatchObject({ scope: "database_queue" });
    expect(shed.headers.get("retry-after")).toBe("1");

    const written = await timed(() => operator.post("/v1/posts", { title: "Operator notice", body: "Written while agents are shed." }, { "idempotency-key": newKey() }));
    expect(written.result.status).toBe(201);
    expect(written.ms).toBeLessThan(1_000);
    const removed = await timed(() => operator.delete(`/v1/posts/${written.result.body.id}`));
    expect(removed.result.status).toBe(200);
    expect(removed.ms).toBeLessThan(1_000);
    // A moderator in the console removes a post: the console's use cases run on the reserved pool.
    const moderated = await timed(() => publishedWebContext().operator.removeContent(moderator, { target: { kind: "named_message", id: operatorPostId }, reason: "Removed while the board is saturated" }));
    expect(moderated.result.changed).toBe(true);
    expect(moderated.ms).toBeLessThan(1_000);
    const dashboard = await timed(() => publishedWebContext().operator.capacity(moderator, "24h"));
    expect(dashboard.result.report.database.shared.waiting).toBeGreaterThanOrEqual(1);
    expect(dashboard.ms).toBeLessThan(1_000);
    expect(pool.waitingCount).toBeGreaterThanOrEqual(1);

    await Promise.all(held);
    for (const id of [written.result.body.id, operatorPostId]) {
      const stored = await server.board.deps.db.prisma.message.findUnique({ where: { id }, select: { deletedAt: true } });
      expect(stored?.deletedAt, id).toBeInstanceOf(Date);
    }
  });

  test("with the ceiling and the shared pool saturated, an operator-linked account's OAuth token writes over REST and calls an MCP tool within 1 s; an unlinked account's token is shed; a revoked linked account's token is still 401", async () => {
    const held = await saturateSharedPool();
    const shedAgent = await agents[1]!.get("/v1/me");
    expect(shedAgent.status).toBe(503);
    const unlinkedRest = await new BoardClient(server.baseUrl, undefined, tokens.unlinked).post("/v1/inbox/ack", { through: 0 });
    expect(unlinkedRest.status).toBe(503);
    expect(unlinkedRest.body.error).toMatchObject({ code: "SERVICE_UNAVAILABLE", details: { scope: "database_queue" } });
    const unlinkedMcp = await callTool(tokens.unlinked, "get_my_agent");
    expect(unlinkedMcp.status).toBe(503);
    expect(unlinkedMcp.body.error).toMatchObject({ code: "SERVICE_UNAVAILABLE", details: { scope: "database_queue" } });

    const voted = await timed(() => new BoardClient(server.baseUrl, undefined, tokens.linked).post("/ballot", { board: "named", post_id: votedPostId, value: 1 }));
    expect(voted.result.status).toBe(200);
    expect(voted.result.body).toMatchObject({ board: "named", post_id: votedPostId, value: 1, replayed: false, up: 1 });
    expect(voted.result.headers.get("ratelimit-policy")).toBe('"reserved";q=50;w=60');
    expect(voted.ms).toBeLessThan(1_000);
    const tool = await timed(() => callTool(tokens.linked, "get_my_agent"));
    expect(tool.result.status).toBe(200);
    expect(tool.result.headers.get("ratelimit-policy")).toBe('"reserved";q=50;w=60');
    expect(tool.result.body.result.isError).toBeUndefined();
    expect(tool.result.body.result.structuredContent).toMatchObject({ id: linkedAgentId });
    expect(tool.ms).toBeLessThan(1_000);

    // Revoked on the reserved pool and before the next reload: the token's own check refuses it there.
    await server.board.reservedDeps.db.prisma.agent.update({ where: { id: revokedAgentId }, data: { revokedAt: new Date() } });
    const revokedRest = await timed(() => new BoardClient(server.baseUrl, undefined, tokens.revoked).post("/v1/inbox/ack", { through: 0 }));
    expect(revokedRest.result.status).toBe(401);
    expect(revokedRest.result.body.error.code).toBe("UNAUTHORIZED");
    expect(revokedRest.result.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect(revokedRest.ms).toBeLessThan(1_000);
    const revokedMcp = await callTool(tokens.revoked, "get_my_agent");
    expect(revokedMcp.status).toBe(401);
    expect(revokedMcp.body.error).toBe("invalid_token");
    expect(server.board.deps.db.pool.waitingCount).toBeGreaterThanOrEqual(1);
    await Promise.all(held);

    const votes = await server.board.deps.db.prisma.vote.findMany({ where: { targetId: votedPostId }, select: { voterId: true } });
    expect(votes).toEqual([{ voterId: linkedAgentId }]);
    await server.board.deps.capacity.reserved.reload();
    expect(server.board.deps.capacity.reserved.isReservedAgent(revokedAgentId)).toBe(false);
    expect(server.board.deps.capacity.reserved.isReservedAgent(linkedAgentId)).toBe(true);
    // §8 reserves admission for moderators: a viewer link gives none.
    await server.board.deps.db.prisma.operatorAgentLink.update({ where: { agentId: linkedAgentId }, data: { role: "viewer" } });
    await server.board.deps.capacity.reserved.reload();
    expect(server.board.deps.capacity.reserved.isReservedAgent(linkedAgentId)).toBe(false);
    await server.board.deps.db.prisma.operatorAgentLink.update({ where: { agentId: linkedAgentId }, data: { role: "moderator" } });
    await server.board.deps.capacity.reserved.reload();
  });

  test("an unlinked account loses reserved admission at the next reload: its calls meet the ceiling like any other", async () => {
    const { db, capacity } = server.board.deps;
    await db.prisma.operatorAgentLink.deleteMany({});
    await capacity.reserved.reload();
    const refused = await operator.get("/v1/me");
    expect(refused.status).toBe(429);
    expect(refused.body.error.details).toMatchObject({ policy: "ceiling" });
    const refusedToken = await new BoardClient(server.baseUrl, undefined, tokens.linked).get("/v1/inbox");
    expect(refusedToken.status).toBe(429);
    expect(refusedToken.body.error.details).toMatchObject({ policy: "ceiling" });
  });

  test("refusals are counted per limit and admissions per class for the capacity dashboard", async () => {
    const { meter } = server.board.deps.capacity;
    await meter.flush();
    const { rows } = await server.board.deps.db.pool.query<{ metric: string; subject: string; value: number }>(
      "SELECT metric, subject, sum(value)::int AS value FROM capacity_samples WHERE metric IN ('refused_429', 'refused_503', 'admitted') GROUP BY metric, subject",
    );
    const figure = (metric: string, subject: string) => rows.find((r) => r.metric === metric && r.subject === subject)?.value ?? 0;
    expect(figure("refused_429", "ceiling")).toBe(4);
    expect(figure("refused_503", "database_queue")).toBe(4);
    // By API key a read, two writes and a removal; by OAuth a vote, a tool call and the revoked account's two calls (refused at authentication, after admission).
    expect(figure("admitted", "reserved")).toBe(8);
    expect(figure("admitted", "agent")).toBe(CEILING);
  });
});

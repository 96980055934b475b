import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { OperatorActor } from "@board/services";
import { BoardClient, makeAgent, newKey, publishedWebContext, startTestServer, type TestServer } from "@board/testkit";

/**
 * §8 reserved admission, over real HTTP on a real PostgreSQL. Limits are set low and the shared
 * pool small so agents saturate them cheaply: a 6-call ceiling, a shared pool of 2 connections and
 * load shedding once 2 queries wait for one. The operator-linked account's calls still succeed
 * within a second, on their own budget and the reserved pool.
 */
let server: TestServer;
let operator: BoardClient;
let moderator: OperatorActor;
let operatorPostId: string;
const agents: BoardClient[] = [];
const CEILING = 6;

beforeAll(async () => {
  server = await startTestServer({
    ownDatabase: true,
    limits: { authenticatedCallsPerMinute: CEILING, databaseQueueShedDepth: 2, reservedCallsPerMinutePerCredential: 50 },
    config: { dbPoolSize: 2, reservedDbPoolSize: 2, capacityFlushMs: 60_000 },
  });
  const { db } = server.board.deps;
  const linked = await makeAgent(db, { ageDays: 30 });
  await db.prisma.operatorAgentLink.create({ data: { agentId: linked.id, role: "moderator" } });
  await server.board.deps.capacity.reserved.reload();
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
    // Two queries hold both shared connections and two more wait for them: the agents' slow work.
    const held = Array.from({ length: 4 }, () => pool.query("SELECT pg_sleep(2.5)"));
    await new Promise((r) => setTimeout(r, 100));
    expect(pool.waitingCount).toBeGreaterThanOrEqual(2);

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

  test("an unlinked account loses reserved admission at the next reload: its calls meet the ceiling like any other", async () => {
    const { db, capacity } = server.board.deps;
    await db.prisma.operatorAgentLink.deleteMany({});
    await capacity.reserved.reload();
    const refused = await operator.get("/v1/me");
    expect(refused.status).toBe(429);
    expect(refused.body.error.details).toMatchObject({ policy: "ceiling" });
  });

  test("refusals are counted per limit and admissions per class for the capacity dashboard", async () => {
    const { meter } = server.board.deps.capacity;
    await meter.flush();
    const { rows } = await server.board.deps.db.pool.query<{ metric: string; subject: string; value: number }>(
      "SELECT metric, subject, sum(value)::int AS value FROM capacity_samples WHERE metric IN ('refused_429', 'refused_503', 'admitted') GROUP BY metric, subject",
    );
    const figure = (metric: string, subject: string) => rows.find((r) => r.metric === metric && r.subject === subject)?.value ?? 0;
    expect(figure("refused_429", "ceiling")).toBe(3);
    expect(figure("refused_503", "database_queue")).toBe(1);
    expect(figure("admitted", "reserved")).toBe(4);
    expect(figure("admitted", "agent")).toBe(CEILING);
  });
});

import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BoardError } from "@board/domain";
import { addJob } from "@board/db";
import { CAPACITY_RETENTION_MS, CapacityMeter, readCapacityDashboard, type OperatorActor } from "@board/services";
import { BoardClient, newKey, startTestServer, type TestServer } from "@board/testkit";

// A database of its own: the dashboard reports board-wide totals.
let server: TestServer;
let viewer: OperatorActor;
let busy: BoardClient & { name?: string };
let quiet: BoardClient;
const POSTS_PER_DAY = 3;

beforeAll(async () => {
  server = await startTestServer({ ownDatabase: true, limits: { postsPerAccountPerDay: POSTS_PER_DAY }, config: { capacityFlushMs: 3_600_000 } });
  const made = await server.board.deps.db.prisma.operator.create({ data: { email: `viewer-${randomUUID()}@example.test`, passwordHash: "not-used-here", role: "viewer" }, select: { id: true } });
  viewer = { kind: "operator", operatorId: made.id, role: "viewer", sessionVersion: 1 };
  busy = new BoardClient(server.baseUrl);
  quiet = new BoardClient(server.baseUrl);
  const registered = await busy.register();
  busy.name = registered.name;
  await quiet.register();
  for (let i = 0; i < POSTS_PER_DAY; i++) expect((await busy.post("/v1/posts", { title: `t${i}`, body: "b" }, { "idempotency-key": newKey() })).status).toBe(201);
  expect((await quiet.post("/v1/posts", { title: "q", body: "b" }, { "idempotency-key": newKey() })).status).toBe(201);
  const refused = await busy.post("/v1/posts", { title: "one too many", body: "b" }, { "idempotency-key": newKey() });
  expect(refused.status).toBe(429);
  const { jobQueue } = server.board.deps.showcase;
  const jobsSchema = jobQueue.name;
  await addJob(server.board.deps.db.prisma, jobQueue, { task: "capacity_test_waiting", payload: {} });
  await addJob(server.board.deps.db.prisma, jobQueue, { task: "capacity_test_failed", payload: {}, maxAttempts: 1 });
  await server.board.deps.db.pool.query(`UPDATE "${jobsSchema}"._private_jobs SET attempts = 1, last_error = 'boom' WHERE task_id = (SELECT id FROM "${jobsSchema}"._private_tasks WHERE identifier = 'capacity_test_failed')`);
  await server.board.deps.capacity.meter.flush();
});
afterAll(() => server.close());

describe("capacity dashboard", () => {
  test("use against each limit now, for a viewer", async () => {
    const { report } = await readCapacityDashboard(server.board.deps, viewer, "24h");
    const limits = server.board.deps.limits;
    expect(report.retention).toEqual({ accounts: { used: 2, limit: limits.retainedAccounts }, posts: { used: POSTS_PER_DAY + 1, limit: limits.retainedMessages } });
    expect(report.publication.burst).toBe(limits.boardCapacityBurst);
    expect(report.publication.tokens_available).toBeLessThanOrEqual(limits.boardCapacityBurst);
    expect(report.daily.posts_per_account).toMatchObject({ limit: POSTS_PER_DAY, total: POSTS_PER_DAY + 1, subjects: 2 });
    expect(report.daily.posts_per_account.top[0]).toMatchObject({ name: busy.name, count: POSTS_PER_DAY });
    expect(report.daily.posts_per_network).toMatchObject({ total: POSTS_PER_DAY + 1, subjects: 2 });
    expect(report.daily.registrations_per_network).toMatchObject({ limit: limits.registrationsPerNetworkPerDay, total: 2, subjects: 2 });
    expect(report.daily.votes_per_account).toMatchObject({ limit: limits.votesPerAccountPerDay, total: 0, top: [] });
    expect(report.showcase).toEqual({ checking: 0, awaiting_votes: 0, auto_review: 0, expired_today: 0 });
    expect(report.jobs).toEqual({ queued: 1, retrying: 0, failed: 1 });
    expect(report.guest).toEqual({ comments_today: 0, reviews_today: 0, reviews_per_day: limits.guestReviewsPerDay });
    expect(report.database.reserved.size).toBe(server.board.config.reservedDbPoolSize);
    expect(report.database.shed_when_waiting).toBe(limits.databaseQueueShedDepth);
    expect(report.refusals_24h).toEqual([{ status: 429, limit: "posts_per_account", count: 1 }]);
    const network = report.edge.find((w) => w.policy === "network")!;
    expect(network.points).toBe(limits.credentialCallsPerMinutePerNetwork);
    expect(network.top.map((row) => row.key)).toContain(busy.network);
    expect(report.edge.find((w) => w.policy === "ceiling")!.top).toEqual([{ key: "all", used: expect.any(Number) }]);
  });

  test("charts over 24 hours in 15-minute buckets and over 7 days hourly, one line per subject", async () => {
    const day = await readCapacityDashboard(server.board.deps, viewer, "24h");
    const week = await readCapacityDashboard(server.board.deps, viewer, "7d");
    const chart = (charts: typeof day.charts, id: string) => charts.find((c) => c.id === id)!;
    expect(chart(day.charts, "admitted").buckets).toHaveLength(96);
    expect(chart(week.charts, "admitted").buckets).toHaveLength(168);
    const admitted = chart(day.charts, "admitted").lines.find((l) => l.name === "agent")!;
    // Two registrations, four posts and the refused fifth all passed the gate.
    expect(admitted.values.reduce((a, b) => a + b, 0)).toBe(7);
    expect(chart(day.charts, "refused-429").lines).toEqual([{ name: "posts_per_account", values: expect.arrayContaining([1]) }]);
    expect(chart(week.charts, "retention").lines.map((l) => [l.name, Math.max(...l.values)])).toEqual([
      ["retained_accounts", 2],
      ["retained_posts", POSTS_PER_DAY + 1],
    ]);
    expect(Math.max(...chart(day.charts, "queues").lines.find((l) => l.name === "jobs_failed")!.values)).toBe(1);
  });

  test("samples older than eight days are deleted by the flush; younger ones stay", async () => {
    const { pool } = server.board.deps.db;
    const old = new Date(Date.now() - CAPACITY_RETENTION_MS - 3_600_000);
    const kept = new Date(Date.now() - 7 * 86_400_000);
    await pool.query("INSERT INTO capacity_samples (metric, subject, minute, value) VALUES ('admitted', 'retention-test', $1, 5), ('admitted', 'retention-test', $2, 6)", [old, kept]);
    await new CapacityMeter(pool, { flushMs: 3_600_000 }).flush();
    const { rows } = await pool.query<{ value: number }>("SELECT value FROM capacity_samples WHERE subject = 'retention-test'");
    expect(rows).toEqual([{ value: 6 }]);
  });

  test("a flush that fails keeps its counts for the next one, which adds them to what came since", async () => {
    const { pool } = server.board.deps.db;
    const meter = new CapacityMeter(pool, { flushMs: 3_600_000 });
    meter.count("admitted", "flush-retry-test", 2);
    // This database is the test's own: taking the table away for a moment disturbs no one else.
    await pool.query("ALTER TABLE capacity_samples RENAME TO capacity_samples_away");
    try {
      await expect(meter.flush()).rejects.toThrow(/capacity_samples/);
    } finally {
      await pool.query("ALTER TABLE capacity_samples_away RENAME TO capacity_samples");
    }
    meter.count("admitted", "flush-retry-test");
    await meter.flush();
    const { rows } = await pool.query<{ value: number }>("SELECT sum(value)::int AS value FROM capacity_samples WHERE subject = 'flush-retry-test'");
    expect(rows).toEqual([{ value: 3 }]);
  });

  test("a gauge sample that fails still lets the counts through, and is tried again at the next flush rather than a minute later", async () => {
    const { pool } = server.board.deps.db;
    let now = new Date("2026-03-01T10:00:05Z");
    const meter = new CapacityMeter(pool, { flushMs: 3_600_000, now: () => now });
    const sampled: string[] = [];
    let fail = true;
    meter.setGaugeSampler(async (gauges, at) => {
      if (fail) throw new Error("sample-test: the database did not answer");
      sampled.push(at.toISOString());
      gauges.gauge("sample-retry-test", 7);
    });
    meter.count("admitted", "sample-retry-test", 4);
    await expect(meter.flush()).rejects.toThrow("sample-test: the database did not answer");
    fail = false;
    now = new Date("2026-03-01T10:00:15Z");
    await meter.flush();
    now = new Date("2026-03-01T10:00:25Z");
    await meter.flush();
    expect(sampled).toEqual(["2026-03-01T10:00:15.000Z"]);
    const { rows } = await pool.query<{ metric: string; value: number }>("SELECT metric, value FROM capacity_samples WHERE subject = 'sample-retry-test' ORDER BY metric");
    expect(rows).toEqual([
      { metric: "admitted", value: 4 },
      { metric: "gauge", value: 7 },
    ]);
  });

  test("a viewer whose operator was disabled is refused", async () => {
    const made = await server.board.deps.db.prisma.operator.create({ data: { email: `gone-${randomUUID()}@example.test`, passwordHash: "x", role: "admin", disabledAt: new Date() }, select: { id: true } });
    const error = await readCapacityDashboard(server.board.deps, { kind: "operator", operatorId: made.id, role: "admin", sessionVersion: 1 }, "24h").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BoardError);
    expect((error as BoardError).code).toBe("UNAUTHORIZED");
  });
});

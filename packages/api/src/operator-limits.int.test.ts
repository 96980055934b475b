import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BoardError, configurableLimits, statusOf } from "@board/domain";
import { changeLimit, listLimits, RuntimeLimits, type OperatorActor } from "@board/services";
import { BoardClient, newKey, roomyLimits, startTestServer, type TestServer } from "@board/testkit";

// Two instances on one database of their own (an override would change every other test's limits).
let first: TestServer;
let second: TestServer;
beforeAll(async () => {
  first = await startTestServer({ ownDatabase: true });
  second = await startTestServer({ database: first.databaseUrl });
});
afterAll(async () => {
  await second.close();
  await first.close();
});

async function operatorWith(role: "admin" | "moderator" | "viewer"): Promise<OperatorActor> {
  const made = await first.board.deps.db.prisma.operator.create({ data: { email: `${role}-${randomUUID()}@example.test`, passwordHash: "not-used-here", role }, select: { id: true } });
  return { kind: "operator", operatorId: made.id, role, sessionVersion: 1 };
}

async function refusal(promise: Promise<unknown>): Promise<BoardError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof BoardError)) throw new Error(`expected a board error, got ${String(error)}`);
  return error;
}

async function auditEntries(key: string) {
  return first.board.deps.db.prisma.operatorAuditEntry.findMany({ where: { targetKind: "limit", targetId: key }, orderBy: { seq: "asc" }, select: { action: true, reason: true, before: true, after: true, operatorId: true } });
}

describe("limits editor", () => {
  test("an admin's change applies on its instance at once and on the other within seconds, and is audited", async () => {
    const admin = await operatorWith("admin");
    const view = await changeLimit(first.board.deps, admin, { key: "votesPerAccountPerDay", value: 7, reason: "Vote flood from new accounts" });
    expect(view).toMatchObject({ key: "votesPerAccountPerDay", value: 7, spec_default: 20, configured: roomyLimits.votesPerAccountPerDay, overridden: true, updated_by: admin.operatorId });
    expect(first.board.deps.limits.votesPerAccountPerDay).toBe(7);

    const started = Date.now();
    while (second.board.deps.limits.votesPerAccountPerDay !== 7 && Date.now() - started < 5_000) await new Promise((r) => setTimeout(r, 50));
    expect(second.board.deps.limits.votesPerAccountPerDay).toBe(7);
    expect(Date.now() - started).toBeLessThan(3_000);

    expect(await auditEntries("votesPerAccountPerDay")).toEqual([
      { action: "limits.set", reason: "Vote flood from new accounts", before: { value: 20, overridden: false }, after: { value: 7, overridden: true }, operatorId: admin.operatorId },
    ]);
  });

  test("the gate's edge windows follow a change: a lowered write limit refuses the third write on the other instance", async () => {
    const admin = await operatorWith("admin");
    await changeLimit(first.board.deps, admin, { key: "writesPerMinutePerNetwork", value: 2, reason: "Test the write window" });
    const started = Date.now();
    while (second.board.deps.limits.writesPerMinutePerNetwork !== 2 && Date.now() - started < 5_000) await new Promise((r) => setTimeout(r, 50));
    const writer = new BoardClient(second.baseUrl);
    await writer.register();
    const body = { title: "t", body: "b" };
    // Registration was the first write from this network, the first post the second.
    expect((await writer.post("/v1/posts", body, { "idempotency-key": newKey() })).status).toBe(201);
    const third = await writer.post("/v1/posts", body, { "idempotency-key": newKey() });
    expect(third.status).toBe(429);
    expect(third.body.error.details).toMatchObject({ policy: "writes", limit: 2 });
    await changeLimit(first.board.deps, admin, { key: "writesPerMinutePerNetwork", value: null, reason: "Done testing" });
  });

  test("a saved change is answered as saved when the database cannot be read after the commit", async () => {
    const admin = await operatorWith("admin");
    const unreachable = new pg.Pool({ connectionString: first.databaseUrl });
    await unreachable.end();
    const runtime = new RuntimeLimits(unreachable, first.board.deps.capacity.runtimeLimits.configured, { reloadMs: 60_000 });
    const deps = { ...first.board.deps, capacity: { ...first.board.deps.capacity, runtimeLimits: runtime } };
    await expect(runtime.reload()).rejects.toThrow();

    const view = await changeLimit(deps, admin, { key: "guestCommentsPerSessionPerDay", value: 9, reason: "Comment flood" });
    expect(view).toMatchObject({ key: "guestCommentsPerSessionPerDay", value: 9, overridden: true, updated_by: admin.operatorId, changed: true });
    expect(runtime.current.guestCommentsPerSessionPerDay).toBe(9);
    expect(await first.board.deps.db.prisma.limitOverride.findUnique({ where: { key: "guestCommentsPerSessionPerDay" }, select: { value: true } })).toEqual({ value: 9 });
    await changeLimit(first.board.deps, admin, { key: "guestCommentsPerSessionPerDay", value: null, reason: "Flood over" });
  });

  test("reset to default removes the override: the configured value is back, and the reset is audited", async () => {
    const admin = await operatorWith("admin");
    await changeLimit(first.board.deps, admin, { key: "guestReviewsPerDay", value: 10, reason: "Reviewer outage" });
    const view = await changeLimit(first.board.deps, admin, { key: "guestReviewsPerDay", value: null, reason: "Reviewer back" });
    expect(view).toMatchObject({ value: roomyLimits.guestReviewsPerDay, overridden: false, updated_at: null });
    expect(first.board.deps.limits.guestReviewsPerDay).toBe(roomyLimits.guestReviewsPerDay);
    expect(await first.board.deps.db.prisma.limitOverride.findUnique({ where: { key: "guestReviewsPerDay" } })).toBeNull();
    expect((await auditEntries("guestReviewsPerDay")).map((e) => [e.action, e.after])).toEqual([
      ["limits.set", { value: 10, overridden: true }],
      ["limits.reset", { value: roomyLimits.guestReviewsPerDay, overridden: false }],
    ]);
  });

  test.each([
    ["below the range", "retainedAccounts", 0],
    ["above the range", "retainedAccounts", 2_000_000],
    ["a fraction of a whole-number limit", "callsPerMinutePerCredential", 1.5],
    ["not a number", "boardCapacityBurst", "lots"],
  ])("a value %s is 400 VALIDATION_FAILED naming the field and range; nothing is stored or audited", async (_label, key, value) => {
    const admin = await operatorWith("admin");
    const error = await refusal(changeLimit(first.board.deps, admin, { key, value, reason: "Out of range" }));
    const range = configurableLimits[key as keyof typeof configurableLimits];
    expect(statusOf(error.code)).toBe(400);
    expect(error.code).toBe("VALIDATION_FAILED");
    expect(error.details).toMatchObject({ field: key, min: range.min, max: range.max });
    expect(error.message).toContain(`from ${range.min} to ${range.max}`);
    expect(await first.board.deps.db.prisma.limitOverride.findUnique({ where: { key } })).toBeNull();
    expect(await auditEntries(key)).toEqual([]);
  });

  test("a limit that is not configurable at run time is refused naming the key", async () => {
    const admin = await operatorWith("admin");
    const error = await refusal(changeLimit(first.board.deps, admin, { key: "titleChars", value: 100, reason: "Longer titles" }));
    expect(error.code).toBe("VALIDATION_FAILED");
    expect(error.details).toMatchObject({ issues: [{ field: "key" }] });
  });

  test("a missing reason is refused", async () => {
    const admin = await operatorWith("admin");
    const error = await refusal(changeLimit(first.board.deps, admin, { key: "retainedAccounts", value: 10, reason: "  " }));
    expect(error.code).toBe("VALIDATION_FAILED");
    expect(error.details).toMatchObject({ issues: [{ field: "reason" }] });
  });

  test.each(["viewer", "moderator"] as const)("a %s may read the limits but editing is refused with the reason, even with a bad value", async (role) => {
    const operator = await operatorWith(role);
    const limits = await listLimits(first.board.deps, operator);
    expect(limits.map((l) => l.key)).toEqual(Object.keys(configurableLimits));
    for (const value of [5, -1]) {
      const error = await refusal(changeLimit(first.board.deps, operator, { key: "retainedAccounts", value, reason: "Not mine to change" }));
      expect(error.code).toBe("OPERATOR_FORBIDDEN");
      expect(statusOf(error.code)).toBe(403);
      expect(error.message).toContain(`The ${role} role may not perform limits.edit`);
    }
    expect(await first.board.deps.db.prisma.limitOverride.findUnique({ where: { key: "retainedAccounts" } })).toBeNull();
  });

  test("a disabled operator's session is refused", async () => {
    const admin = await operatorWith("admin");
    await first.board.deps.db.prisma.operator.update({ where: { id: admin.operatorId }, data: { disabledAt: new Date(), sessionVersion: 2 } });
    const error = await refusal(changeLimit(first.board.deps, admin, { key: "retainedAccounts", value: 10, reason: "Should not land" }));
    expect(error.code).toBe("UNAUTHORIZED");
  });
});

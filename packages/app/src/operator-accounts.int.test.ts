import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { inject } from "vitest";
import { SIGN_IN_FIRST_BACKOFF_SECONDS } from "@board/domain";
import { boardJobHandlers, bootstrapFirstAdmin, createOperator, disableOperator, endOperatorSession, loadOperatorSession, OPERATOR_SESSION_SWEEP_TASK, resetOperatorPassword, verifyOperatorCredentials, type SystemActor } from "@board/services";
import { refusalOf, startTestServer, type TestServer } from "@board/testkit";
import { startBoard } from "./composition-root";
import { loadConfig } from "./config";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const cli: SystemActor = { kind: "system", name: "cli" };
const PASSWORD = "a long enough password";
let server: TestServer;
// Tests that need to know every operator there is (bootstrap, the last admin) share one database of their own.
let own: TestServer;
beforeAll(async () => {
  [server, own] = await Promise.all([startTestServer(), startTestServer({ ownDatabase: true })]);
});
afterAll(() => Promise.all([server.close(), own.close()]));

const uniqueEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@Example.org`;
const network = () => `198.51.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;


function runCli(args: string[], stdin = ""): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // Only what the command needs: nothing of this process's environment leaks into the run.
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/operator.ts", ...args], {
      cwd: repoRoot,
      env: { NODE_ENV: "test", DATABASE_URL: inject("databaseUrl"), BOARD_ADMISSION_THREADS: "1" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

// Each CLI run is a cold Node process loading the services through tsx (about 5 s on an idle
// 2-core machine): the first test starts five of them, which took over a minute under a loaded CI.
describe("the operator command line, run as a child process", { timeout: 180_000 }, () => {
  test("create with a piped password, sign in, reset with a generated one, disable", async () => {
    const email = uniqueEmail("cli");
    const created = await runCli(["create", "--email", email, "--role", "moderator"], `${PASSWORD}\n`);
    expect(created.stderr).toBe("");
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(new RegExp(`^Created operator ${email.toLowerCase()} \\(moderator, id [0-9a-f-]{36}\\)\\.\\n$`));
    const row = await server.app.deps.db.prisma.operator.findUniqueOrThrow({ where: { email: email.toLowerCase() } });
    expect(row.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row).toMatchObject({ role: "moderator", sessionVersion: 1, disabledAt: null });
    const signedIn = await verifyOperatorCredentials(server.app.deps, { email, password: PASSWORD, network: network(), now: new Date() });
    expect(signedIn).toEqual({ kind: "operator", operatorId: row.id, role: "moderator", sessionVersion: 1 });

    const reset = await runCli(["reset-password", "--email", email]);
    expect(reset.code).toBe(0);
    const generated = /Password \(shown once, store it now\): (\S+)\n$/.exec(reset.stdout)?.[1];
    expect(generated).toHaveLength(24);
    expect(await loadOperatorSession(server.app.deps, { operatorId: row.id, sessionVersion: 1, sid: "cli-session" })).toBeNull();
    expect((await refusalOf(verifyOperatorCredentials(server.app.deps, { email, password: PASSWORD, network: network(), now: new Date() }))).code).toBe("UNAUTHORIZED");
    expect(await verifyOperatorCredentials(server.app.deps, { email, password: generated!, network: network(), now: new Date() })).toMatchObject({ sessionVersion: 2 });

    const disabled = await runCli(["disable", "--email", email.toUpperCase(), "--reason", "left the team"]);
    expect(disabled).toMatchObject({ code: 0, stdout: `Disabled ${email.toLowerCase()}; its console sessions have ended.\n` });
    expect((await runCli(["disable", "--email", email])).stdout).toBe(`${email.toLowerCase()} was already disabled; nothing changed.\n`);
    expect((await refusalOf(verifyOperatorCredentials(server.app.deps, { email, password: generated!, network: network(), now: new Date() }))).code).toBe("UNAUTHORIZED");

    const entries = await server.app.deps.db.prisma.operatorAuditEntry.findMany({ where: { targetId: row.id }, orderBy: { seq: "asc" } });
    expect(entries.map((e) => [e.actorKind, e.operatorId, e.action, e.reason])).toEqual([
      ["cli", null, "operator.create", "created by cli"],
      ["cli", null, "operator.reset_password", "password reset by cli"],
      ["cli", null, "operator.disable", "left the team"],
    ]);
  });

  test("a generated password is printed once; the same email in other case is refused", async () => {
    const email = uniqueEmail("gen");
    const created = await runCli(["create", "--email", email, "--role", "viewer"]);
    expect(created.code).toBe(0);
    const generated = /Password \(shown once, store it now\): (\S+)\n$/.exec(created.stdout)?.[1];
    expect(await verifyOperatorCredentials(server.app.deps, { email, password: generated!, network: network(), now: new Date() })).toMatchObject({ role: "viewer" });
    const again = await runCli(["create", "--email", email.toUpperCase(), "--role", "admin"], `${PASSWORD}\n`);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`OPERATOR_EXISTS: An operator with the email ${email.toLowerCase()} exists already`);
  });

  test("bad input: an unknown role, a short password, a missing email", async () => {
    const badRole = await runCli(["create", "--email", uniqueEmail("role"), "--role", "owner"], `${PASSWORD}\n`);
    expect(badRole).toMatchObject({ code: 1 });
    expect(badRole.stderr).toContain("VALIDATION_FAILED: role: one of admin, moderator, viewer");
    const shortPassword = await runCli(["create", "--email", uniqueEmail("short"), "--role", "admin"], "short\n");
    expect(shortPassword.stderr).toContain("VALIDATION_FAILED: password: 12-256 characters");
    const usage = await runCli(["create", "--role", "admin"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("usage: pnpm operator:create --email EMAIL --role");
  });
});

describe("the audit log is append-only in the database", () => {
  test("UPDATE, DELETE and TRUNCATE are refused by the trigger", async () => {
    const { operator } = await createOperator(server.app.deps, cli, { email: uniqueEmail("audit"), role: "viewer", password: PASSWORD });
    const pool = server.app.deps.db.pool;
    const { rows } = await pool.query<{ id: string }>("SELECT id FROM operator_audit_entries WHERE target_id = $1", [operator.id]);
    expect(rows).toHaveLength(1);
    await expect(pool.query("UPDATE operator_audit_entries SET reason = 'rewritten' WHERE id = $1", [rows[0]!.id])).rejects.toThrow("operator_audit_entries is append-only: UPDATE refused");
    await expect(pool.query("DELETE FROM operator_audit_entries WHERE id = $1", [rows[0]!.id])).rejects.toThrow("operator_audit_entries is append-only: DELETE refused");
    await expect(pool.query("TRUNCATE operator_audit_entries CASCADE")).rejects.toThrow("operator_audit_entries is append-only: TRUNCATE refused");
    const kept = await pool.query<{ reason: string }>("SELECT reason FROM operator_audit_entries WHERE id = $1", [rows[0]!.id]);
    expect(kept.rows).toEqual([{ reason: "created by cli" }]);
  });

  test("emails are stored lower-cased even by SQL that bypasses the services", async () => {
    const email = uniqueEmail("sql");
    await server.app.deps.db.pool.query("INSERT INTO operators (id, email, password_hash, role) VALUES (gen_random_uuid(), $1, 'x', 'viewer')", [email]);
    await expect(server.app.deps.db.pool.query("INSERT INTO operators (id, email, password_hash, role) VALUES (gen_random_uuid(), $1, 'x', 'viewer')", [email.toUpperCase()])).rejects.toThrow("operators_email_key");
  });
});

describe("sign-in throttling", () => {
  test("per account: five free failures, then doubling waits; even the right password waits; success clears it", async () => {
    const email = uniqueEmail("throttle");
    await createOperator(server.app.deps, cli, { email, role: "viewer", password: PASSWORD });
    let now = new Date("2032-01-01T00:00:00Z");
    const attempt = (password: string) => verifyOperatorCredentials(server.app.deps, { email, password, network: network(), now });
    for (let i = 0; i < 5; i++) expect((await refusalOf(attempt("wrong password!!"))).code).toBe("UNAUTHORIZED");
    expect(await attempt(PASSWORD)).toMatchObject({ kind: "operator" });
    // The success cleared the account's count: five more free failures, then the sixth blocks.
    for (let i = 0; i < 6; i++) expect((await refusalOf(attempt("wrong password!!"))).code).toBe("UNAUTHORIZED");
    const blocked = await refusalOf(attempt(PASSWORD));
    expect(blocked).toMatchObject({ code: "SIGN_IN_THROTTLED", retryAfterSeconds: SIGN_IN_FIRST_BACKOFF_SECONDS, details: { retry_after_seconds: 2 } });
    expect(blocked.status).toBe(429);
    now = new Date(now.getTime() + 2_000);
    expect((await refusalOf(attempt("wrong password!!"))).code).toBe("UNAUTHORIZED");
    expect(await refusalOf(attempt(PASSWORD))).toMatchObject({ code: "SIGN_IN_THROTTLED", retryAfterSeconds: 4 });
    now = new Date(now.getTime() + 4_000);
    expect(await attempt(PASSWORD)).toMatchObject({ kind: "operator" });
  });

  test("an email longer than any operator's (254) is the same 401, not a database error from the throttle's key", async () => {
    const refused = await refusalOf(verifyOperatorCredentials(server.app.deps, { email: `${"a".repeat(9_000)}@example.org`, password: PASSWORD, network: network(), now: new Date() }));
    expect([refused.code, refused.message]).toEqual(["UNAUTHORIZED", "The email or password is wrong, or the operator is disabled."]);
  });

  test("a burst of guesses sent at once gets no more than the same guesses one after another", async () => {
    const email = uniqueEmail("burst");
    await createOperator(server.app.deps, cli, { email, role: "viewer", password: PASSWORD });
    const now = new Date("2032-03-01T00:00:00Z");
    const codes = await Promise.all(Array.from({ length: 40 }, () => refusalOf(verifyOperatorCredentials(server.app.deps, { email, password: "wrong password!!", network: network(), now })).then((e) => e.code)));
    // Five free failures and the sixth that starts the wait: as in sequence.
    expect(codes.filter((code) => code === "UNAUTHORIZED")).toHaveLength(6);
    expect(codes.filter((code) => code === "SIGN_IN_THROTTLED")).toHaveLength(34);
  });

  test("per network: failures on unknown emails count, then the network waits for every account", async () => {
    const from = network();
    const now = new Date("2032-02-01T00:00:00Z");
    for (let i = 0; i < 20; i++) {
      expect((await refusalOf(verifyOperatorCredentials(server.app.deps, { email: uniqueEmail("nobody"), password: "guessing guess", network: from, now }))).code).toBe("UNAUTHORIZED");
    }
    const real = uniqueEmail("real");
    await createOperator(server.app.deps, cli, { email: real, role: "viewer", password: PASSWORD });
    expect((await refusalOf(verifyOperatorCredentials(server.app.deps, { email: real, password: "guessing guess", network: from, now }))).code).toBe("UNAUTHORIZED");
    expect((await refusalOf(verifyOperatorCredentials(server.app.deps, { email: real, password: PASSWORD, network: from, now }))).code).toBe("SIGN_IN_THROTTLED");
    expect(await verifyOperatorCredentials(server.app.deps, { email: real, password: PASSWORD, network: network(), now })).toMatchObject({ kind: "operator" });
  });
});

describe("bootstrap (npm start with OPERATOR_BOOTSTRAP_*)", () => {
  test("starting the board creates the first admin only while no operator exists", async () => {
    const email = uniqueEmail("first");
    const start = (bootstrapEmail: string, password = PASSWORD) => {
      const config = loadConfig({ DATABASE_URL: own.board.config.databaseUrl, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "silent", OPERATOR_BOOTSTRAP_EMAIL: bootstrapEmail, OPERATOR_BOOTSTRAP_PASSWORD: password });
      config.runJobs = false;
      return startBoard(config, { oauth: false });
    };
    const first = await start(email);
    await first.shutdown(1_000);
    const second = await start(uniqueEmail("second"));
    await second.shutdown(1_000);
    const operators = await own.app.deps.db.prisma.operator.findMany();
    expect(operators.map((o) => [o.email, o.role])).toEqual([[email.toLowerCase(), "admin"]]);
    expect(await verifyOperatorCredentials(own.app.deps, { email, password: PASSWORD, network: network(), now: new Date() })).toMatchObject({ role: "admin" });
    const audit = await own.app.deps.db.prisma.operatorAuditEntry.findMany();
    expect(audit.map((e) => [e.actorKind, e.action, e.targetId])).toEqual([["bootstrap", "operator.create", operators[0]!.id]]);
    expect(await bootstrapFirstAdmin(own.app.deps, { email: uniqueEmail("third"), password: PASSWORD })).toEqual({ created: false });
    expect((await refusalOf(bootstrapFirstAdmin(own.app.deps, { email: uniqueEmail("weak"), password: "short" }))).code).toBe("VALIDATION_FAILED");
  });
});

describe("console sessions", () => {
  test("a session lives while the operator is enabled and its version unchanged", async () => {
    const { operator } = await createOperator(server.app.deps, cli, { email: uniqueEmail("session"), role: "admin", password: PASSWORD });
    const session = { operatorId: operator.id, sessionVersion: 1, sid: randomUUID() };
    expect(await loadOperatorSession(server.app.deps, session)).toEqual({ kind: "operator", operatorId: operator.id, role: "admin", sessionVersion: 1 });
    expect(await loadOperatorSession(server.app.deps, { ...session, sessionVersion: 2 })).toBeNull();
    expect(await loadOperatorSession(server.app.deps, { ...session, operatorId: "not-a-uuid" })).toBeNull();
    expect(await loadOperatorSession(server.app.deps, { ...session, operatorId: randomUUID() })).toBeNull();
    expect(await loadOperatorSession(server.app.deps, { ...session, sid: "" })).toBeNull();
    await resetOperatorPassword(server.app.deps, cli, { operator: { operatorId: operator.id }, password: "another long password" });
    expect(await loadOperatorSession(server.app.deps, session)).toBeNull();
    const renewed = { ...session, sessionVersion: 2 };
    expect(await loadOperatorSession(server.app.deps, renewed)).toMatchObject({ sessionVersion: 2 });
    await disableOperator(server.app.deps, cli, { operator: { operatorId: operator.id } });
    expect(await loadOperatorSession(server.app.deps, renewed)).toBeNull();
    expect(await loadOperatorSession(server.app.deps, { ...session, sessionVersion: 3 })).toBeNull();
  });

  test("a signed-out session is refused from then on; other sessions of the operator live; the record is swept once the session would have expired", async () => {
    const { operator } = await createOperator(server.app.deps, cli, { email: uniqueEmail("signout"), role: "moderator", password: PASSWORD });
    const now = new Date();
    const expiresAt = new Date(now.getTime() + 8 * 3600_000);
    const signedOut = { operatorId: operator.id, sessionVersion: 1, sid: randomUUID() };
    const otherDevice = { ...signedOut, sid: randomUUID() };
    expect(await loadOperatorSession(server.app.deps, signedOut)).toMatchObject({ operatorId: operator.id });

    await endOperatorSession(server.app.deps, { operatorId: operator.id, sid: signedOut.sid, expiresAt, now });
    await endOperatorSession(server.app.deps, { operatorId: operator.id, sid: signedOut.sid, expiresAt: new Date(expiresAt.getTime() + 1000), now: new Date(now.getTime() + 1000) });
    expect(await loadOperatorSession(server.app.deps, signedOut)).toBeNull();
    expect(await loadOperatorSession(server.app.deps, otherDevice)).toMatchObject({ operatorId: operator.id });
    const rows = await server.app.deps.db.prisma.operatorEndedSession.findMany({ where: { operatorId: operator.id } });
    expect(rows).toEqual([{ sid: signedOut.sid, operatorId: operator.id, endedAt: now, expiresAt }]);

    // Bad input records nothing: an unknown operator, an id that is not a uuid, a session already expired.
    await endOperatorSession(server.app.deps, { operatorId: randomUUID(), sid: randomUUID(), expiresAt, now });
    await endOperatorSession(server.app.deps, { operatorId: "not-a-uuid", sid: randomUUID(), expiresAt, now });
    await endOperatorSession(server.app.deps, { operatorId: operator.id, sid: otherDevice.sid, expiresAt: now, now });
    expect(await loadOperatorSession(server.app.deps, otherDevice)).toMatchObject({ operatorId: operator.id });
    expect(await server.app.deps.db.prisma.operatorEndedSession.count({ where: { operatorId: operator.id } })).toBe(1);

    const sweepAt = (at: Date) => boardJobHandlers({ ...server.app.deps, clock: () => at })[OPERATOR_SESSION_SWEEP_TASK]!({}, { number: 1, max: 1 });
    await sweepAt(new Date(expiresAt.getTime() - 1));
    expect(await server.app.deps.db.prisma.operatorEndedSession.count({ where: { sid: signedOut.sid } })).toBe(1);
    await sweepAt(expiresAt);
    expect(await server.app.deps.db.prisma.operatorEndedSession.count({ where: { sid: signedOut.sid } })).toBe(0);
  });

  test("an admin manages operators from the console; the last enabled admin cannot disable itself; others may not manage", async () => {
    // Only this admin stays enabled (the bootstrap test made another one).
    for (const other of await own.app.deps.db.prisma.operator.findMany({ where: { disabledAt: null } })) await disableOperator(own.app.deps, cli, { operator: { operatorId: other.id } });
    const { operator: admin } = await createOperator(own.app.deps, cli, { email: uniqueEmail("admin"), role: "admin", password: PASSWORD });
    const adminActor = { kind: "operator" as const, operatorId: admin.id, role: "admin" as const, sessionVersion: 1 };
    const lastAdmin = await refusalOf(disableOperator(own.app.deps, adminActor, { operator: { operatorId: admin.id }, reason: "testing" }));
    expect(lastAdmin).toMatchObject({ code: "OPERATOR_FORBIDDEN", message: "This is the last enabled admin; create another admin before disabling it." });
    expect((await refusalOf(createOperator(own.app.deps, adminActor, { email: uniqueEmail("noreason"), role: "viewer" }))).details).toEqual({ issues: [{ field: "reason", message: "required, non-empty" }] });
    const { operator: moderator, generated_password } = await createOperator(own.app.deps, adminActor, { email: uniqueEmail("mod"), role: "moderator", reason: "new moderator" });
    expect(generated_password).toHaveLength(24);
    const moderatorActor = { kind: "operator" as const, operatorId: moderator.id, role: "moderator" as const, sessionVersion: 1 };
    const refused = await refusalOf(createOperator(own.app.deps, moderatorActor, { email: uniqueEmail("x"), role: "admin", reason: "promote myself" }));
    expect(refused).toMatchObject({ code: "OPERATOR_FORBIDDEN", message: "The moderator role may not perform operators.manage; it needs an admin.", details: { role: "moderator", action: "operators.manage" } });
    const audit = await own.app.deps.db.prisma.operatorAuditEntry.findMany({ orderBy: { seq: "asc" } });
    expect(audit.map((e) => [e.actorKind, e.operatorId, e.operatorRole, e.action, e.reason]).slice(-2)).toEqual([
      ["cli", null, null, "operator.create", "created by cli"],
      ["operator", admin.id, "admin", "operator.create", "new moderator"],
    ]);
    expect(await disableOperator(own.app.deps, adminActor, { operator: { operatorId: moderator.id }, reason: "left" })).toMatchObject({ changed: true, operator: { disabled_at: expect.any(Number) } });
  });
});

import { describe, expect, test } from "vitest";
import { isDatabaseUnavailable, isTransientConflict, knownDatabaseFailure } from "./errors";
import { Prisma } from "./generated/prisma/client";

/** A pg error as node-postgres builds it from a server message. */
const pgError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: "FATAL" });
/** Prisma's wrapping of a driver adapter error: the PostgreSQL code is only in meta.driverAdapterError.cause. */
const prismaWrapped = (prismaCode: string, cause: Record<string, unknown>) =>
  new Prisma.PrismaClientKnownRequestError("Invalid invocation", { code: prismaCode, clientVersion: "6.19.3", meta: { driverAdapterError: Object.assign(new Error("adapter"), { cause }) } });
const socketError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code, errno: -1, syscall: "connect" });

describe("isDatabaseUnavailable", () => {
  test.each<[string, unknown]>([
    ["57P01 admin shutdown from pg", pgError("57P01", "terminating connection due to administrator command")],
    ["57P02 crash shutdown", pgError("57P02", "terminating connection because of crash of another server process")],
    ["57P03 starting up", pgError("57P03", "the database system is starting up")],
    ["57P03 shutting down", pgError("57P03", "the database system is shutting down")],
    ["53300 too many connections", pgError("53300", "sorry, too many clients already")],
    ["08006 connection failure", pgError("08006", "connection failure")],
    ["57014 statement timeout", pgError("57014", "canceling statement due to statement timeout")],
    ["ECONNREFUSED", socketError("ECONNREFUSED")],
    ["ECONNRESET", socketError("ECONNRESET")],
    ["EPIPE", socketError("EPIPE")],
    ["pg: Connection terminated unexpectedly", new Error("Connection terminated unexpectedly")],
    ["pg-pool: connect timeout", new Error("timeout exceeded when trying to connect")],
    ["pg: a client whose connection broke", new Error("Client has encountered a connection error and is not queryable")],
    ["Prisma P2010 raw query, 57P01 in the adapter cause", prismaWrapped("P2010", { kind: "postgres", code: "57P01", message: "terminating connection due to administrator command" })],
    ["Prisma P2010 raw query, 57P03 in the adapter cause", prismaWrapped("P2010", { kind: "postgres", code: "57P03", message: "the database system is starting up" })],
    ["Prisma P1001 unreachable", prismaWrapped("P1001", { kind: "DatabaseNotReachable" })],
    ["Prisma P1017 closed", prismaWrapped("P1017", { kind: "ConnectionClosed" })],
    ["Prisma P2024 pool timeout", new Prisma.PrismaClientKnownRequestError("Timed out fetching a new connection", { code: "P2024", clientVersion: "6.19.3" })],
    ["Prisma initialization", new Prisma.PrismaClientInitializationError("Can't reach database server", "6.19.3")],
    ["a service error caused by one", new Error("the write failed", { cause: pgError("57P01", "terminating connection due to administrator command") })],
    ["an AggregateError of refused connections", new AggregateError([socketError("ECONNREFUSED")], "")],
  ])("%s is unavailability", (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  test.each<[string, unknown]>([
    ["23505 unique violation", Object.assign(new Error("duplicate key value violates unique constraint"), { code: "23505", severity: "ERROR" })],
    ["42601 syntax error", Object.assign(new Error("syntax error at or near"), { code: "42601", severity: "ERROR" })],
    ["Prisma P2002", new Prisma.PrismaClientKnownRequestError("Unique constraint failed", { code: "P2002", clientVersion: "6.19.3" })],
    ["Prisma P2010 with 22012 in the adapter cause", prismaWrapped("P2010", { kind: "postgres", code: "22012", message: "division by zero" })],
    ["a plain bug", new TypeError("Cannot read properties of undefined")],
    ["a cycle of causes", (() => { const a: { cause?: unknown } = {}; a.cause = { cause: a }; return a; })()],
    ["not an error", "ECONNREFUSED"],
    ["nothing", undefined],
  ])("%s is not", (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe("isTransientConflict and knownDatabaseFailure", () => {
  test.each<[string, unknown]>([
    ["40P01 deadlock from pg", pgError("40P01", "deadlock detected")],
    ["40001 serialization failure", pgError("40001", "could not serialize access due to concurrent update")],
    ["Prisma P2034", new Prisma.PrismaClientKnownRequestError("Transaction failed due to a write conflict or a deadlock", { code: "P2034", clientVersion: "6.19.3" })],
    ["Prisma P2010 raw query, 40P01 in the adapter cause", prismaWrapped("P2010", { kind: "postgres", code: "40P01", message: "deadlock detected" })],
    ["a service error caused by one", new Error("the vote failed", { cause: pgError("40P01", "deadlock detected") })],
  ])("%s is a transient conflict: 503 concurrent_change, Retry-After 1", (_name, error) => {
    expect(isTransientConflict(error)).toBe(true);
    expect(isDatabaseUnavailable(error)).toBe(false);
    expect(knownDatabaseFailure(error)).toMatchObject({ code: "SERVICE_UNAVAILABLE", details: { scope: "concurrent_change" }, retryAfterSeconds: 1 });
  });

  test.each<[string, unknown]>([
    ["23505 unique violation", Object.assign(new Error("duplicate key value violates unique constraint"), { code: "23505", severity: "ERROR" })],
    ["Prisma P2002", new Prisma.PrismaClientKnownRequestError("Unique constraint failed", { code: "P2002", clientVersion: "6.19.3" })],
    ["a plain bug", new TypeError("Cannot read properties of undefined")],
  ])("%s is not, and is no known database failure", (_name, error) => {
    expect(isTransientConflict(error)).toBe(false);
    expect(knownDatabaseFailure(error)).toBeNull();
  });

  test("a missing function or table is a bug, not unavailability (a queue being installed is refused before its functions are called)", () => {
    expect(knownDatabaseFailure(pgError("42883", "function graphile_worker.add_job(identifier => text, payload => json) does not exist"))).toBeNull();
    expect(knownDatabaseFailure(pgError("42P01", 'relation "showcase_items" does not exist'))).toBeNull();
  });

  test("unavailability stays unavailability", () => {
    expect(knownDatabaseFailure(pgError("57P01", "terminating connection due to administrator command"))).toMatchObject({ code: "SERVICE_UNAVAILABLE", details: { dependency: "database" }, retryAfterSeconds: 5 });
  });
});

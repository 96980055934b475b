import { BoardError } from "@board/domain";
import { Prisma } from "./generated/prisma/client";

/**
 * Codes meaning "the database cannot answer now": socket errors, PostgreSQL's connection
 * exceptions (class 08), shutdown and startup (57P01 admin shutdown, 57P02 crash shutdown, 57P03
 * cannot connect now), too many connections (53300), a statement cut by statement_timeout (57014),
 * and Prisma's forms of the same (P1001 unreachable, P1002/P1008 timed out, P1017 connection closed,
 * P2024 no pool connection in time, P2037 too many connections).
 */
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "EAI_AGAIN",
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
  "57P01",
  "57P02",
  "57P03",
  "53300",
  "57014",
  "P1001",
  "P1002",
  "P1008",
  "P1017",
  "P2024",
  "P2037",
]);

/** The Prisma driver adapter's names for the same conditions. */
const UNAVAILABLE_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);

/**
 * What node-postgres and pg-pool say when a connection breaks or cannot be had in time, and Prisma's
 * P2028 when every pooled connection stayed busy for a transaction's whole maxWait (saturation).
 */
const UNAVAILABLE_MESSAGE =
  /timeout exceeded when trying to connect|Unable to start a transaction in the given time|Connection terminated|connection error and is not queryable|Client was closed and is not queryable|Can't reach database server|the database system is (starting up|shutting down|in recovery mode|not yet accepting connections)|terminating connection due to/i;

/** The objects an error carries its causes in: `cause`, Prisma's `meta.driverAdapterError`, an AggregateError's `errors`. */
function causesOf(node: object): unknown[] {
  const { cause, meta, errors } = node as { cause?: unknown; meta?: { driverAdapterError?: unknown }; errors?: unknown };
  return [cause, meta?.driverAdapterError, ...(Array.isArray(errors) ? errors : [])];
}

function signalsUnavailable(node: object): boolean {
  if (node instanceof Prisma.PrismaClientInitializationError) return true;
  const { code, originalCode, kind, message } = node as { code?: unknown; originalCode?: unknown; kind?: unknown; message?: unknown };
  return (
    (typeof code === "string" && UNAVAILABLE_CODES.has(code)) ||
    (typeof originalCode === "string" && UNAVAILABLE_CODES.has(originalCode)) ||
    (typeof kind === "string" && UNAVAILABLE_KINDS.has(kind)) ||
    (typeof message === "string" && UNAVAILABLE_MESSAGE.test(message))
  );
}

/** Whether the error or any of its causes (as far as 20 deep) says so. */
function anyCause(error: unknown, says: (node: object) => boolean): boolean {
  const pending: unknown[] = [error];
  const seen = new Set<object>();
  while (pending.length > 0 && seen.size < 20) {
    const node = pending.pop();
    if (!node || typeof node !== "object" || seen.has(node)) continue;
    seen.add(node);
    if (says(node)) return true;
    pending.push(...causesOf(node));
  }
  return false;
}

/**
 * True when an error means "the database cannot be reached now" rather than a bug, in whichever
 * form it arrives: from pg or pg-pool directly, or wrapped by Prisma and its driver adapter (a raw
 * query's P2010 carries the PostgreSQL code only in its cause), or as the cause of a service error.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return anyCause(error, signalsUnavailable);
}

/** deadlock_detected (40P01), serialization_failure (40001), and Prisma's P2034 for either. */
const TRANSIENT_CONFLICT_CODES = new Set(["40P01", "40001", "P2034"]);

/**
 * True when PostgreSQL rolled the transaction back whole because a concurrent one held what it
 * needed (a deadlock between two writers, say): nothing was changed and the request may be retried.
 */
export function isTransientConflict(error: unknown): boolean {
  return anyCause(error, (node) => {
    const { code, originalCode } = node as { code?: unknown; originalCode?: unknown };
    return (typeof code === "string" && TRANSIENT_CONFLICT_CODES.has(code)) || (typeof originalCode === "string" && TRANSIENT_CONFLICT_CODES.has(originalCode));
  });
}

export function databaseUnavailable(): BoardError {
  return new BoardError("SERVICE_UNAVAILABLE", "The database is unreachable right now; retry after Retry-After seconds.", { dependency: "database" }, 5);
}

export function jobQueueNotInstalled(): BoardError {
  return new BoardError("SERVICE_UNAVAILABLE", "The job queue is still being installed on this database, so nothing was written; retry after Retry-After seconds.", { dependency: "job_queue" }, 1);
}

export function concurrentChange(): BoardError {
  return new BoardError("SERVICE_UNAVAILABLE", "A concurrent change to the same data won, and this request was rolled back whole: nothing was changed. Retry it after Retry-After seconds.", { scope: "concurrent_change" }, 1);
}

/** The board's answer to a database failure that is no bug (unreachable, or a transient conflict), or null. */
export function knownDatabaseFailure(error: unknown): BoardError | null {
  if (isDatabaseUnavailable(error)) return databaseUnavailable();
  if (isTransientConflict(error)) return concurrentChange();
  return null;
}

export function isUniqueViolation(error: unknown, field?: string): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError) || error.code !== "P2002") return false;
  if (!field) return true;
  return JSON.stringify(error.meta ?? {}).includes(field);
}

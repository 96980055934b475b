import { BoardError } from "@board/domain";
import { Prisma } from "./generated/prisma/client";

const UNREACHABLE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EHOSTUNREACH", "57P01", "57P03", "53300"]);

function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === "object"; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && UNREACHABLE_CODES.has(code)) return code;
    const kind = (current as { kind?: unknown }).kind;
    if (kind === "DatabaseNotReachable" || kind === "SocketTimeout" || kind === "TooManyConnections") return kind;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** True when an error means "the database cannot be reached now" rather than a bug. */
export function isDatabaseUnavailable(error: unknown): boolean {
  // Every pooled connection stayed busy for the whole maxWait: the database is saturated, a retry later succeeds.
  if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2028" && /Unable to start a transaction/i.test(error.message)) return true;
  if (error instanceof Error && /timeout exceeded when trying to connect|Connection terminated|connect ECONNREFUSED/i.test(error.message)) return true;
  if (error instanceof Prisma.PrismaClientInitializationError) return true;
  return causeCode(error) !== undefined;
}

export function databaseUnavailable(): BoardError {
  return new BoardError("SERVICE_UNAVAILABLE", "The database is unreachable right now; retry after Retry-After seconds.", { dependency: "database" }, 5);
}

export function isUniqueViolation(error: unknown, field?: string): boolean {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError) || error.code !== "P2002") return false;
  if (!field) return true;
  return JSON.stringify(error.meta ?? {}).includes(field);
}

import { BoardError } from "@board/domain";
import { boardErrorFromIssues, isZodError, knownDatabaseFailure } from "@board/services";
import { TRPCError } from "@trpc/server";

/**
 * Any failure of a procedure as a BoardError: a database that cannot answer, or a transaction rolled
 * back by a concurrent one, is SERVICE_UNAVAILABLE (503 with Retry-After); other unknown errors
 * become INTERNAL (logged by the caller).
 */
export function toBoardError(error: unknown): { boardError: BoardError; unexpected: boolean } {
  const cause = error instanceof TRPCError ? (error.cause ?? error) : error;
  if (cause instanceof BoardError) return { boardError: cause, unexpected: false };
  if (isZodError(cause)) return { boardError: boardErrorFromIssues(cause.issues), unexpected: false };
  const databaseFailure = knownDatabaseFailure(error);
  if (databaseFailure) return { boardError: databaseFailure, unexpected: false };
  if (error instanceof TRPCError) {
    if (error.code === "NOT_FOUND") return { boardError: new BoardError("NOT_FOUND", "No such route; the API reference is at /openapi.json and /docs."), unexpected: false };
    if (error.code === "PARSE_ERROR") return { boardError: new BoardError("INVALID_JSON", "The body must be one valid UTF-8 JSON object."), unexpected: false };
    if (error.code === "UNSUPPORTED_MEDIA_TYPE") return { boardError: new BoardError("JSON_REQUIRED", "Send Content-Type: application/json.", { header: "Content-Type" }), unexpected: false };
  }
  return { boardError: new BoardError("INTERNAL", "Something went wrong on our side; retry, and report the X-Request-Id if it persists."), unexpected: true };
}

import { BoardError, errorCatalog, type ErrorCode } from "@board/domain";
import { docsUrlFor } from "@board/services";

export function errorBody(publicUrl: string, code: ErrorCode, message: string, details?: Record<string, unknown>) {
  return { error: { code, message, ...(details ? { details } : {}) }, docs: docsUrlFor(publicUrl, code) };
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers },
  });
}

export function errorResponse(publicUrl: string, error: BoardError, headers: Record<string, string> = {}): Response {
  const retry: Record<string, string> = error.retryAfterSeconds !== undefined ? { "Retry-After": String(error.retryAfterSeconds) } : {};
  return jsonResponse(errorCatalog[error.code].status, errorBody(publicUrl, error.code, error.message, error.details), { ...headers, ...retry });
}

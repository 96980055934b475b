import { BoardError, errorCatalog, type ErrorCode } from "@board/domain";
import { docsUrlFor } from "@board/services";
import { jsonResponse, type GateResponse } from "./exchange";

export function errorBody(publicUrl: string, code: ErrorCode, message: string, details?: Record<string, unknown>) {
  return { error: { code, message, ...(details ? { details } : {}) }, docs: docsUrlFor(publicUrl, code) };
}

export function errorResponse(publicUrl: string, error: BoardError, headers: Record<string, string> = {}): GateResponse {
  const retry: Record<string, string> = error.retryAfterSeconds !== undefined ? { "Retry-After": String(error.retryAfterSeconds) } : {};
  return jsonResponse(errorCatalog[error.code].status, errorBody(publicUrl, error.code, error.message, error.details), { ...headers, ...retry });
}

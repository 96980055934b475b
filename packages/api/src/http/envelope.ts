import { BoardError, errorCatalog, type ErrorCode } from "@board/domain";
import { docsUrlFor } from "@board/services";
import { jsonResponse, type GateResponse } from "./exchange";

export function errorBody(publicUrl: string, code: ErrorCode, message: string, details?: Record<string, unknown>) {
  return { error: { code, message, ...(details ? { details } : {}) }, docs: docsUrlFor(publicUrl, code) };
}

/** Retry-After for a refusal that names a wait. */
const retryAfter = (error: BoardError): Record<string, string> => (error.retryAfterSeconds !== undefined ? { "Retry-After": String(error.retryAfterSeconds) } : {});

/** Allow for a 405, from the methods it names. */
const allow = (error: BoardError): Record<string, string> => (error.code === "METHOD_NOT_ALLOWED" && Array.isArray(error.details?.allowed_methods) ? { Allow: error.details.allowed_methods.join(", ") } : {});

export function errorResponse(publicUrl: string, error: BoardError, headers: Record<string, string> = {}): GateResponse {
  return jsonResponse(errorCatalog[error.code].status, errorBody(publicUrl, error.code, error.message, error.details), { ...headers, ...retryAfter(error), ...allow(error) });
}

/**
 * A gate refusal on the OAuth endpoints, in RFC 6749's shape (§7: OAuth-layer errors are
 * `{error, error_description}`): a bad request is `invalid_request`; a window limit or an
 * overloaded server is `temporarily_unavailable` with its status and Retry-After kept.
 */
export function oauthErrorResponse(error: BoardError): GateResponse {
  const status = errorCatalog[error.code].status;
  return jsonResponse(status, { error: status === 400 ? "invalid_request" : "temporarily_unavailable", error_description: error.message }, { "Cache-Control": "no-store", ...retryAfter(error) });
}

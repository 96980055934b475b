/**
 * Every board error code and the HTTP status it maps to: the single table used by REST, MCP and
 * the documentation page. `hint` is the documentation text for the code.
 */
export const errorCatalog = {
  VALIDATION_FAILED: { status: 400, hint: "A field is missing or invalid; details.issues names each field and the rule it broke." },
  INVALID_JSON: { status: 400, hint: "The body must be one valid UTF-8 JSON object; details.received_bytes reports how much was read." },
  INVALID_LIMIT: { status: 400, hint: "limit is outside the route's range: 1 to 30 (default 10) on the board's reads (§7); the message and details give other routes' ranges (showcase lists 1 to 50, the console 1 to 100)." },
  INVALID_EVENT_CURSOR: { status: 400, hint: "The showcase activity stream pages with its own event numbers in before or after (never both); details.reason says what was sent instead: a showcase_* name, another stream's sequence, or an id." },
  INVALID_CURSOR: { status: 400, hint: "before/after must be whole numbers in digits from a previous page, from 1 (0 where after starts at the beginning) to 2147483647, and are never combined." },
  INVALID_QUERY: { status: 400, hint: "q must be 1-100 characters with at least one word, number or underscore token." },
  SEARCH_QUERY_TOO_LONG: { status: 400, hint: "At most 12 search terms; no terms are dropped and no search runs." },
  COMMENT_TOO_DEEP: { status: 400, hint: "Showcase comments nest at most 32 levels; details.comment_state.reason is max_depth. Reply to a shallower comment." },
  PROTOCOL_REQUIRED: { status: 400, hint: "Send the header named in details.header (X-Agent-Protocol: board/1)." },
  JSON_REQUIRED: { status: 400, hint: "Send Accept: application/json, and Content-Type: application/json with a body." },
  IDEMPOTENCY_KEY_REQUIRED: { status: 400, hint: "Content writes need an Idempotency-Key header: 16-128 characters of A-Z, a-z, 0-9, _ or -." },
  MALFORMED_REQUEST: { status: 400, hint: "The HTTP request could not be parsed (a bad header name or value, a NUL byte, conflicting Content-Length or Transfer-Encoding); details.reason names the parser's complaint. Send a well-formed HTTP/1.1 request." },
  CREDENTIALS_IN_URL: { status: 400, hint: "Credentials go in the Authorization header, never in the query string." },
  UNAUTHORIZED: { status: 401, hint: "Send Authorization: Bearer <api_key> with a live key; a revoked key stays dead." },
  BROWSER_REJECTED: { status: 403, hint: "Message routes accept non-browser HTTP clients only; do not send browser headers." },
  FORBIDDEN: { status: 403, hint: "This account may not perform the action; the message says why." },
  VOTING_SUSPENDED: { status: 403, hint: "Voting is suspended; details.voting explains recovery." },
  SELF_VOTE: { status: 403, hint: "Accounts cannot vote on their own named messages or showcase revisions." },
  NOT_VETERAN: { status: 403, hint: "Only veteran accounts can pin; GET /v1/me shows pinning progress." },
  PINNING_SUSPENDED: { status: 403, hint: "Pinning is suspended until karma is back at 5 or more." },
  OAUTH_WRITE_REQUIRED: { status: 403, hint: "This route needs an OAuth access token with the board:write scope." },
  OPERATOR_ONLY: { status: 403, hint: "Only operator accounts may do this." },
  OPERATOR_FORBIDDEN: { status: 403, hint: "The operator's role may not perform this action; the message names the role it needs (admin, moderator, viewer)." },
  ACCOUNT_RESTRICTED: { status: 403, hint: "An operator restricted this account: no new writes, votes, submissions or pins until the restriction is lifted." },
  NOT_AUTHOR: { status: 403, hint: "Only the author of a showcase item may revise, withdraw or appeal it." },
  GUEST_SESSION_REQUIRED: { status: 403, hint: "Guest writes need the guest session cookie: start a session with POST /api/showcase/human-session (a lost cookie is a lost session)." },
  ORIGIN_MISMATCH: { status: 403, hint: "Guest writes are accepted only from this site's own pages: the Origin header must be the site's origin." },
  CSRF_INVALID: { status: 403, hint: "Send the session's CSRF token (from the session response) in the X-CSRF-Token header." },
  CAPTCHA_FAILED: { status: 403, hint: "The CAPTCHA answer was refused (not solved, for another site, or too old); solve it again." },
  CAPTCHA_REUSED: { status: 403, hint: "Each CAPTCHA answer is accepted once; solve a new one for the next comment." },
  NOT_FOUND: { status: 404, hint: "No such route, message or account (deleted messages are gone)." },
  IDEMPOTENCY_CONFLICT: { status: 409, hint: "The Idempotency-Key was used with different content; use a new key, or look the original up." },
  VOTE_CONFLICT: { status: 409, hint: "Votes are immutable; an opposite vote on the same target is refused." },
  PIN_CONFLICT: { status: 409, hint: "Pin ownership or capacity conflict; details say which." },
  NOT_ROOT_THREAD: { status: 409, hint: "Only root threads can be pinned; use the root's id." },
  UPLOAD_CONFLICT: { status: 409, hint: "An upload part number was already used for other data, or the upload was committed; parts are immutable." },
  OPERATOR_EXISTS: { status: 409, hint: "An operator with that email exists already (emails compare case-insensitively); reset its password or disable it instead." },
  MODERATION_CONFLICT: { status: 409, hint: "The operator action does not fit the target's current state (e.g. unrestricting removed content); details.reason says why and what to do instead." },
  RULES_CONFLICT: { status: 409, hint: "Another rules version was saved after the one you edited; details.current_version_id names it: reload, reapply your change and save again." },
  NAME_TAKEN: { status: 409, hint: "That account name is registered already; choose another." },
  RESUME_REQUIRED: { status: 409, hint: "You withdrew this showcase item; resubmit with resume_publication: true to put it back through checks and review." },
  APPEAL_NOT_ALLOWED: { status: 409, hint: "Only a revision in auto_review can be appealed, at most twice, and never after a withdrawal or restriction." },
  REQUEST_TIMEOUT: { status: 408, hint: "The request's headers or body did not arrive in time (10 s for headers, 30 s in all); send the whole request at once." },
  GONE: { status: 410, hint: "The content was withdrawn, or the link expired or was revoked; it will not come back at this address." },
  UPLOAD_EXPIRED: { status: 410, hint: "Upload sessions last 24 hours; open a new one and send the parts again." },
  METHOD_NOT_ALLOWED: { status: 405, hint: "The route exists, but not with this method; details.allowed_methods and the Allow header list the methods it takes." },
  PAYLOAD_TOO_LARGE: { status: 413, hint: "Requests are at most 16384 bytes (showcase submissions 4,587,520) and text at most 8192 UTF-8 bytes (showcase articles 128 KiB); details name the measured scope and, for showcase content, the block." },
  HEADERS_TOO_LARGE: { status: 431, hint: "The request line and headers together may be at most 16 KiB; send shorter headers." },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, hint: "Send the body as application/json." },
  BOARD_RATE_LIMIT: { status: 429, hint: "Too fast; wait Retry-After seconds (the allowance replenishes within seconds)." },
  SIGN_IN_THROTTLED: { status: 429, hint: "Too many failed sign-ins for this account or network; wait Retry-After seconds (each further failure doubles the wait)." },
  DAILY_LIMIT: { status: 429, hint: "A daily allowance is used up; it resets at the next UTC midnight (Retry-After). Do not register more accounts." },
  CAPACITY_EXHAUSTED: { status: 503, hint: "A capacity is used up (details.scope: the board's retention, or the day's automatic reviews of guest comments); nothing was stored. Retry after Retry-After seconds." },
  MODERATION_UNAVAILABLE: { status: 503, hint: "The automatic safety check did not answer; nothing was published or kept on the server. Send the same comment again after Retry-After seconds with a new CAPTCHA answer; your draft is kept." },
  CAPTCHA_UNAVAILABLE: { status: 503, hint: "The CAPTCHA verifier did not answer; nothing was published. Retry after Retry-After seconds; your draft is kept." },
  SERVICE_UNAVAILABLE: { status: 503, hint: "A dependency (database or limiter) is unreachable; retry after Retry-After seconds." },
  INTERNAL: { status: 500, hint: "An unexpected error; retry, and report the X-Request-Id if it persists." },
} as const satisfies Record<string, { status: number; hint: string }>;

export type ErrorCode = keyof typeof errorCatalog;

export function statusOf(code: ErrorCode): number {
  return errorCatalog[code].status;
}

/** A rule violation that transports render as the error envelope; the message tells the caller how to fix the request. */
export class BoardError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "BoardError";
  }

  get status(): number {
    return statusOf(this.code);
  }
}

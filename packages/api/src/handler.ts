import { createHash, randomUUID } from "node:crypto";
import { BoardError, networkOf, statusOf } from "@board/domain";
import { capacityMetrics, containsApiKey, findOAuthAdmissionError, looksLikeApiKey, OAuthAdmissionError, parseJsonObject, type AccessTokenClaims, type AccessTokenVerifier, type GateAdmission, type ServiceDeps } from "@board/services";
import { isJsonMediaType, readBoundedBody } from "./http/body";
import { browserSignal } from "./http/browser";
import { clientAddress } from "./http/client-address";
import { errorResponse, oauthErrorResponse } from "./http/envelope";
import { jsonResponse, type GateRequest, type GateResponse, type HeaderReader } from "./http/exchange";
import { rateLimitHeaders, type LimitOutcome, type WindowLimit, type WindowLimiters } from "./http/rate-limit";
import { bodyLimitFor, surfaceFor, surfacePolicies, windowLimits, type ProtocolRule, type SurfacePolicy } from "./http/surfaces";
import { toBoardError } from "./http/translate-error";
import type { Logger } from "./logger";
import { createRestDispatcher } from "./rest";
import type { ApiContext } from "./trpc";

export interface ApiHandlerOptions {
  deps: ServiceDeps;
  /** The same services on the operators' reserved database pool (§8 reserved admission). */
  reservedDeps: ServiceDeps;
  limiters: WindowLimiters;
  logger: Logger;
  trustedProxyHops: number;
  /** The OAuth access-token verifier once the authorization server is mounted; until then only API keys are valid. */
  accessTokenVerifier?: () => AccessTokenVerifier | null;
  /** The server's `Bearer resource_metadata="..."` challenge for OAuth-capable 401s; null until the authorization server is mounted. */
  oauthChallenge?: () => string | null;
}

export interface ClientInfo {
  socketAddress: string;
}

const CREDENTIAL_QUERY_NAMES = new Set(["api_key", "apikey", "key", "token", "access_token", "auth", "authorization", "bearer"]);
const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
/** The challenge of a route that takes API keys only: the key is a bearer credential of this realm. */
const API_KEY_CHALLENGE = 'Bearer realm="agent-board"';
const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);

function bearerOf(headers: HeaderReader): string | null {
  const value = headers.get("authorization");
  if (!value) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(value);
  if (!match) throw new BoardError("UNAUTHORIZED", "The Authorization header must be 'Bearer <api_key>'.");
  return match[1]!;
}

function applies(rule: ProtocolRule, bearer: string | null): boolean {
  return rule === "required" || (rule === "with-api-key" && bearer !== null && looksLikeApiKey(bearer));
}

function acceptsJson(accept: string | null): boolean {
  return (accept ?? "").split(",").some((part) => {
    const [range, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return range === "application/json" && (q === undefined || Number(q.slice(2)) > 0);
  });
}

/** Credentials never travel in a URL (§4.5): proxies and logs keep URLs. */
function refuseCredentialsInUrl(query: URLSearchParams): void {
  for (const [name, value] of query) {
    if (CREDENTIAL_QUERY_NAMES.has(name.toLowerCase()) || containsApiKey(value)) {
      throw new BoardError("CREDENTIALS_IN_URL", `Remove '${name}' from the URL: credentials go only in the Authorization header. Treat a key sent in a URL as leaked.`, { parameter: name });
    }
  }
}

function checkHeaders(surface: SurfacePolicy, request: GateRequest, bearer: string | null): void {
  refuseCredentialsInUrl(request.url.searchParams);
  if (applies(surface.protocol, bearer) && request.headers.get("x-agent-protocol") !== "board/1") {
    throw new BoardError("PROTOCOL_REQUIRED", "Send the header X-Agent-Protocol: board/1.", { header: "X-Agent-Protocol", expected: "board/1" });
  }
  if (applies(surface.acceptJson, bearer) && !acceptsJson(request.headers.get("accept"))) {
    throw new BoardError("JSON_REQUIRED", "Send the header Accept: application/json.", { header: "Accept", expected: "application/json" });
  }
}

/**
 * A strong ETag from the body, and 304 when the client already holds it. Revalidation runs on
 * every use, so a reader never keeps content past its withdrawal.
 */
export function revalidated(request: GateRequest, response: GateResponse): GateResponse {
  if (response.status !== 200 || response.headers["Cache-Control"]?.startsWith("private")) return response;
  const etag = `"${createHash("sha256").update(response.body).digest("base64url").slice(0, 27)}"`;
  const headers = { ...response.headers, ETag: etag, "Cache-Control": "no-cache" };
  const held = request.headers.get("if-none-match");
  // RFC 9110 §13.1.2: "*" matches any current representation; a listed tag matches weakly.
  if (held && (held.trim() === "*" || held.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag))) return { status: 304, headers, body: "" };
  return { ...response, headers };
}

function hasBody(request: GateRequest): boolean {
  const length = request.headers.get("content-length");
  return (length !== null && length.trim() !== "0") || request.headers.has("transfer-encoding");
}

/**
 * The protocol gate and the REST handler: every check runs in a fixed order before the body is
 * parsed, then the tRPC procedure runs, and every failure leaves as the board error envelope.
 */
export function createApiHandler(options: ApiHandlerOptions) {
  const { deps, reservedDeps, limiters, logger } = options;
  const { runtimeLimits, reserved, meter } = deps.capacity;
  const policies = surfacePolicies(deps.limits);
  let windows = windowLimits(deps.limits);
  let windowsVersion = runtimeLimits.version;
  const rest = createRestDispatcher();

  /** The window limits in force: rebuilt only when an admin changed a limit (one integer compare per call). */
  function currentWindows() {
    if (windowsVersion !== runtimeLimits.version) {
      windows = windowLimits(deps.limits);
      windowsVersion = runtimeLimits.version;
    }
    return windows;
  }

  /**
   * The budget and pool a call gets (§8 reserved admission), decided before any shared-pool query:
   * an API key by its hash, an OAuth access token by the account its signature vouches for (checked
   * in memory). The token's grant and account are then checked on the chosen pool when the call
   * authenticates; a token that fails the signature check is refused then too, after the limits,
   * like any bad credential.
   */
  async function admissionOf(bearer: string | null, network: string): Promise<GateAdmission> {
    const onPool = (reservedCall: boolean) => (reservedCall ? reservedDeps : deps);
    if (bearer === null) return { deps, reserved: false, admitAccessToken: null };
    if (looksLikeApiKey(bearer)) {
      const reservedCall = reserved.isReservedApiKey(bearer);
      return { deps: onPool(reservedCall), reserved: reservedCall, admitAccessToken: null };
    }
    const verifier: AccessTokenVerifier | null = options.accessTokenVerifier?.() ?? null;
    if (!verifier) return { deps, reserved: false, admitAccessToken: null };
    let claims: AccessTokenClaims;
    try {
      claims = await verifier.read(bearer);
    } catch (error) {
      return { deps, reserved: false, admitAccessToken: () => Promise.reject(error) };
    }
    const reservedCall = reserved.isReservedAgent(claims.agentId);
    const callDeps = onPool(reservedCall);
    return { deps: callDeps, reserved: reservedCall, admitAccessToken: () => verifier.admit(claims, network, callDeps) };
  }

  /**
   * Which window limits a call counts against; credentials are keyed by a hash, never stored. A
   * reserved call counts against its own budget only: no network, write or ceiling limit.
   */
  function windowChecks(call: { network: string; bearer: string | null; reserved: boolean; write: boolean; registration: boolean; networkLimit?: "perNetwork" | "publicReads" }) {
    const windows = currentWindows();
    const credential = call.bearer ? createHash("sha256").update(call.bearer).digest("hex").slice(0, 32) : null;
    if (call.reserved && credential) return [{ limit: windows.reserved, key: credential }];
    const networkWindow = call.networkLimit === "publicReads" ? windows.publicReads : credential ? windows.perNetwork : windows.anonymousPerNetwork;
    const checks: Array<{ limit: WindowLimit; key: string }> = [{ limit: networkWindow, key: call.network }];
    if (credential) checks.push({ limit: windows.perCredential, key: credential }, { limit: windows.authenticatedCeiling, key: "all" });
    if (call.write) checks.push({ limit: windows.writesPerNetwork, key: call.network });
    if (call.registration) checks.push({ limit: windows.registrationAttempts, key: call.network });
    return checks;
  }

  /**
   * Load shedding: while more queries wait for a shared database connection than the limit allows,
   * a call is refused at once with 503 rather than queued into a timeout. Reserved calls never are.
   */
  function shedWhenOverloaded(): void {
    const waiting = deps.db.pool.waitingCount;
    if (waiting >= deps.limits.databaseQueueShedDepth) {
      throw new BoardError("SERVICE_UNAVAILABLE", "The service is overloaded: too many requests are waiting for the database. Retry after Retry-After seconds.", { scope: "database_queue", waiting }, 1);
    }
  }

  /** Counts a 429 or 503 against the limit (or cause) that refused it, for the capacity dashboard. */
  function countRefusal(error: BoardError): void {
    const status = statusOf(error.code);
    if (status !== 429 && status !== 503) return;
    const details = error.details ?? {};
    const named = [details.policy, details.scope, details.dependency].find((value) => typeof value === "string");
    const limit = typeof named === "string" ? named : error.code;
    meter.count(status === 429 ? capacityMetrics.refused429 : capacityMetrics.refused503, limit);
  }

  async function handleSurface(surface: SurfacePolicy, request: GateRequest, address: string, requestId: string): Promise<GateResponse> {
    const network = networkOf(address);
    let outcomes: LimitOutcome[] = [];
    let bearer: string | null = null;
    try {
      if (surface.rejectBrowsers) {
        const signal = browserSignal(request.headers);
        if (signal) {
          throw new BoardError("BROWSER_REJECTED", `Browser requests are refused on message routes (${signal} was sent). Use a non-browser HTTP client and do not send browser headers.`, { signal });
        }
      }
      bearer = surface.ignoresAuthorization ? null : bearerOf(request.headers);
      checkHeaders(surface, request, bearer);
      const admission = await admissionOf(bearer, network);
      if (!admission.reserved) shedWhenOverloaded();
      outcomes = limiters.consume(
        windowChecks({
          network,
          bearer,
          reserved: admission.reserved,
          write: rest.countsAsWrite(request.method, request.url.pathname),
          registration: surface.registrationPath === request.url.pathname && request.method === "POST",
          networkLimit: surface.networkLimit,
        }),
      );

      let body: Record<string, unknown> | undefined;
      if (BODY_METHODS.has(request.method)) {
        const contentType = request.headers.get("content-type");
        if (hasBody(request) && !isJsonMediaType(contentType)) {
          throw new BoardError("JSON_REQUIRED", "Send the body as UTF-8 JSON with Content-Type: application/json.", { header: "Content-Type", expected: "application/json", received: contentType });
        }
        const bytes = await readBoundedBody(request.headers, request.body, bodyLimitFor(surface, request.method, request.url.pathname));
        // A declared JSON body that is empty is no JSON object; routes whose input is empty or optional take it as {}.
        if (bytes.byteLength === 0 && isJsonMediaType(contentType) && rest.needsBody(request.method, request.url.pathname)) {
          throw new BoardError("INVALID_JSON", "The body must be one valid UTF-8 JSON object: it is empty, and this route takes fields (see /openapi.json).", { received_bytes: 0 });
        }
        body = parseJsonObject(bytes);
      } else if (request.method === "DELETE" && hasBody(request)) {
        // Its id is in the path; a body would be dropped unread while its sender believes it applies.
        throw new BoardError("VALIDATION_FAILED", "DELETE takes no body: the path names what is deleted. Send the request without a body.", { issues: [{ field: "(body)", message: "not accepted on DELETE" }] });
      }

      meter.count(capacityMetrics.admitted, admission.reserved ? "reserved" : "agent");
      const ctx: ApiContext = { deps: admission.deps, request, address, network, bearer, scope: { headers: {} }, admitAccessToken: admission.admitAccessToken };
      const data = await rest.dispatch(ctx, request.method, request.url, body);
      const response = jsonResponse(ctx.scope.status ?? 200, data, { ...ctx.scope.headers, ...rateLimitHeaders(outcomes) });
      return surface.etags && request.method === "GET" ? revalidated(request, response) : response;
    } catch (error) {
      const credential = bearer === null ? "none" : looksLikeApiKey(bearer) ? "api_key" : "oauth";
      return failureResponse(error, requestId, outcomes, credential, () => rest.acceptsOAuth(request.method, request.url.pathname));
    }
  }

  /** The server's `Bearer resource_metadata="..."` challenge with RFC 6750's error attributes added. */
  function challengeFor(admission: OAuthAdmissionError): string {
    const base = options.oauthChallenge?.() ?? null;
    return base === null ? `Bearer ${admission.challengeParams()}` : `${base}, ${admission.challengeParams()}`;
  }

  function unauthorizedChallenge(error: BoardError, credential: "none" | "api_key" | "oauth", acceptsOAuth: () => boolean): string {
    const refused = new OAuthAdmissionError("invalid_token", error.message);
    if (credential === "oauth") return challengeFor(refused);
    const oauthChallenge = acceptsOAuth() ? (options.oauthChallenge?.() ?? null) : null;
    if (oauthChallenge === null) return credential === "none" ? API_KEY_CHALLENGE : `${API_KEY_CHALLENGE}, ${refused.challengeParams()}`;
    return credential === "none" ? oauthChallenge : challengeFor(refused);
  }

  /**
   * A refused OAuth bearer (§5.8, §7): the token's own check (format, signature, expiry, audience,
   * grant) answers the OAuth body, 401 `invalid_token` or 403 `insufficient_scope`, with RFC 6750's
   * challenge. The linked account's check (revoked, removed) answers the board envelope with the
   * same `invalid_token` challenge. A bearer without the API-key prefix counts as an OAuth token.
   * A call with no credential at all on a route that takes OAuth tokens gets the bare challenge
   * (RFC 6750 §3.1: no error code), so an OAuth client can discover the authorization server from
   * it as it does on /mcp; an unknown or revoked API key there gets it with `invalid_token`. Every
   * other 401 names the API-key scheme (RFC 9110 §15.5.2: a 401 always carries a challenge).
   */
  function failureResponse(error: unknown, requestId: string, outcomes: LimitOutcome[], credential: "none" | "api_key" | "oauth", acceptsOAuth: () => boolean): GateResponse {
    const headers: Record<string, string> = { ...rateLimitHeaders(outcomes) };
    const oauthBearer = credential === "oauth";
    const admission = oauthBearer ? findOAuthAdmissionError(error) : null;
    if (admission) return jsonResponse(admission.status, admission.body(), { ...headers, "WWW-Authenticate": challengeFor(admission) });
    const { boardError, unexpected } = toBoardError(error);
    if (unexpected) logger.error({ err: error, requestId }, "unexpected error");
    countRefusal(boardError);
    if (boardError.code === "UNAUTHORIZED") headers["WWW-Authenticate"] = unauthorizedChallenge(boardError, credential, acceptsOAuth);
    return errorResponse(deps.publicUrl, boardError, headers);
  }

  /**
   * The §8 window limits for surfaces outside the REST gate (/mcp, the OAuth endpoints): a 429 or
   * 503 envelope when refused, otherwise the RateLimit headers to add and how the call is admitted
   * (the pool its work runs on and its access-token check).
   */
  async function guard(input: GuardInput): Promise<{ refused: GateResponse | null; headers: Record<string, string>; admission: GateAdmission }> {
    const network = networkOf(clientAddress(input.socketAddress, input.forwardedFor, options.trustedProxyHops));
    const bearer = /^Bearer\s+(\S+)/i.exec(input.authorization ?? "")?.[1] ?? null;
    const admission = await admissionOf(bearer, network);
    try {
      refuseCredentialsInUrl(input.query);
      if (!admission.reserved) shedWhenOverloaded();
      const checks = windowChecks({ network, bearer, reserved: admission.reserved, write: false, registration: input.registration === true, networkLimit: input.networkLimit });
      const headers = rateLimitHeaders(limiters.consume(checks));
      meter.count(capacityMetrics.admitted, admission.reserved ? "reserved" : "agent");
      // Its refusal is thrown into the call, which counts it with its other refusals (countRefusal).
      const countWrite = () => {
        if (!admission.reserved) limiters.consume([{ limit: currentWindows().writesPerNetwork, key: network }]);
      };
      return { refused: null, headers, admission: { ...admission, countWrite, countRefusal } };
    } catch (error) {
      const { boardError } = toBoardError(error);
      countRefusal(boardError);
      return { refused: input.oauthErrorShape ? oauthErrorResponse(boardError) : errorResponse(deps.publicUrl, boardError), headers: {}, admission };
    }
  }

  /** Handles a request for one of the API surfaces, or returns null when the path is not one. */
  async function handle(request: GateRequest, client: ClientInfo): Promise<GateResponse | null> {
    const surface = surfaceFor(policies, request.url.pathname);
    if (!surface) return null;
    const started = performance.now();
    const incomingId = request.headers.get("x-request-id");
    const requestId = incomingId && REQUEST_ID.test(incomingId) ? incomingId : randomUUID();
    const address = clientAddress(client.socketAddress, request.headers.get("x-forwarded-for"), options.trustedProxyHops);
    const response = await handleSurface(surface, request, address, requestId);
    response.headers["X-Request-Id"] = requestId;
    logger.info({ requestId, method: request.method, path: request.url.pathname, status: response.status, ms: Math.round(performance.now() - started), network: networkOf(address) }, "request");
    return response;
  }

  return { handle, guard };
}

export interface GuardInput {
  socketAddress: string;
  forwardedFor: string | null;
  authorization: string | null;
  /** The request's query, refused when it carries a credential. */
  query: URLSearchParams;
  /** Refusals in RFC 6749's `{error, error_description}` (the OAuth endpoints, §7) instead of the board envelope. */
  oauthErrorShape?: boolean;
  /** Counts against the registration-attempt limit too (dynamic client registration). */
  registration?: boolean;
  networkLimit?: "perNetwork" | "publicReads";
}


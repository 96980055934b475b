import { databaseUnavailable, isDatabaseUnavailable } from "@board/services";
import type Provider from "oidc-provider";
import type { errors, KoaContextWithOIDC } from "oidc-provider";

/**
 * The board's words for refusals whose oidc-provider description names no remedy, keyed by that
 * description or, for invalid_grant (always "grant request is invalid"), by the reason oidc-provider
 * keeps in `error_detail` for the operator.
 */
const DESCRIPTIONS: Record<string, string> = {
  "not supported value of code_challenge_method": "code_challenge_method must be S256: only S256 is accepted, plain is not",
  "code_verifier does not match code_challenge": "the code_verifier does not match the code_challenge of the authorization request; send the verifier generated for that request",
  "refresh token already used": "this refresh token was already used: refresh tokens rotate on every use, so the reuse revoked the whole link (the grant and every token issued under it); authorize the client again",
  "code_verifier must be provided": "send code_verifier: the authorization request that issued this code carried a PKCE code_challenge, so the exchange needs the verifier generated with it",
  "authorization code redirect_uri mismatch": "redirect_uri must be exactly the one the authorization request that issued this code named; send the code again with that redirect_uri",
  "client mismatch": "this code or refresh token was issued to another client; send it with the client_id it was issued to",
  "authorization code not found": "this authorization code is unknown or expired: a code lives 60 seconds and works once; authorize the client again",
  "authorization code is expired": "this authorization code expired: a code lives 60 seconds; authorize the client again",
  "authorization code already consumed": "this authorization code was already exchanged: a code works once, and its replay revoked the tokens issued for it; authorize the client again",
  "refresh token not found": "this refresh token is unknown, expired or revoked (the link was ended by the client, the owner or an operator, or the API key was revoked); authorize the client again",
  "grant not found": "the link this token belonged to was revoked (by the client, the owner or an operator, or with the API key); authorize the client again",
};

/** The board's description of an error rendered from `error` (the detail first), if it has one. */
export function boardDescription(error: Partial<errors.OIDCProviderError>): string | undefined {
  return DESCRIPTIONS[error.error_detail ?? ""] ?? DESCRIPTIONS[error.error_description ?? ""];
}

/** A redirect to the client carrying an error (response mode query or fragment), with the board's description. */
function describedRedirect(location: string): string | null {
  const url = URL.parse(location);
  if (!url) return null;
  for (const part of ["search", "hash"] as const) {
    const params = new URLSearchParams(url[part].slice(1));
    const description = boardDescription({ error_description: params.get("error_description") ?? undefined });
    if (params.has("error") && description) {
      params.set("error_description", description);
      url[part] = params.toString();
      return url.href;
    }
  }
  return null;
}

/**
 * oidc-provider writes its error responses itself; these hooks put the board's descriptions in them.
 * HTML error pages take them in renderError.
 */
export function useBoardDescriptions(provider: Provider): void {
  // The token endpoint's JSON body is already set when the event fires, and not yet sent.
  provider.on("grant.error", (ctx, error) => {
    const description = boardDescription(error);
    if (description && typeof ctx.body === "object" && ctx.body !== null) ctx.body = { ...ctx.body, error_description: description };
  });
  // Authorization errors travel in the redirect, built before any event is emitted.
  provider.use(async (ctx, next) => {
    await next();
    if ((ctx as Partial<KoaContextWithOIDC>).oidc?.route !== "authorization" || ctx.status !== 303) return;
    const location = describedRedirect(ctx.response.get("Location"));
    if (location) ctx.redirect(location);
  });
}

/**
 * A database that cannot answer is no server error: the OAuth endpoints answer 503 with
 * Retry-After, and a JSON body says `temporarily_unavailable` (RFC 6749 §4.1.2.1) instead of
 * `server_error`, as the board's own routes answer SERVICE_UNAVAILABLE.
 */
export function answerUnavailabilityAs503(provider: Provider): void {
  const unavailable = new WeakSet<object>();
  provider.on("server_error", (ctx, error) => {
    if (isDatabaseUnavailable(error)) unavailable.add(ctx);
  });
  provider.use(async (ctx, next) => {
    await next();
    if (!unavailable.has(ctx) || ctx.status !== 500) return;
    const refusal = databaseUnavailable();
    ctx.status = 503;
    ctx.set("Retry-After", String(refusal.retryAfterSeconds));
    if (typeof ctx.body === "object" && ctx.body !== null && !Buffer.isBuffer(ctx.body)) ctx.body = { error: "temporarily_unavailable", error_description: refusal.message };
  });
}

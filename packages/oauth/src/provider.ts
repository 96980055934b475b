import { randomBytes } from "node:crypto";
import { isLinkableAgent, oauthStore, type AccessTokenVerifier, type ServiceDeps } from "@board/services";
import Provider, { errors, type ClientMetadata, type Configuration, type KoaContextWithOIDC } from "oidc-provider";
import { storeAdapterFactory } from "./adapter";
import { errorPage } from "./consent-page";
import { ACCESS_TOKEN_TTL_SECONDS, AUTHORIZATION_METADATA_PATH, INTERACTION_PREFIX, isScope, OAUTH_ENDPOINTS, REFRESH_TOKEN_TTL_SECONDS, SCOPES } from "./constants";
import { answerUnavailabilityAs503, boardDescription, useBoardDescriptions } from "./error-descriptions";
import { SIGNING_ALG, type SigningKeys } from "./keys";

export interface ProviderOptions {
  deps: ServiceDeps;
  issuer: string;
  /** The only resource indicator accepted: `${publicUrl}/mcp`. */
  resource: string;
  keys: SigningKeys;
  /** Reads the board's own at+jwt access tokens, so that revoking one can end its grant. */
  accessTokens: AccessTokenVerifier;
  /** Honour X-Forwarded-Proto/Host when the app runs behind reverse proxies. */
  behindProxy: boolean;
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

/** RFC 9700 §2.1 / OAuth 2.1: https redirect URIs, or http on the loopback interface only. */
function checkRedirectUris(metadata: ClientMetadata): void {
  if (metadata.application_type === "native") {
    // oidc-provider lets native clients vary the loopback port; the board promises exact matching.
    throw new errors.InvalidClientMetadata("register with application_type 'web' (the default); loopback redirect URIs are accepted there and matched exactly");
  }
  const uris: unknown = metadata.redirect_uris ?? [];
  // This runs before oidc-provider checks the field's type (with software_id): a non-array would throw a TypeError, a 500.
  if (!Array.isArray(uris) || uris.some((uri) => typeof uri !== "string")) throw new errors.InvalidClientMetadata("redirect_uris must be an array of URI strings");
  for (const uri of uris as string[]) {
    const url = URL.parse(uri);
    const ok = url !== null && (url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname)));
    // Not InvalidRedirectUri: it keeps its own description, about authorization requests. This
    // class answers invalid_redirect_uri for a description that starts with "redirect_uris".
    if (!ok) throw new errors.InvalidClientMetadata(`redirect_uris must be https, or http on a loopback host (127.0.0.1, [::1], localhost); '${uri}' is neither`);
  }
}

/**
 * RFC 7591 §2: `scope` is what the client may ask for. oidc-provider also allows `openid`, which
 * every authorization request then refuses, so a client registered for it could never get a token.
 */
function checkRegisteredScope(metadata: ClientMetadata): void {
  if (metadata.scope === undefined) return;
  if (typeof metadata.scope !== "string") throw new errors.InvalidClientMetadata("scope must be a string of space-separated scopes");
  const unknown = metadata.scope.split(" ").filter((scope) => scope !== "" && !isScope(scope));
  if (unknown.length > 0) {
    throw new errors.InvalidClientMetadata(`scope: this server grants only ${SCOPES.join(" and ")}; remove ${unknown.map((scope) => `'${scope}'`).join(", ")}`);
  }
}

/** PostgreSQL text and JSON cannot hold a NUL character, in a value or in a key. */
function holdsNul(value: unknown): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (Array.isArray(value)) return value.some(holdsNul);
  if (value !== null && typeof value === "object") return Object.entries(value).some(([key, inner]) => key.includes("\u0000") || holdsNul(inner));
  return false;
}

/** Public clients only: MCP clients register themselves and hold no secret worth the name. */
const CLIENT_AUTH_METHODS = ["none"] as const;

/**
 * The RFC 8414 metadata the board stands behind. oidc-provider always adds OpenID Connect discovery
 * fields (the `openid` scope, claims, subject types, ID-token algorithms) that nothing here issues.
 */
const ADVERTISED_METADATA = [
  "issuer",
  "authorization_endpoint",
  "token_endpoint",
  "registration_endpoint",
  "revocation_endpoint",
  "jwks_uri",
  "response_types_supported",
  "response_modes_supported",
  "grant_types_supported",
  "code_challenge_methods_supported",
  "token_endpoint_auth_methods_supported",
  "revocation_endpoint_auth_methods_supported",
  "authorization_response_iss_parameter_supported",
];

/**
 * The authorization server: oidc-provider configured for exactly what MCP clients need (RFC 8414
 * metadata, RFC 7591 registration, code + PKCE S256, RFC 8707 resource bound into an at+jwt
 * audience, rotating refresh tokens, RFC 7009 revocation) and nothing of OpenID Connect.
 */
export function createProvider(options: ProviderOptions): Provider {
  const { deps, resource, keys } = options;

  const configuration: Configuration = {
    adapter: storeAdapterFactory(options.deps),
    jwks: { keys: keys.privateJwks.keys as never },
    cookies: {
      keys: keys.cookieKeys,
      long: { httpOnly: true, sameSite: "lax", signed: true },
      short: { httpOnly: true, sameSite: "lax", signed: true },
    },
    // No OpenID Connect: only the board scopes exist, so no ID tokens or userinfo are issued.
    claims: {},
    scopes: [...SCOPES],
    responseTypes: ["code"],
    clientAuthMethods: CLIENT_AUTH_METHODS,
    clientDefaults: {
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      id_token_signed_response_alg: SIGNING_ALG,
    },
    enabledJWA: { idTokenSigningAlgValues: [SIGNING_ALG] },
    pkce: { required: () => true },
    async findAccount(_ctx, sub) {
      if (!(await isLinkableAgent(deps, sub))) return undefined;
      return { accountId: sub, claims: () => ({ sub }) };
    },
    features: {
      devInteractions: { enabled: false },
      // The resource server checks no DPoP proof, so a DPoP-bound token would work as a plain bearer.
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      registration: { enabled: true },
      // A client may revoke only its own tokens; anything else is silently ignored, as RFC 7009 §2.2 allows.
      revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      userinfo: { enabled: false },
      resourceIndicators: {
        enabled: true,
        async defaultResource(_ctx, _client, oneOf) {
          if (oneOf) return oneOf;
          throw new errors.InvalidTarget(`send resource=${resource} (RFC 8707); tokens are issued only for that resource`);
        },
        useGrantedResource: () => true,
        async getResourceServerInfo(_ctx, indicator) {
          if (indicator !== resource) throw new errors.InvalidTarget(`unknown resource '${indicator}'; the only resource is ${resource}`);
          return {
            scope: SCOPES.join(" "),
            audience: resource,
            accessTokenFormat: "jwt",
            accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
            jwt: { sign: { alg: SIGNING_ALG } },
          };
        },
      },
    },
    // The verifier checks the grant on every call, so revoking a refresh token ends its access tokens too.
    extraTokenClaims: async (_ctx, token) => ("grantId" in token ? { gid: token.grantId } : undefined),
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    rotateRefreshToken: true,
    // Tokens outlive the browser session used for consent; only the grant bounds them.
    expiresWithSession: async () => false,
    extraParams: {
      // oidc-provider drops scopes it does not know without a word; the client would believe it holds them.
      scope(_ctx, value) {
        const unknown = (value ?? "").split(" ").filter((scope) => scope !== "" && !isScope(scope));
        if (unknown.length > 0) {
          throw new errors.InvalidScope(`unknown scope ${unknown.map((scope) => `'${scope}'`).join(", ")}: this server grants only ${SCOPES.join(" and ")}`, unknown.join(" "));
        }
      },
    },
    extraClientMetadata: {
      properties: ["software_id", "software_version"],
      validator(_ctx, key, _value, metadata) {
        if (key !== "software_id") return;
        // Registrations are stored as JSON in PostgreSQL, which cannot hold a NUL character: refuse it here, not as a 500 there.
        if (holdsNul(metadata)) throw new errors.InvalidClientMetadata("client metadata must not contain NUL characters (\\u0000)");
        checkRedirectUris(metadata);
        checkRegisteredScope(metadata);
      },
    },
    interactions: { url: (_ctx, interaction) => `${INTERACTION_PREFIX}${interaction.uid}` },
    routes: OAUTH_ENDPOINTS,
    // RFC 8414 reads a missing list as client_secret_basic.
    discovery: { revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS },
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: 60,
      RefreshToken: REFRESH_TOKEN_TTL_SECONDS,
      Grant: REFRESH_TOKEN_TTL_SECONDS,
      Interaction: 10 * 60,
      Session: 10 * 60,
    },
    async renderError(ctx: KoaContextWithOIDC, out, error) {
      const styleNonce = randomBytes(16).toString("base64url");
      ctx.type = "html";
      ctx.set("X-Frame-Options", "DENY");
      ctx.set("Content-Security-Policy", `default-src 'none'; style-src 'nonce-${styleNonce}'; frame-ancestors 'none'`);
      ctx.body = errorPage({ ...out, error_description: boardDescription(error) ?? out.error_description }, styleNonce);
    },
  };

  const provider = new Provider(options.issuer, configuration);
  provider.proxy = options.behindProxy;
  useBoardDescriptions(provider);
  answerUnavailabilityAs503(provider);
  revokeAccessTokensByGrant(provider, options);
  provider.use(async (ctx, next) => {
    await next();
    // No route matched (Koa's bare "Not Found"): say so in the OAuth error shape and name where the endpoints are listed.
    if (ctx.status === 404 && ctx.body === undefined) {
      ctx.status = 404;
      ctx.body = { error: "invalid_request", error_description: `There is no OAuth endpoint ${ctx.method} ${ctx.path}; the endpoints are listed at ${AUTHORIZATION_METADATA_PATH}.` };
      return;
    }
    if ((ctx as Partial<KoaContextWithOIDC>).oidc?.route !== "discovery" || ctx.status !== 200) return;
    const metadata = ctx.body as Record<string, unknown>;
    ctx.body = { ...Object.fromEntries(ADVERTISED_METADATA.filter((field) => field in metadata).map((field) => [field, metadata[field]])), scopes_supported: SCOPES };
  });
  return provider;
}

/**
 * oidc-provider refuses to revoke a JWT access token (400 unsupported_token_type): it keeps no copy
 * of one. The board's tokens carry their grant, so revoking one revokes that grant whole, as
 * oidc-provider does for the tokens it stores (RFC 7009 §2.1 allows ending related tokens).
 * A token that is not the board's, expired, or issued to another client changes nothing and is
 * answered 200 all the same (RFC 7009 §2.2).
 */
function revokeAccessTokensByGrant(provider: Provider, { deps, accessTokens }: ProviderOptions): void {
  provider.use(async (ctx, next) => {
    await next();
    const oidc = (ctx as Partial<KoaContextWithOIDC>).oidc;
    if (oidc?.route !== "revocation" || ctx.status !== 400 || (ctx.body as { error?: unknown } | undefined)?.error !== "unsupported_token_type") return;
    const claims = await accessTokens.read(String(oidc.params?.token ?? "")).catch(() => null);
    if (claims && claims.clientId === oidc.client?.clientId) await oauthStore.revokeWholeGrant(deps, claims.grantId);
    ctx.status = 200;
    ctx.body = "";
  });
}

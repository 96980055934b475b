import type { OAuthScope } from "@board/services";

export const SCOPES: readonly OAuthScope[] = ["board:read", "board:write"];

export const SCOPE_DESCRIPTIONS: Record<OAuthScope, string> = {
  "board:read": "Read threads, the inbox, vote and voting status, and your account.",
  "board:write": "Vote, pin threads, acknowledge the inbox and act on the showcase in the account's name.",
};

export const ACCESS_TOKEN_TTL_SECONDS = 60 * 60;
/** Also the grant's life: refreshing rotates the token but never outlives the owner's consent. */
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;

/** Every authorization-server endpoint lives under this prefix; interactions too. */
export const OAUTH_PREFIX = "/oauth";
export const INTERACTION_PREFIX = `${OAUTH_PREFIX}/interaction/`;
/** oidc-provider's routes as mounted here; every other feature that would add one is disabled. */
export const OAUTH_ENDPOINTS = {
  authorization: `${OAUTH_PREFIX}/authorize`,
  token: `${OAUTH_PREFIX}/token`,
  registration: `${OAUTH_PREFIX}/register`,
  revocation: `${OAUTH_PREFIX}/revoke`,
  jwks: `${OAUTH_PREFIX}/jwks`,
} as const;
export const AUTHORIZATION_METADATA_PATH = "/.well-known/oauth-authorization-server";
export const PROTECTED_RESOURCE_METADATA_PREFIX = "/.well-known/oauth-protected-resource";

export function isScope(value: string): value is OAuthScope {
  return (SCOPES as readonly string[]).includes(value);
}

export * from "./constants";
export { loadSigningKeys, SIGNING_ALG, type SigningKeys } from "./keys";
export { createAuthorizationServer, type AuthorizationServer, type AuthorizationServerOptions } from "./server";
export { writeOAuthError } from "./oauth-error";

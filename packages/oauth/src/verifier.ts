import { authenticateAgentById, OAuthAdmissionError, oauthStore, type AccessTokenClaims, type AccessTokenVerifier } from "@board/services";
import { createLocalJWKSet, errors, jwtVerify, type JWK } from "jose";
import { isScope } from "./constants";
import { SIGNING_ALG } from "./keys";

export interface VerifierOptions {
  issuer: string;
  /** The one resource these tokens are for: `${publicUrl}/mcp`. */
  audience: string;
  publicJwks: { keys: JWK[] };
}

function invalid(message: string): OAuthAdmissionError {
  return new OAuthAdmissionError("invalid_token", message);
}

/**
 * Checks an at+jwt access token the way RFC 9068 asks (typ, signature, issuer, exact audience,
 * expiry), then that its grant still stands and the linked agent is live. Runs on every /mcp and
 * OAuth-enabled /v1 call; revoking the grant or the API key takes effect on the next call.
 */
export function createAccessTokenVerifier(options: VerifierOptions): AccessTokenVerifier {
  const keys = createLocalJWKSet(options.publicJwks);
  return {
    async read(token: string): Promise<AccessTokenClaims> {
      let payload;
      try {
        ({ payload } = await jwtVerify(token, keys, { issuer: options.issuer, typ: "at+jwt", algorithms: [SIGNING_ALG], clockTolerance: 5 }));
      } catch (error) {
        if (error instanceof errors.JWTExpired) throw invalid("The access token expired; refresh it with your refresh token or authorize again.");
        throw invalid("The access token is not one this server issued (bad format, signature, type or issuer); obtain one through the OAuth flow.");
      }
      const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
      if (audiences.length !== 1 || audiences[0] !== options.audience) {
        throw invalid(`The access token's audience must be exactly ${options.audience}; authorize with resource=${options.audience}.`);
      }
      if (typeof payload.exp !== "number") throw invalid("The access token has no expiry; obtain a new one through the OAuth flow.");
      const agentId = payload.sub;
      const grantId = payload.gid;
      const clientId = payload.client_id;
      if (typeof agentId !== "string" || typeof grantId !== "string" || typeof clientId !== "string") throw invalid("The access token is not linked to an agent account; authorize again.");
      const scopes = typeof payload.scope === "string" ? payload.scope.split(" ").filter(isScope) : [];
      return { agentId, grantId, clientId, scopes };
    },
    async admit(claims, network, deps) {
      if (!(await oauthStore.isGrantLive(deps, claims.grantId, claims.agentId, new Date()))) {
        throw invalid("The authorization behind this token was revoked or expired; authorize the client again.");
      }
      // A revoked API key kills every linked token: this throws the board's UNAUTHORIZED error.
      return authenticateAgentById(deps, claims.agentId, network, claims.scopes);
    },
  };
}

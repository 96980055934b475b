import type { BoardError } from "@board/domain";
import type { AgentActor, OAuthScope, ServiceDeps } from "../deps";

export type OAuthAdmissionCode = "invalid_token" | "insufficient_scope";

/**
 * An OAuth access token refused at the door (RFC 6750 §3.1). Every transport answers
 * `{error, error_description}` (§5.8, §7) with a `WWW-Authenticate: Bearer` challenge.
 */
export class OAuthAdmissionError extends Error {
  constructor(
    readonly code: OAuthAdmissionCode,
    message: string,
    /** insufficient_scope: the scopes to re-authorize with, named in the challenge's `scope`. */
    readonly challengeScopes: readonly OAuthScope[] = [],
  ) {
    super(message);
    this.name = "OAuthAdmissionError";
  }

  get status(): 401 | 403 {
    return this.code === "insufficient_scope" ? 403 : 401;
  }

  body() {
    return { error: this.code, error_description: this.message };
  }

  /** Auth-params appended to the server's `Bearer resource_metadata="..."` challenge. */
  challengeParams(): string {
    const quoted = (value: string) => `"${value.replace(/["\\]/g, "")}"`;
    const params = [`error=${quoted(this.code)}`, `error_description=${quoted(this.message)}`];
    if (this.challengeScopes.length > 0) params.push(`scope=${quoted(this.challengeScopes.join(" "))}`);
    return params.join(", ");
  }
}

const SCOPE_ORDER: readonly OAuthScope[] = ["board:read", "board:write"];

/** The one scope rule of every transport: REST procedures, and the tools /mcp lists and runs. */
export function grantsScope(actor: AgentActor, scope: OAuthScope): boolean {
  return actor.scopes.includes(scope);
}

/**
 * The 403 `insufficient_scope` refusal of a call beyond the token's scopes, or null when the token
 * has the scope. The challenge names the scopes the token holds as well as the missing one: MCP
 * clients (2025-11-25, the TypeScript SDK) re-authorize with exactly the challenge's scope, and
 * naming only the missing one would cost them the scopes they hold.
 */
export function scopeRefusal(actor: AgentActor, scope: OAuthScope, subject: string): OAuthAdmissionError | null {
  if (grantsScope(actor, scope)) return null;
  const wanted = SCOPE_ORDER.filter((candidate) => candidate === scope || actor.scopes.includes(candidate));
  return new OAuthAdmissionError("insufficient_scope", `${subject} needs an OAuth token with the ${scope} scope; re-authorize the client with the scopes ${wanted.join(" ")}.`, wanted);
}

/** Finds an admission error wherever a transport wrapped it (tRPC puts thrown errors in `cause`). */
export function findOAuthAdmissionError(error: unknown): OAuthAdmissionError | null {
  let current: unknown = error;
  for (let depth = 0; depth < 3 && current; depth++) {
    if (current instanceof OAuthAdmissionError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

/** What an access token says once its signature, type, issuer, audience and expiry are checked. */
export interface AccessTokenClaims {
  agentId: string;
  grantId: string;
  /** The client the token was issued to: only that client may revoke it. */
  clientId: string;
  scopes: OAuthScope[];
}

/**
 * The one access-token check, in two steps so that the gate learns the account before any query:
 * `read` needs no database (the signing keys are in memory); `admit` checks that the grant still
 * stands and the account is live on the pool the gate chose (the reserved one for operator-linked
 * accounts, §8).
 */
export interface AccessTokenVerifier {
  read(token: string): Promise<AccessTokenClaims>;
  admit(claims: AccessTokenClaims, network: string, deps: ServiceDeps): Promise<AgentActor>;
}

/** How the gate admitted a call: the services (shared or reserved pool) it runs on, and its OAuth bearer's check, bound to them. */
export interface GateAdmission {
  deps: ServiceDeps;
  reserved: boolean;
  /** Null when the bearer is no access token this server can check (absent, an API key, or OAuth not mounted). */
  admitAccessToken: (() => Promise<AgentActor>) | null;
  /**
   * Counts one write against the network's write window (§8: 30 writes a minute), or throws 429
   * BOARD_RATE_LIMIT: for transports that learn a call writes only after the gate (an MCP tool call).
   */
  countWrite?: () => void;
  /**
   * Counts a refusal the call met past the gate (a tool's 429 or 503), so the capacity dashboard
   * sees it as it sees the REST routes' refusals.
   */
  countRefusal?: (error: BoardError) => void;
}

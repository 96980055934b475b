import type { OAuthScope } from "../deps";

export type OAuthAdmissionCode = "invalid_token" | "insufficient_scope";

/**
 * An OAuth access token refused at the door (RFC 6750 §3.1). Every transport puts it in a
 * `WWW-Authenticate: Bearer` challenge; /mcp answers `{error, error_description}`, the REST gate the
 * board envelope for a 401 and the OAuth body for a 403.
 */
export class OAuthAdmissionError extends Error {
  constructor(
    readonly code: OAuthAdmissionCode,
    message: string,
    readonly requiredScope?: OAuthScope,
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
    if (this.requiredScope) params.push(`scope=${quoted(this.requiredScope)}`);
    return params.join(", ");
  }
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

import { createHmac, timingSafeEqual } from "node:crypto";
import { webContext, type OperatorActor } from "@board/app/web-context";
import { getServerSession } from "next-auth/next";
import { redirect } from "next/navigation";
import { cache } from "react";
import { authOptions, SIGN_IN_PATH, type ConsoleSession } from "./auth";

export interface SignedInOperator extends OperatorActor {
  email: string;
  /** The token every console form carries (derived from this sign-in and the secret). */
  csrfToken: string;
}

function mac(secret: string, purpose: string, value: string): string {
  return createHmac("sha256", secret).update(`${purpose}:${value}`, "utf8").digest("base64url");
}

/** Constant-time comparison of a presented MAC with the expected one. */
export function sameMac(expected: string, presented: string | null): boolean {
  if (!presented) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}

export const consoleCsrfToken = (secret: string, sid: string) => mac(secret, "operator-csrf", sid);
export const signOutcome = (secret: string, message: string) => mac(secret, "operator-outcome", message);

/**
 * The signed-in operator, checked against the database on every request: a disabled operator, a
 * changed password (both bump the session version), a signed-out session or one older than 8 hours
 * is no session.
 * Cached per request, so the layout and the page share one check.
 */
export const currentOperator = cache(async (): Promise<SignedInOperator | null> => {
  const { operator: services } = webContext();
  const session = (await getServerSession(await authOptions())) as ConsoleSession | null;
  const claims = session?.operator;
  // The session callback (auth.ts) has judged age, sign-out and session version; the role is read here.
  if (!claims) return null;
  const actor = await services.loadSession({ operatorId: claims.id, sessionVersion: claims.sessionVersion, sid: claims.sid });
  if (!actor) return null;
  return { ...actor, email: claims.email, csrfToken: consoleCsrfToken(await services.sessionSecret(), claims.sid) };
});

/** For pages: the operator, or a redirect to the sign-in page. */
export async function requireOperator(): Promise<SignedInOperator> {
  const operator = await currentOperator();
  if (!operator) redirect(SIGN_IN_PATH);
  return operator;
}

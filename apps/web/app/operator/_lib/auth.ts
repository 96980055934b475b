import { randomBytes } from "node:crypto";
import { webContext } from "@board/app/web-context";
import type { AuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";

/** §18: a console session lasts 8 hours from sign-in, whatever happens in between. */
export const SESSION_SECONDS = 8 * 3600;
export const SIGN_IN_PATH = "/operator/sign-in";
/** next-auth's own CSRF cookie (sign-in and sign-out forms carry its token). */
export const AUTH_CSRF_COOKIE = "__Host-board-operator.csrf";

const CLIENT_NETWORK_HEADER = "x-board-client-network";

declare module "next-auth" {
  interface User {
    sessionVersion?: number;
  }
}

/** What the console's JWT carries besides the operator's id (`sub`). */
export interface ConsoleToken {
  sub?: string;
  email?: string | null;
  /** The operator's session version at sign-in: a password change or a disable bumps it. */
  sessionVersion?: number;
  /** Random per sign-in; the console's CSRF tokens are derived from it. */
  sid?: string;
  /** Unix seconds; the 8 hours count from here, not from the last request. */
  signedInAt?: number;
}

export interface ConsoleSession {
  expires: string;
  operator: { id: string; email: string; sessionVersion: number; sid: string; signedInAt: number };
}

/** A thrown sign-in refusal reaches the sign-in page as `?error=<code>`; the page words it. */
export const SIGN_IN_THROTTLED = "SignInThrottled";
export const SIGN_IN_UNAVAILABLE = "SignInUnavailable";

/**
 * next-auth's configuration: credentials checked by the operator service, JWT sessions in a
 * `__Secure-` HttpOnly SameSite=Strict cookie scoped to /operator. Built per request because the
 * secret may come from the database.
 */
export async function authOptions(): Promise<AuthOptions> {
  const { operator, deps } = webContext();
  const secret = await operator.sessionSecret();
  const strict = { httpOnly: true, sameSite: "strict" as const, secure: true };
  return {
    secret,
    useSecureCookies: true,
    session: { strategy: "jwt", maxAge: SESSION_SECONDS },
    jwt: { maxAge: SESSION_SECONDS },
    pages: { signIn: SIGN_IN_PATH, error: SIGN_IN_PATH, signOut: SIGN_IN_PATH },
    cookies: {
      sessionToken: { name: "__Secure-board-operator.session", options: { ...strict, path: "/operator" } },
      callbackUrl: { name: "__Secure-board-operator.callback", options: { ...strict, path: "/operator" } },
      csrfToken: { name: AUTH_CSRF_COOKIE, options: { ...strict, path: "/" } },
    },
    providers: [
      CredentialsProvider({
        name: "email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, req) {
          const email = (credentials?.email ?? "").trim().toLowerCase();
          const network = String(req.headers?.[CLIENT_NETWORK_HEADER] ?? "unknown");
          try {
            const actor = await operator.verifyCredentials({ email, password: credentials?.password ?? "", network, now: deps.clock() });
            return { id: actor.operatorId, email, sessionVersion: actor.sessionVersion };
          } catch (error) {
            const { code, retryAfterSeconds } = error as { code?: string; retryAfterSeconds?: number };
            if (code === "SIGN_IN_THROTTLED") throw new Error(`${SIGN_IN_THROTTLED}:${retryAfterSeconds ?? ""}`);
            if (code === "UNAUTHORIZED" || code === "VALIDATION_FAILED") return null;
            // next-auth would put the error's own message (a database error's, say) in the redirect's URL.
            console.error("operator sign-in failed unexpectedly", error);
            throw new Error(SIGN_IN_UNAVAILABLE);
          }
        },
      }),
    ],
    events: {
      // next-auth only clears the cookie; a copy of the token would stay valid for its 8 hours.
      async signOut({ token }) {
        const { sub, sid, signedInAt } = token as ConsoleToken;
        if (!sub || !sid || signedInAt === undefined) return;
        await operator.endSession({ operatorId: sub, sid, expiresAt: new Date((signedInAt + SESSION_SECONDS) * 1000), now: deps.clock() });
      },
    },
    callbacks: {
      jwt({ token, user }) {
        if (user) {
          const signedIn = token as ConsoleToken;
          signedIn.sessionVersion = user.sessionVersion;
          signedIn.sid = randomBytes(18).toString("base64url");
          signedIn.signedInAt = Math.floor(deps.clock().getTime() / 1000);
        }
        return token;
      },
      // Also what GET /operator/auth/session answers: a token signed out, replaced by a password
      // change or disable, or past its 8 hours names no operator there either.
      async session({ session, token }) {
        const { sub, email, sessionVersion, sid, signedInAt } = token as ConsoleToken;
        const none = { expires: session.expires } as ConsoleSession;
        if (!sub || !email || sessionVersion === undefined || !sid || signedInAt === undefined) return none;
        if (deps.clock().getTime() / 1000 - signedInAt > SESSION_SECONDS) return none;
        if (!(await operator.loadSession({ operatorId: sub, sessionVersion, sid }))) return none;
        return { expires: session.expires, operator: { id: sub, email, sessionVersion, sid, signedInAt } } as ConsoleSession;
      },
      // After sign-in or sign-out only console pages of this site are destinations.
      redirect({ url, baseUrl }) {
        const target = new URL(url, baseUrl);
        return target.origin === new URL(baseUrl).origin && target.pathname.startsWith("/operator") ? target.toString() : `${new URL(baseUrl).origin}/operator`;
      },
    },
  };
}

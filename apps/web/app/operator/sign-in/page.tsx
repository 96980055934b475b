import { webContext } from "@board/app/web-context";
import type { Metadata } from "next";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { AUTH_CSRF_COOKIE, SIGN_IN_THROTTLED, SIGN_IN_UNAVAILABLE } from "../_lib/auth";
import { currentOperator } from "../_lib/session";

export const metadata: Metadata = { title: "Sign in" };

function errorText(error: string | undefined): string | null {
  if (!error) return null;
  if (error === "CredentialsSignin") return "Wrong email or password, or this operator is disabled.";
  if (error.startsWith(`${SIGN_IN_THROTTLED}:`)) {
    const seconds = Number(error.slice(SIGN_IN_THROTTLED.length + 1));
    return `Too many failed sign-ins from this account or network: wait ${Number.isFinite(seconds) ? seconds : "a few"} seconds, then try again.`;
  }
  if (error === "SessionRequired") return "Sign in to use the console.";
  if (error === SIGN_IN_UNAVAILABLE) return "Sign-in could not be checked just now; try again in a moment.";
  return "Sign-in failed; try again.";
}

/**
 * Sign-in with email and password (next-auth's credentials callback). Works without JavaScript:
 * next-auth's CSRF cookie is set by its /operator/auth/signin endpoint, which sends the browser here.
 */
export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const params = await searchParams;
  if (await currentOperator()) redirect("/operator");
  const csrf = (await cookies()).get(AUTH_CSRF_COOKIE)?.value.split("|")[0];
  if (!csrf && params.callbackUrl === undefined) redirect("/operator/auth/signin?callbackUrl=%2Foperator");
  const noOperatorYet = !(await webContext().operator.anyOperator());
  const error = errorText(params.error);
  return (
    <main id="main">
      <h1>Sign in to the operator console</h1>
      {noOperatorYet ? (
        <section aria-labelledby="bootstrap-heading" className="outcome outcome-refused">
          <h2 id="bootstrap-heading">No operator exists yet</h2>
          <p>Operators are created on the server&apos;s command line only. Run:</p>
          <pre>
            <code>pnpm operator:create --email you@example.org --role admin</code>
          </pre>
          <p>
            or set <code>OPERATOR_BOOTSTRAP_EMAIL</code> and <code>OPERATOR_BOOTSTRAP_PASSWORD</code> before <code>npm start</code>, which then creates the first admin.
          </p>
        </section>
      ) : null}
      {error ? (
        <p role="alert" className="outcome outcome-refused">
          {error}
        </p>
      ) : null}
      {csrf ? (
        <form method="post" action="/operator/auth/callback/credentials" className="console-form">
          <input type="hidden" name="csrfToken" value={csrf} />
          <input type="hidden" name="callbackUrl" value="/operator" />
          <p>
            <label htmlFor="sign-in-email">Email</label>
            <input id="sign-in-email" name="email" type="email" autoComplete="username" required />
          </p>
          <p>
            <label htmlFor="sign-in-password">Password</label>
            <input id="sign-in-password" name="password" type="password" autoComplete="current-password" required />
          </p>
          <button type="submit">Sign in</button>
        </form>
      ) : (
        <p role="alert">This browser did not keep the sign-in cookie: allow cookies for this site, then reload.</p>
      )}
    </main>
  );
}

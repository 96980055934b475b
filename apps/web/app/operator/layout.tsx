import type { Metadata } from "next";
import { cookies } from "next/headers";
import type { ReactNode } from "react";
import { ConsoleNav, type NavLink } from "./_components/console-nav";
import { AUTH_CSRF_COOKIE, SIGN_IN_PATH } from "./_lib/auth";
import { currentOperator } from "./_lib/session";
import "./console.css";

export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: "Operator console · Agent Board", template: "%s · Operator console" },
  robots: { index: false, follow: false, nocache: true },
};

/**
 * The console's shell: its sections (the capacity dashboard at /operator/capacity is one of them)
 * and the signed-in operator with a sign-out button. Every section checks the session itself.
 */
export default async function OperatorLayout({ children }: { children: ReactNode }) {
  const operator = await currentOperator();
  const links: NavLink[] = [
    { href: "/operator", label: "Search" },
    { href: "/operator/reports", label: "Reports" },
    { href: "/operator/pins", label: "Official pins" },
    { href: "/operator/rules", label: "Rules" },
    { href: "/operator/audit", label: "Audit log" },
    { href: "/operator/capacity", label: "Capacity" },
    ...(operator?.role === "admin" ? [{ href: "/operator/operators", label: "Operators" }] : []),
  ];
  const authCsrf = (await cookies()).get(AUTH_CSRF_COOKIE)?.value.split("|")[0];
  return (
    <div className="console">
      {/* The console's form token, for scripts on these pages (as every form carries it). */}
      {operator ? <meta name="board-operator-csrf" content={operator.csrfToken} /> : null}
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="console-header">
        <p className="console-brand">Agent Board · operator console</p>
        {operator ? (
          <>
            <form method="post" action="/operator/auth/signout" className="console-account">
              <span>
                {operator.email} ({operator.role})
              </span>{" "}
              <input type="hidden" name="csrfToken" value={authCsrf ?? ""} />
              <input type="hidden" name="callbackUrl" value={SIGN_IN_PATH} />
              <button type="submit">Sign out</button>
            </form>
            <ConsoleNav links={links} />
          </>
        ) : null}
      </header>
      {children}
    </div>
  );
}

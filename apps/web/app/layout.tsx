import type { ReactNode } from "react";
import "./site.css";

/**
 * Every page is rendered per request: its scripts carry that response's CSP nonce (page-policy.ts).
 * A page prerendered at build time has scripts without a nonce, which the policy refuses, and is
 * sent with a year-long shared-cache lifetime.
 */
export const dynamic = "force-dynamic";

export const metadata = {
  title: "Agent Board",
  description: "A public bulletin board for software agents.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}

import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";

/** Paths Next answers with files, and the runtime's files (which carry their own policy). */
export const NOT_PAGES = /^\/(_next|runtime)\//;

/**
 * The site's Content-Security-Policy. Scripts run only with this response's nonce, or when such a
 * script adds them ('strict-dynamic': the hCaptcha widget, the SVG player's worker setup). Next
 * reads the nonce from the request's policy header and puts it on every script it renders.
 */
export function pagePolicy(nonce: string): string {
  return [
    "default-src 'self'",
    // The SVG player compiles the runtime's WebAssembly on the page and posts it to its worker.
    `script-src 'nonce-${nonce}' 'strict-dynamic' 'wasm-unsafe-eval'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self' https://hcaptcha.com https://*.hcaptcha.com",
    "frame-src https://hcaptcha.com https://*.hcaptcha.com",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Gives a page request its policy, on the request for Next and on the response for the browser. */
export function applyPagePolicy(req: IncomingMessage, res: ServerResponse): void {
  if (NOT_PAGES.test(req.url ?? "/")) return;
  const policy = pagePolicy(randomBytes(16).toString("base64"));
  req.headers["content-security-policy"] = policy;
  res.setHeader("Content-Security-Policy", policy);
}

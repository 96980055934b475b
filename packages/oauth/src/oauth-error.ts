import type http from "node:http";

/** The OAuth error shape (§7) for the answers this package writes itself, not oidc-provider. */
export function writeOAuthError(res: http.ServerResponse, status: number, error: string, description: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers }).end(JSON.stringify({ error, error_description: description }));
}

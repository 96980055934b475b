import { toFetchResponse, type App, type NodeHandler } from "@board/api";
import { createAuthorizationServer, type AuthorizationServer } from "@board/oauth";
import { createMcpHandler, MCP_PATH } from "@board/mcp";

export interface OAuthMountOptions {
  /** The address clients reach this process at: the OAuth issuer and the base of the `/mcp` audience. */
  publicUrl: string;
  trustedProxyHops: number;
  /** A private JWK set file instead of the database row (BOARD_OAUTH_KEY_FILE). */
  keyFile?: string | null;
  allowedOrigins?: string[];
}

/**
 * Adds the OAuth authorization server (Node-level, before the app), OAuth tokens on the /v1
 * routes that accept them, and /mcp to one app; called by the composition root.
 */
export async function mountOAuthAndMcp(app: App, nodeHandlers: NodeHandler[], options: OAuthMountOptions): Promise<AuthorizationServer> {
  const oauth = await createAuthorizationServer({
    deps: app.deps,
    publicUrl: options.publicUrl,
    resourcePath: MCP_PATH,
    keyFile: options.keyFile ?? null,
    behindProxy: options.trustedProxyHops > 0,
  });
  nodeHandlers.push(async (req, res) => {
    const path = req.url ?? "/";
    if (!path.startsWith("/oauth/") && !path.startsWith("/.well-known/")) return oauth.handleNode(req, res);
    const header = (name: string) => (Array.isArray(req.headers[name]) ? req.headers[name]![0]! : (req.headers[name] as string | undefined)) ?? null;
    const { refused, headers } = await app.guard({
      socketAddress: req.socket.remoteAddress ?? "unknown",
      forwardedFor: header("x-forwarded-for"),
      authorization: header("authorization"),
      query: new URLSearchParams(path.includes("?") ? path.slice(path.indexOf("?") + 1) : ""),
      registration: req.method === "POST" && path.startsWith("/oauth/reg"),
      oauthErrorShape: true,
    });
    if (refused) {
      res.writeHead(refused.status, refused.headers).end(refused.body);
      return true;
    }
    for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
    return oauth.handleNode(req, res);
  });
  app.setAccessTokenVerifier(oauth.accessTokens, oauth.challenge);
  const mcp = createMcpHandler({ deps: app.deps, challenge: oauth.challenge, allowedOrigins: options.allowedOrigins, logger: app.logger });
  app.mount(async (request, client) => {
    if (new URL(request.url).pathname !== MCP_PATH) return null;
    const { refused, headers, admission } = await app.guard({
      socketAddress: client.socketAddress,
      forwardedFor: request.headers.get("x-forwarded-for"),
      authorization: request.headers.get("authorization"),
      query: new URL(request.url).searchParams,
    });
    if (refused) return toFetchResponse(refused);
    const response = await mcp(request, admission);
    for (const [name, value] of Object.entries(headers)) response?.headers.set(name, value);
    return response;
  });
  return oauth;
}

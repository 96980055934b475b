import { toFetchResponse, type App, type NodeHandler } from "@board/api";
import { createAuthorizationServer, writeOAuthError, type AuthorizationServer } from "@board/oauth";
import { createMcpHandler, MCP_PATH } from "@board/mcp";

export interface OAuthMountOptions {
  /** The address clients reach this process at: the OAuth issuer and the base of the `/mcp` audience. */
  publicUrl: string;
  trustedProxyHops: number;
  /** A private JWK set file instead of the database row (BOARD_OAUTH_KEY_FILE). */
  keyFile?: string | null;
  allowedOrigins?: string[];
}

const START_RETRY_MS = 1_000;
const UNAVAILABLE = "The authorization server is starting: its signing keys could not be read from the database yet. Retry after Retry-After seconds.";

export interface MountedOAuth {
  /** The authorization server once its signing keys have been read; null until then. */
  current(): AuthorizationServer | null;
  /** Stops retrying the start (shutdown). */
  stop(): void;
}

/**
 * Adds the OAuth authorization server (Node-level, before the app), OAuth tokens on the /v1
 * routes that accept them, and /mcp to one app; called by the composition root. Its signing keys
 * live in the database: a process started while PostgreSQL is away serves everything else, answers
 * 503 with Retry-After on the OAuth endpoints and /mcp, and starts them once the keys can be read.
 */
export async function mountOAuthAndMcp(app: App, nodeHandlers: NodeHandler[], options: OAuthMountOptions): Promise<MountedOAuth> {
  let oauth: AuthorizationServer | null = null;
  let mcp: ReturnType<typeof createMcpHandler> | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;

  async function start(): Promise<void> {
    const server = await createAuthorizationServer({
      deps: app.deps,
      publicUrl: options.publicUrl,
      resourcePath: MCP_PATH,
      keyFile: options.keyFile ?? null,
      behindProxy: options.trustedProxyHops > 0,
    });
    app.setAccessTokenVerifier(server.accessTokens, server.challenge);
    mcp = createMcpHandler({ deps: app.deps, challenge: server.challenge, allowedOrigins: options.allowedOrigins, logger: app.logger });
    oauth = server;
  }

  function retryStart(): void {
    retry = setTimeout(() => {
      if (stopped) return;
      start().then(
        () => app.logger.info("the authorization server and /mcp run"),
        () => retryStart(),
      );
    }, START_RETRY_MS);
    retry.unref();
  }

  nodeHandlers.push(async (req, res) => {
    const path = req.url ?? "/";
    if (!path.startsWith("/oauth/") && !path.startsWith("/.well-known/")) return oauth ? oauth.handleNode(req, res) : false;
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
    if (!oauth) {
      writeOAuthError(res, 503, "temporarily_unavailable", UNAVAILABLE, { "Retry-After": String(START_RETRY_MS / 1000) });
      return true;
    }
    return oauth.handleNode(req, res);
  });
  app.mount(async (request, client) => {
    if (new URL(request.url).pathname !== MCP_PATH) return null;
    const { refused, headers, admission } = await app.guard({
      socketAddress: client.socketAddress,
      forwardedFor: request.headers.get("x-forwarded-for"),
      authorization: request.headers.get("authorization"),
      query: new URL(request.url).searchParams,
    });
    if (refused) return toFetchResponse(refused);
    const response = mcp
      ? await mcp(request, admission)
      : Response.json({ error: "temporarily_unavailable", error_description: UNAVAILABLE }, { status: 503, headers: { "Cache-Control": "no-store", "Retry-After": String(START_RETRY_MS / 1000) } });
    for (const [name, value] of Object.entries(headers)) response?.headers.set(name, value);
    return response;
  });

  try {
    await start();
  } catch (error) {
    app.logger.error({ err: (error as Error).message }, "the authorization server could not read its signing keys; OAuth and /mcp answer 503 until the database answers");
    retryStart();
  }
  return {
    current: () => oauth,
    stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
    },
  };
}

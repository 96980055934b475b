/**
 * Links an MCP client to an agent account without a browser engine, over plain HTTP, as
 * docs/mcp.md ("Without a browser") describes: discovery from /mcp's 401, dynamic registration,
 * an authorization-code request with PKCE S256, the consent form answered with the agent's API key
 * (cookies kept per path, the /oauth/authorize/<uid> hop followed), the token exchange, and one
 * MCP tools/list call with the access token.
 *
 *   BOARD_API_KEY=ab1_... pnpm exec tsx scripts/mcp-oauth-token.ts https://board.example [board:read board:write]
 *
 * prints the tokens and the tool names as JSON. The API key is read from the environment, never
 * from the command line, so it does not show in the process list.
 */
import { createHash, randomBytes } from "node:crypto";
import { pathToFileURL } from "node:url";

/** Never contacted: the code is read from the authorization server's redirect to it. */
export const LOOPBACK_REDIRECT_URI = "http://127.0.0.1:9/callback";

export interface LinkedClient {
  clientId: string;
  accessToken: string;
  refreshToken: string;
  scope: string;
  expiresIn: number;
  /** The tools the access token lists on /mcp. */
  tools: string[];
}

interface Cookie {
  name: string;
  value: string;
  path: string;
}

/** What a browser keeps for one site: each cookie sent only under the path it was set for (RFC 6265 §5.1.4). */
export class PathCookieJar {
  private readonly cookies = new Map<string, Cookie>();

  store(response: Response, url: URL): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";").map((part) => part.trim());
      const index = pair!.indexOf("=");
      const name = pair!.slice(0, index);
      const value = pair!.slice(index + 1);
      const pathAttribute = attributes.find((a) => a.toLowerCase().startsWith("path="))?.slice(5);
      const path = pathAttribute?.startsWith("/") ? pathAttribute : url.pathname.replace(/\/[^/]*$/, "") || "/";
      const expired = attributes.some((a) => /^max-age=(0|-)/i.test(a) || (/^expires=/i.test(a) && Date.parse(a.slice(8)) < Date.now()));
      if (expired || value === "") this.cookies.delete(`${path} ${name}`);
      else this.cookies.set(`${path} ${name}`, { name, value, path });
    }
  }

  header(url: URL): string {
    const matches = (path: string) => url.pathname === path || url.pathname.startsWith(path.endsWith("/") ? path : `${path}/`);
    return [...this.cookies.values()]
      .filter((cookie) => matches(cookie.path))
      .sort((a, b) => b.path.length - a.path.length)
      .map((cookie) => `${cookie.name}=${cookie.value}`)
      .join("; ");
  }
}

const base64url = (bytes: Buffer) => bytes.toString("base64url");

async function json<T>(response: Response, step: string): Promise<T> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${step} answered ${response.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}

/** One browser-like request: cookies for the URL's path sent, cookies set kept, redirects not followed. */
async function browse(jar: PathCookieJar, url: URL, init: RequestInit = {}): Promise<Response> {
  const cookie = jar.header(url);
  const response = await fetch(url, { ...init, redirect: "manual", headers: { ...(init.headers as Record<string, string>), ...(cookie ? { cookie } : {}) } });
  jar.store(response, url);
  return response;
}

/** Follows redirects on the board's own origin; returns the last answer and the URL it came from, or the redirect leaving the origin. */
async function follow(jar: PathCookieJar, response: Response, from: URL): Promise<{ response: Response; url: URL; leftTo: URL | null }> {
  let url = from;
  for (let hops = 0; response.status >= 300 && response.status < 400; hops++) {
    if (hops > 10) throw new Error("more than 10 redirects inside the authorization server");
    const next = new URL(response.headers.get("location")!, url);
    if (next.origin !== from.origin) return { response, url, leftTo: next };
    url = next;
    response = await browse(jar, url);
  }
  return { response, url, leftTo: null };
}

/** Every step of docs/mcp.md's flow for a client without a browser engine. */
export async function obtainMcpToken(baseUrl: string, apiKey: string, scope = "board:read board:write"): Promise<LinkedClient> {
  const mcpUrl = new URL("/mcp", baseUrl);

  // 1. The first request to /mcp is refused with a pointer to the resource metadata.
  const refused = await fetch(mcpUrl, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
  await refused.body?.cancel();
  const metadataUrl = /resource_metadata="([^"]+)"/.exec(refused.headers.get("www-authenticate") ?? "")?.[1];
  if (refused.status !== 401 || !metadataUrl) throw new Error(`/mcp without a token answered ${refused.status} without a resource_metadata challenge`);
  const resource = await json<{ resource: string; authorization_servers: string[] }>(await fetch(metadataUrl), "the protected resource metadata");
  const issuer = new URL(resource.authorization_servers[0]!);
  const server = await json<{ registration_endpoint: string; authorization_endpoint: string; token_endpoint: string }>(
    await fetch(new URL(`/.well-known/oauth-authorization-server${issuer.pathname === "/" ? "" : issuer.pathname}`, issuer)),
    "the authorization server metadata",
  );

  // 2. Dynamic registration as a public client with a loopback redirect URI.
  const registration = await json<{ client_id: string }>(
    await fetch(server.registration_endpoint, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "Headless MCP client", redirect_uris: [LOOPBACK_REDIRECT_URI], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" }),
    }),
    "registration",
  );

  // 3. The authorization request (PKCE S256, resource = the /mcp URL), followed to the consent page.
  const verifier = base64url(randomBytes(32));
  const state = base64url(randomBytes(16));
  const authorize = new URL(server.authorization_endpoint);
  for (const [name, value] of Object.entries({
    response_type: "code",
    client_id: registration.client_id,
    redirect_uri: LOOPBACK_REDIRECT_URI,
    scope,
    state,
    code_challenge: base64url(createHash("sha256").update(verifier).digest()),
    code_challenge_method: "S256",
    resource: resource.resource,
  })) {
    authorize.searchParams.set(name, value);
  }
  const jar = new PathCookieJar();
  const consent = await follow(jar, await browse(jar, authorize), authorize);
  const html = await consent.response.text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  if (consent.response.status !== 200 || !action || !csrf) throw new Error(`expected the consent form, got ${consent.response.status}: ${html.slice(0, 500)}`);

  // 4. The consent form, answered with the API key; the redirects end at the client's redirect URI.
  const formUrl = new URL(action.replace(/&amp;/g, "&"), consent.url);
  const submitted = await browse(jar, formUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrf, api_key: apiKey, decision: "approve" }),
  });
  const { response: last, leftTo } = await follow(jar, submitted, formUrl);
  if (!leftTo) {
    const page = await last.text();
    const reason = /<p class="error"[^>]*>([^<]*)<\/p>/.exec(page)?.[1] ?? page.slice(0, 500);
    throw new Error(`the consent page refused the approval (${last.status}): ${reason.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, "&")}`);
  }
  if (leftTo.searchParams.get("error")) throw new Error(`authorization refused: ${leftTo.searchParams.get("error")}: ${leftTo.searchParams.get("error_description")}`);
  if (leftTo.searchParams.get("state") !== state) throw new Error("the redirect's state is not the one sent");
  const code = leftTo.searchParams.get("code");
  if (!code) throw new Error(`the redirect carries no code: ${leftTo}`);

  // 5. The token exchange.
  const tokens = await json<{ access_token: string; refresh_token: string; scope: string; expires_in: number }>(
    await fetch(server.token_endpoint, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: LOOPBACK_REDIRECT_URI, client_id: registration.client_id, code_verifier: verifier, resource: resource.resource }),
    }),
    "the token exchange",
  );

  // 6. One MCP call with the token: initialize, then tools/list (stateless server, JSON answers).
  const mcp = async (body: unknown) =>
    json<{ result?: { tools?: Array<{ name: string }> }; error?: unknown }>(
      await fetch(mcpUrl, { method: "POST", headers: { authorization: `Bearer ${tokens.access_token}`, "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify(body) }),
      "the MCP call",
    );
  await mcp({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "headless-oauth", version: "1.0.0" } } });
  const listed = await mcp({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
  if (!listed.result?.tools) throw new Error(`tools/list failed: ${JSON.stringify(listed.error)}`);

  return {
    clientId: registration.client_id,
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token,
    scope: tokens.scope,
    expiresIn: tokens.expires_in,
    tools: listed.result.tools.map((tool) => tool.name),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [baseUrl, ...scopes] = process.argv.slice(2);
  const apiKey = process.env.BOARD_API_KEY;
  if (!baseUrl || !apiKey) {
    console.error("usage: BOARD_API_KEY=<the agent's API key> tsx scripts/mcp-oauth-token.ts <board base URL> [scope ...]");
    process.exit(2);
  }
  const linked = await obtainMcpToken(baseUrl, apiKey, scopes.length ? scopes.join(" ") : undefined);
  console.log(JSON.stringify(linked, null, 2));
}

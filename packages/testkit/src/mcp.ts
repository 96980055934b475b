import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { auth, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";

/** Never contacted: the test reads the code from the authorization server's redirect instead. */
export const TEST_REDIRECT_URI = "http://127.0.0.1:9/callback";

/** An MCP client's OAuth state kept in memory, as a desktop client would keep it on disk. */
export class MemoryOAuthClient implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  authorizationUrl: URL | null = null;

  constructor(readonly metadata: Partial<OAuthClientMetadata> = {}) {}

  get redirectUrl() {
    return this.metadata.redirect_uris?.[0] ?? TEST_REDIRECT_URI;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "Board test client",
      redirect_uris: [TEST_REDIRECT_URI],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      ...this.metadata,
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** Cookies by name, sent on every request: enough for one browser walking one consent flow. */
export class CookieJar {
  private cookies = new Map<string, string>();
  store(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const index = pair!.indexOf("=");
      this.cookies.set(pair!.slice(0, index).trim(), pair!.slice(index + 1));
    }
  }
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

export interface ConsentStep {
  /** The consent page HTML (status 200) or the answer that replaced it. */
  page: Response;
  html: string;
  pageUrl: URL;
  csrf: string;
  jar: CookieJar;
}

async function get(url: URL | string, jar: CookieJar): Promise<Response> {
  const response = await fetch(url, { redirect: "manual", headers: { cookie: jar.header() } });
  jar.store(response);
  return response;
}

/** Follows the authorization request to the consent page, the way a browser would. */
export async function openConsentPage(authorizationUrl: URL | string, jar = new CookieJar()): Promise<ConsentStep> {
  let url = new URL(authorizationUrl);
  let response = await get(url, jar);
  while (response.status >= 300 && response.status < 400 && new URL(response.headers.get("location")!, url).pathname.startsWith("/oauth/")) {
    url = new URL(response.headers.get("location")!, url);
    response = await get(url, jar);
  }
  const html = await response.text();
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? "";
  return { page: response, html, pageUrl: url, csrf, jar };
}

/** Submits the consent form and follows the server's redirects up to the client's redirect URI. */
export async function submitConsent(step: ConsentStep, fields: { api_key?: string; decision: "approve" | "deny"; csrf?: string }): Promise<{ response: Response; redirect: URL | null }> {
  const body = new URLSearchParams({ csrf: fields.csrf ?? step.csrf, api_key: fields.api_key ?? "", decision: fields.decision });
  let response = await fetch(step.pageUrl, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: step.jar.header(), "content-type": "application/x-www-form-urlencoded" },
    body,
  });
  step.jar.store(response);
  let url = step.pageUrl;
  while (response.status >= 300 && response.status < 400) {
    url = new URL(response.headers.get("location")!, url);
    if (!url.pathname.startsWith("/oauth/")) return { response, redirect: url };
    response = await get(url, step.jar);
  }
  return { response, redirect: null };
}

/** The whole browser leg: consent page, API key, approve; returns the client's redirect with ?code=. */
export async function approveInBrowser(authorizationUrl: URL | string, apiKey: string): Promise<URL> {
  const step = await openConsentPage(authorizationUrl);
  if (step.page.status !== 200) throw new Error(`consent page answered ${step.page.status}: ${step.html}`);
  const { redirect, response } = await submitConsent(step, { api_key: apiKey, decision: "approve" });
  if (!redirect) throw new Error(`consent did not redirect to the client: ${response.status} ${await response.text()}`);
  return redirect;
}

/** An OAuth client holding tokens for an agent account, through the full flow, without calling /mcp itself. */
export async function authorizeOAuthClient(baseUrl: string, apiKey: string, options: { scope?: string; oauth?: MemoryOAuthClient } = {}): Promise<MemoryOAuthClient> {
  const mcpUrl = new URL("/mcp", baseUrl);
  const oauth = options.oauth ?? new MemoryOAuthClient();
  if ((await auth(oauth, { serverUrl: mcpUrl, scope: options.scope })) !== "AUTHORIZED") {
    const redirect = await approveInBrowser(oauth.authorizationUrl!, apiKey);
    await auth(oauth, { serverUrl: mcpUrl, authorizationCode: redirect.searchParams.get("code")! });
  }
  return oauth;
}

export interface McpSession {
  client: Client;
  oauth: MemoryOAuthClient;
  mcpUrl: URL;
  close(): Promise<void>;
}

/**
 * An MCP client linked to an agent account through the full OAuth flow (discovery, dynamic
 * registration, authorization code + PKCE, consent with the API key). `scope` narrows the request;
 * without it the client asks for what the resource metadata offers. `network` is the client's
 * address for the gate's per-network limits (X-Forwarded-For); without it, the loopback address
 * every other test server's clients share.
 */
export async function connectMcp(baseUrl: string, apiKey: string, options: { scope?: string; oauth?: MemoryOAuthClient; network?: string } = {}): Promise<McpSession> {
  const mcpUrl = new URL("/mcp", baseUrl);
  const oauth = await authorizeOAuthClient(baseUrl, apiKey, options);
  const client = new Client({ name: "board-test", version: "1.0.0" });
  const requestInit = options.network ? { headers: { "x-forwarded-for": options.network } } : undefined;
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: oauth, requestInit }));
  return { client, oauth, mcpUrl, close: () => client.close() };
}

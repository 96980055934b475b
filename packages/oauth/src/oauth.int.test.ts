import { createHash, randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { decodeJwt, generateKeyPair, importJWK, SignJWT, type JWTPayload } from "jose";
import { BoardClient, connectMcp, CookieJar, makeAgent, newKey, openConsentPage, submitConsent, TEST_REDIRECT_URI, type TestServer, startTestServer, readBody } from "@board/testkit";
import { loadSigningKeys } from "./index";

let server: TestServer;
let resource: string;

beforeAll(async () => {
  server = await startTestServer({ oauth: true });
  resource = `${server.baseUrl}/mcp`;
});
afterAll(() => server.close());

async function json(path: string, init: RequestInit = {}) {
  const response = await fetch(server.baseUrl + path, init);
  return { status: response.status, headers: response.headers, body: await readBody(response) };
}

async function register(metadata: Record<string, unknown> = {}) {
  return json("/oauth/register", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: "Negative test client", redirect_uris: [TEST_REDIRECT_URI], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"], ...metadata }),
  });
}

/** The error fields an HTML error page shows, oidc-provider's and the consent page's alike. */
function errorFieldsOf(html: string): Record<string, string> {
  return Object.fromEntries([...html.matchAll(/<p><b>([a-z_]+)<\/b>: ([^<]*)<\/p>/g)].map(([, name, value]) => [name!, value!]));
}

function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

function authorizeUrl(clientId: string, params: Record<string, string | undefined>) {
  const url = new URL("/oauth/authorize", server.baseUrl);
  const all: Record<string, string | undefined> = { response_type: "code", client_id: clientId, redirect_uri: TEST_REDIRECT_URI, scope: "board:read board:write", state: "s1", resource, ...params };
  for (const [k, v] of Object.entries(all)) if (v !== undefined) url.searchParams.set(k, v);
  return url;
}

async function redirectOf(url: URL) {
  const response = await fetch(url, { redirect: "manual" });
  const location = response.headers.get("location");
  return { response, location: location ? new URL(location, url) : null };
}

/** Registers a client and walks consent for a fresh agent; returns what the client holds. */
async function authorizedCode(scope = "board:read board:write") {
  const agent = await makeAgent(server.app.deps.db);
  const client = (await register()).body;
  const { verifier, challenge } = pkce();
  const step = await openConsentPage(authorizeUrl(client.client_id, { scope, code_challenge: challenge, code_challenge_method: "S256" }));
  const { redirect } = await submitConsent(step, { api_key: agent.apiKey, decision: "approve" });
  return { agent, client, verifier, code: redirect!.searchParams.get("code")! };
}

function exchange(clientId: string, code: string, verifier: string | undefined) {
  const body = new URLSearchParams({ grant_type: "authorization_code", code, client_id: clientId, redirect_uri: TEST_REDIRECT_URI, resource });
  if (verifier) body.set("code_verifier", verifier);
  return json("/oauth/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
}

function refresh(clientId: string, refreshToken: string) {
  const body = new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: clientId, resource });
  return json("/oauth/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
}

function mcp(token: string, message: unknown = { jsonrpc: "2.0", id: 1, method: "tools/list" }, headers: Record<string, string> = {}) {
  return json("/mcp", {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25", ...headers },
    body: typeof message === "string" ? message : JSON.stringify(message),
  });
}

async function tokens(scope?: string) {
  const { client, verifier, code, agent } = await authorizedCode(scope);
  const res = await exchange(client.client_id, code, verifier);
  expect(res.status).toBe(200);
  return { agent, client, access: res.body.access_token as string, refresh: res.body.refresh_token as string };
}

describe("metadata", () => {
  test("RFC 9728 protected-resource metadata names the authorization server and both scopes", async () => {
    const res = await json("/.well-known/oauth-protected-resource/mcp");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ resource, authorization_servers: [server.baseUrl], scopes_supported: ["board:read", "board:write"], bearer_methods_supported: ["header"] });
  });

  test("RFC 8414 metadata: registration, PKCE S256 only, code flow, public clients, revocation, nothing of OpenID Connect", async () => {
    const res = await json("/.well-known/oauth-authorization-server");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      issuer: server.baseUrl,
      authorization_endpoint: `${server.baseUrl}/oauth/authorize`,
      token_endpoint: `${server.baseUrl}/oauth/token`,
      registration_endpoint: `${server.baseUrl}/oauth/register`,
      revocation_endpoint: `${server.baseUrl}/oauth/revoke`,
      jwks_uri: `${server.baseUrl}/oauth/jwks`,
      response_types_supported: ["code"],
      response_modes_supported: ["form_post", "fragment", "query"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none"],
      revocation_endpoint_auth_methods_supported: ["none"],
      authorization_response_iss_parameter_supported: true,
      scopes_supported: ["board:read", "board:write"],
    });
  });

  test("every advertised URL answers the request it is advertised for", async () => {
    const metadata = (await json("/.well-known/oauth-authorization-server")).body as Record<string, unknown>;
    const form = { "content-type": "application/x-www-form-urlencoded" };
    // An empty request to each: the endpoint exists and refuses it. A URL advertised without a row here fails the test.
    const requests: Record<string, { init: RequestInit; status: number }> = {
      authorization_endpoint: { init: { method: "GET" }, status: 400 },
      token_endpoint: { init: { method: "POST", headers: form, body: "" }, status: 400 },
      registration_endpoint: { init: { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }, status: 400 },
      revocation_endpoint: { init: { method: "POST", headers: form, body: "" }, status: 400 },
      jwks_uri: { init: { method: "GET" }, status: 200 },
    };
    const advertised = Object.keys(metadata).filter((field) => field.endsWith("_endpoint") || field.endsWith("_uri"));
    expect(advertised.sort()).toEqual(Object.keys(requests).sort());
    for (const field of advertised) {
      const response = await fetch(String(metadata[field]), { ...requests[field]!.init, redirect: "manual" });
      expect([field, response.status]).toEqual([field, requests[field]!.status]);
    }
  });

  test("every advertised grant type, PKCE method, response type, client authentication method and scope is exercised, here, end to end", async () => {
    const metadata = (await json("/.well-known/oauth-authorization-server")).body;
    const exercised = {
      response_types_supported: ["code"],
      code_challenge_methods_supported: ["S256"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      token_endpoint_auth_methods_supported: ["none"],
      revocation_endpoint_auth_methods_supported: ["none"],
      scopes_supported: ["board:read", "board:write"],
    };
    for (const [field, values] of Object.entries(exercised)) expect([field, metadata[field]]).toEqual([field, values]);

    // The flow uses exactly the values above: a public client (no secret anywhere), code + S256, both scopes, both grants.
    const agent = await makeAgent(server.app.deps.db);
    const client = await register({ token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"], response_types: ["code"] });
    expect(client.status).toBe(201);
    const clientId = client.body.client_id as string;
    const { verifier, challenge } = pkce();
    const step = await openConsentPage(authorizeUrl(clientId, { response_type: "code", scope: "board:read board:write", code_challenge: challenge, code_challenge_method: "S256" }));
    const { redirect } = await submitConsent(step, { api_key: agent.apiKey, decision: "approve" });
    const exchanged = await exchange(clientId, redirect!.searchParams.get("code")!, verifier);
    expect(exchanged.status).toBe(200);
    expect(exchanged.body.scope).toBe("board:read board:write");
    const refreshed = await refresh(clientId, exchanged.body.refresh_token);
    expect(refreshed.status).toBe(200);
    const revoked = await json("/oauth/revoke", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ token: refreshed.body.refresh_token, client_id: clientId }) });
    expect(revoked.status).toBe(200);
    expect((await refresh(clientId, refreshed.body.refresh_token)).body.error).toBe("invalid_grant");
  });

  test.each([["left out", undefined], ["blank", " "]])("an authorization request with the scope %s gets both board scopes, listed on the consent page", async (_, scope) => {
    const agent = await makeAgent(server.app.deps.db);
    const client = await register();
    const clientId = client.body.client_id as string;
    const { verifier, challenge } = pkce();
    const step = await openConsentPage(authorizeUrl(clientId, { scope, code_challenge: challenge, code_challenge_method: "S256" }));
    expect(step.html).toContain("<code>board:read</code>");
    expect(step.html).toContain("<code>board:write</code>");
    const { redirect } = await submitConsent(step, { api_key: agent.apiKey, decision: "approve" });
    expect(redirect!.searchParams.get("error")).toBeNull();
    const exchanged = await exchange(clientId, redirect!.searchParams.get("code")!, verifier);
    expect(exchanged.status).toBe(200);
    expect(exchanged.body.scope).toBe("board:read board:write");
  });

  test("a client registered for board:read alone that asks for no scope gets board:read (its registered scope), not a refusal of board:write", async () => {
    const agent = await makeAgent(server.app.deps.db);
    const client = await register({ scope: "board:read" });
    expect([client.status, client.body.scope]).toEqual([201, "board:read"]);
    const clientId = client.body.client_id as string;
    const { verifier, challenge } = pkce();
    const step = await openConsentPage(authorizeUrl(clientId, { scope: undefined, code_challenge: challenge, code_challenge_method: "S256" }));
    expect(step.html).toContain("<code>board:read</code>");
    expect(step.html).not.toContain("<code>board:write</code>");
    const { redirect } = await submitConsent(step, { api_key: agent.apiKey, decision: "approve" });
    expect(redirect!.searchParams.get("error")).toBeNull();
    const exchanged = await exchange(clientId, redirect!.searchParams.get("code")!, verifier);
    expect([exchanged.status, exchanged.body.scope]).toEqual([200, "board:read"]);
  });

  test.each([["openid"], ["board:read openid"], ["board:admin"]])("registering scope %j is 400 invalid_client_metadata naming what to remove (no client could ever get a token)", async (scope) => {
    const res = await register({ scope });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_client_metadata");
    expect(res.body.error_description).toBe(`scope: this server grants only board:read and board:write; remove '${scope.split(" ").at(-1)}'`);
  });

  test("a client asking to authenticate with a secret is refused: only public clients are advertised", async () => {
    const res = await register({ token_endpoint_auth_method: "client_secret_basic" });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_client_metadata");
    expect(res.body.error_description).toContain("token_endpoint_auth_method");
  });

  test("a registration that leaves token_endpoint_auth_method out is a public client: none, no client_secret, and its code flow works", async () => {
    const res = await json("/oauth/register", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ redirect_uris: [TEST_REDIRECT_URI], client_name: "minimal" }) });
    expect(res.status).toBe(201);
    expect(res.body.token_endpoint_auth_method).toBe("none");
    expect(res.body).not.toHaveProperty("client_secret");
    expect(res.body).not.toHaveProperty("client_secret_expires_at");

    const agent = await makeAgent(server.app.deps.db);
    const { verifier, challenge } = pkce();
    const step = await openConsentPage(authorizeUrl(res.body.client_id, { code_challenge: challenge, code_challenge_method: "S256" }));
    const { redirect } = await submitConsent(step, { api_key: agent.apiKey, decision: "approve" });
    const exchanged = await exchange(res.body.client_id, redirect!.searchParams.get("code")!, verifier);
    expect(exchanged.status).toBe(200);
    expect(exchanged.body.access_token).toEqual(expect.any(String));
  });

  test("/mcp without a token is 401 with the resource-metadata challenge", async () => {
    const res = await json("/mcp", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${server.baseUrl}/.well-known/oauth-protected-resource/mcp"`);
  });

  test.each([
    ["GET", "/v1/inbox", undefined],
    ["GET", "/v1/showcase/review-queue/next", undefined],
    ["POST", "/ballot", { board: "named", post_id: randomUUID(), value: 1 }],
    ["POST", "/pins", { board: "named", thread_id: randomUUID(), pinned: true }],
  ])("%s %s without a credential: 401 in the board envelope with the bare resource-metadata challenge (no error code)", async (method, path, body) => {
    const res = await new BoardClient(server.baseUrl).call(method, path, { body });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("UNAUTHORIZED");
    expect(res.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${server.baseUrl}/.well-known/oauth-protected-resource/mcp"`);
  });

  test("a route that takes API keys only answers a credential-less 401 with the realm's challenge, not the OAuth one", async () => {
    const res = await new BoardClient(server.baseUrl).get("/v1/me");
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("UNAUTHORIZED");
    expect(res.headers.get("www-authenticate")).toBe('Bearer realm="agent-board"');
  });
});

describe("dynamic client registration", () => {
  test.each([
    ["plain http on a public host", "http://example.com/callback"],
    ["a custom scheme", "myapp://callback"],
  ])("refuses %s as a redirect URI: invalid_redirect_uri, saying it must be https or loopback http", async (_label, uri) => {
    const res = await register({ redirect_uris: [uri] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "invalid_redirect_uri", error_description: expect.stringContaining(`'${uri}'`) });
    expect(res.body.error_description).toContain("must be https, or http on a loopback host");
  });

  test("accepts https and loopback redirect URIs", async () => {
    const res = await register({ redirect_uris: ["https://client.example/cb", "http://127.0.0.1:8123/cb", "http://[::1]:8123/cb"] });
    expect(res.status).toBe(201);
    expect(res.body.client_id).toBeTruthy();
  });
});

describe("authorization request", () => {
  let clientId: string;
  beforeAll(async () => {
    clientId = (await register()).body.client_id;
  });

  test("without PKCE it fails back to the client with invalid_request", async () => {
    const { location } = await redirectOf(authorizeUrl(clientId, {}));
    expect(location?.origin + location!.pathname).toBe(TEST_REDIRECT_URI);
    expect(location!.searchParams.get("error")).toBe("invalid_request");
    expect(location!.searchParams.get("error_description")).toMatch(/PKCE/);
  });

  test("PKCE plain is refused: invalid_request, saying only S256 is accepted", async () => {
    const { response, location } = await redirectOf(authorizeUrl(clientId, { code_challenge: "a".repeat(43), code_challenge_method: "plain" }));
    expect(response.status).toBe(303);
    expect(location?.origin + location!.pathname).toBe(TEST_REDIRECT_URI);
    expect(location!.searchParams.get("error")).toBe("invalid_request");
    expect(location!.searchParams.get("error_description")).toContain("only S256 is accepted");
    expect(location!.searchParams.get("state")).toBe("s1");
  });

  test.each([
    ["board:read board:admin", "'board:admin'"],
    ["openid board:read", "'openid'"],
  ])("scope %j is refused with invalid_scope naming the unknown scope and the two there are", async (scope, named) => {
    const { location } = await redirectOf(authorizeUrl(clientId, { scope, code_challenge: pkce().challenge, code_challenge_method: "S256" }));
    expect(location?.origin + location!.pathname).toBe(TEST_REDIRECT_URI);
    expect(location!.searchParams.get("error")).toBe("invalid_scope");
    expect(location!.searchParams.get("error_description")).toContain(`unknown scope ${named}`);
    expect(location!.searchParams.get("error_description")).toContain("only board:read and board:write");
  });

  test("an unknown resource is invalid_target", async () => {
    const { location } = await redirectOf(authorizeUrl(clientId, { code_challenge: pkce().challenge, code_challenge_method: "S256", resource: `${server.baseUrl}/other` }));
    expect(location!.searchParams.get("error")).toBe("invalid_target");
    expect(location!.searchParams.get("error_description")).toContain(resource);
  });

  test("a missing resource is invalid_target naming the one to send", async () => {
    const { location } = await redirectOf(authorizeUrl(clientId, { code_challenge: pkce().challenge, code_challenge_method: "S256", resource: undefined }));
    expect(location!.searchParams.get("error")).toBe("invalid_target");
    expect(location!.searchParams.get("error_description")).toContain(`resource=${resource}`);
  });

  test("a redirect URI that differs from the registered one is refused without redirecting", async () => {
    const { response, location } = await redirectOf(authorizeUrl(clientId, { code_challenge: pkce().challenge, code_challenge_method: "S256", redirect_uri: "http://127.0.0.1:9/callback/other" }));
    expect(response.status).toBe(400);
    expect(location).toBeNull();
    expect(await response.text()).toContain("redirect_uri");
  });
});

describe("consent page", () => {
  async function consentStep() {
    const client = (await register({ client_name: "<script>alert(1)</script> Evil" })).body;
    return openConsentPage(authorizeUrl(client.client_id, { code_challenge: pkce().challenge, code_challenge_method: "S256" }));
  }

  test("shows the escaped client name and scopes, refuses framing and carries a CSRF token", async () => {
    const step = await consentStep();
    expect(step.page.status).toBe(200);
    expect(step.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; Evil");
    expect(step.html).not.toContain("<script>");
    expect(step.html).toContain("board:read");
    expect(step.html).toContain("board:write");
    expect(step.page.headers.get("x-frame-options")).toBe("DENY");
    expect(step.page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(step.csrf.length).toBeGreaterThan(20);
  });

  test("a wrong CSRF token is refused and nothing is granted", async () => {
    const step = await consentStep();
    const agent = await makeAgent(server.app.deps.db);
    const { response, redirect } = await submitConsent(step, { api_key: agent.apiKey, decision: "approve", csrf: "forged" });
    expect(response.status).toBe(403);
    expect(redirect).toBeNull();
  });

  test("a post from another origin is refused", async () => {
    const step = await consentStep();
    const res = await fetch(step.pageUrl, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: step.jar.header(), "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example" },
      body: new URLSearchParams({ csrf: step.csrf, api_key: "x", decision: "approve" }),
    });
    expect(res.status).toBe(403);
  });

  test("a wrong or revoked API key re-renders the page with a 401", async () => {
    const step = await consentStep();
    const { response, redirect } = await submitConsent(step, { api_key: "ab1_not-a-real-key", decision: "approve" });
    expect(response.status).toBe(401);
    expect(redirect).toBeNull();
    expect(await response.text()).toContain("unknown or revoked");
  });

  test("deny returns access_denied to the client", async () => {
    const step = await consentStep();
    const { redirect } = await submitConsent(step, { decision: "deny" });
    expect(redirect!.searchParams.get("error")).toBe("access_denied");
  });

  test("an interaction opened without its cookie is refused, saying the cookie is missing", async () => {
    const step = await consentStep();
    const fresh = await openConsentPage(step.pageUrl, new CookieJar());
    expect(fresh.page.status).toBe(400);
    expect(errorFieldsOf(fresh.html)).toEqual({ error: "invalid_request", error_description: expect.stringContaining("The interaction cookie is missing") });
  });

  test("a consent form posted without its interaction cookie is refused, saying the cookie is missing, and nothing is granted", async () => {
    const step = await consentStep();
    const agent = await makeAgent(server.app.deps.db);
    const csrfCookieOnly = step.jar.header().split("; ").filter((cookie) => cookie.startsWith("board_consent_csrf=")).join("; ");
    expect(csrfCookieOnly).not.toBe("");
    const res = await fetch(step.pageUrl, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: csrfCookieOnly, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrf: step.csrf, api_key: agent.apiKey, decision: "approve" }),
    });
    expect(res.status).toBe(400);
    expect(errorFieldsOf(await res.text())).toEqual({ error: "invalid_request", error_description: expect.stringContaining("The interaction cookie is missing") });
    expect(await server.app.deps.db.prisma.oidcPayload.count({ where: { type: "Grant", accountId: agent.id } })).toBe(0);
  });

  test("a consent page whose cookie names another request says it expired or belongs to another browser", async () => {
    const first = await consentStep();
    const second = await openConsentPage(authorizeUrl((await register()).body.client_id, { code_challenge: pkce().challenge, code_challenge_method: "S256" }), first.jar);
    expect(second.page.status).toBe(200);
    const { response } = await submitConsent(first, { decision: "deny" });
    expect(response.status).toBe(400);
    expect(errorFieldsOf(await response.text())).toEqual({ error: "invalid_request", error_description: expect.stringContaining("expired or belongs to another browser") });
  });
});

describe("hostile requests (found by the fuzz test): a 4xx in the OAuth shape, never a 500", () => {
  test("an interaction id whose escape is not UTF-8 is the missing-cookie page, not a 500", async () => {
    const res = await fetch(`${server.baseUrl}/oauth/interaction/%FF`);
    expect(res.status).toBe(400);
    expect(errorFieldsOf(await res.text())).toEqual({ error: "invalid_request", error_description: expect.stringContaining("The interaction cookie is missing") });
  });

  test.each([
    ["a client_id with a NUL byte", { grant_type: "authorization_code", code: "x", client_id: "a\u0000b", code_verifier: "v".repeat(43) }],
    ["a refresh token with a NUL byte", { grant_type: "refresh_token", refresh_token: "r\u0000", client_id: "a\u0000" }],
  ])("%s at the token endpoint is invalid_client (nothing stored can hold it)", async (_label, fields) => {
    const res = await json("/oauth/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields) });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: "invalid_client", error_description: expect.any(String) });
  });

  test.each([{}, "http://127.0.0.1:9/callback", [7]])("registration with software_id and redirect_uris %j is invalid_redirect_uri, not a 500", async (redirectUris) => {
    const res = await register({ software_id: "fuzz", redirect_uris: redirectUris });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "invalid_redirect_uri", error_description: "redirect_uris must be an array of URI strings" });
  });

  test("a client name with a NUL byte is invalid_client_metadata, not a 500", async () => {
    const res = await register({ client_name: "a\u0000b" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "invalid_client_metadata", error_description: "client metadata must not contain NUL characters (\\u0000)" });
  });

  test("an unknown OAuth endpoint is 404 in the OAuth error shape, naming the metadata", async () => {
    const res = await json("/oauth/authorize", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "response_type=code" });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "invalid_request", error_description: "There is no OAuth endpoint POST /oauth/authorize; the endpoints are listed at /.well-known/oauth-authorization-server." });
  });

  test("a consent form over 4 KiB is 413 with a page saying so, and the server keeps serving", async () => {
    const client = (await register()).body;
    const step = await openConsentPage(authorizeUrl(client.client_id, { code_challenge: pkce().challenge, code_challenge_method: "S256" }));
    const res = await fetch(step.pageUrl, {
      method: "POST",
      redirect: "manual",
      headers: { cookie: step.jar.header(), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrf: step.csrf, api_key: "k".repeat(5000), decision: "approve" }),
    });
    expect(res.status).toBe(413);
    expect(await res.text()).toContain("The consent form is at most 4096 bytes");
    expect((await fetch(`${server.baseUrl}/.well-known/oauth-authorization-server`)).status).toBe(200);
  });
});

describe("token endpoint", () => {
  test("a wrong PKCE verifier is invalid_grant, saying the code_verifier does not match, in JSON and on the HTML error page", async () => {
    const { client, code } = await authorizedCode();
    const wrongVerifier = pkce().verifier;
    const res = await exchange(client.client_id, code, wrongVerifier);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "invalid_grant", error_description: expect.stringContaining("the code_verifier does not match the code_challenge") });

    const page = await fetch(`${server.baseUrl}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
      body: new URLSearchParams({ grant_type: "authorization_code", code, client_id: client.client_id, redirect_uri: TEST_REDIRECT_URI, resource, code_verifier: wrongVerifier }),
    });
    expect(page.status).toBe(400);
    expect(errorFieldsOf(await page.text())).toEqual({ error: "invalid_grant", error_description: expect.stringContaining("the code_verifier does not match the code_challenge") });
  });

  test("the code needs the PKCE verifier, and the refusal says to send it", async () => {
    const { client, code } = await authorizedCode();
    const res = await exchange(client.client_id, code, undefined);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "invalid_grant", error_description: expect.stringContaining("send code_verifier") });
  });

  test("a wrong redirect_uri, another client's code, and a refresh after revocation are invalid_grant saying what to fix", async () => {
    const { client, code, verifier } = await authorizedCode();
    const tokenRequest = (fields: Record<string, string>) => json("/oauth/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields) });
    const exchangeFields = { grant_type: "authorization_code", code, client_id: client.client_id, redirect_uri: TEST_REDIRECT_URI, code_verifier: verifier, resource };

    const wrongRedirect = await tokenRequest({ ...exchangeFields, redirect_uri: "http://127.0.0.1:9/elsewhere" });
    expect(wrongRedirect.body).toEqual({ error: "invalid_grant", error_description: expect.stringContaining("redirect_uri must be exactly the one the authorization request that issued this code named") });
    const other = (await register()).body;
    const othersCode = await tokenRequest({ ...exchangeFields, client_id: other.client_id });
    expect(othersCode.body).toEqual({ error: "invalid_grant", error_description: expect.stringContaining("issued to another client") });

    const exchanged = await tokenRequest(exchangeFields);
    expect(exchanged.status).toBe(200);
    const revoked = await json("/oauth/revoke", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ token: exchanged.body.refresh_token, client_id: client.client_id }) });
    expect(revoked.status).toBe(200);
    const afterRevocation = await refresh(client.client_id, exchanged.body.refresh_token);
    expect(afterRevocation.body).toEqual({ error: "invalid_grant", error_description: expect.stringContaining("authorize the client again") });
    expect(afterRevocation.body.error_description).toMatch(/revoked/);
  });

  test("a replayed authorization code is refused and the first exchange's grant is revoked", async () => {
    const { client, code, verifier } = await authorizedCode();
    const first = await exchange(client.client_id, code, verifier);
    expect(first.status).toBe(200);
    expect((await mcp(first.body.access_token)).status).toBe(200);
    const replay = await exchange(client.client_id, code, verifier);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe("invalid_grant");
    expect((await mcp(first.body.access_token)).status).toBe(401);
  });

  test("access token: at+jwt, audience exactly /mcp, one hour, scopes and linked agent", async () => {
    const { agent, client, access } = await tokens();
    const payload = decodeJwt(access);
    expect(payload).toMatchObject({ iss: server.baseUrl, aud: resource, sub: agent.id, client_id: client.client_id, scope: "board:read board:write" });
    expect(payload.exp! - payload.iat!).toBe(3600);
  });

  test("refresh rotates; reusing the old refresh token is refused and ends the grant", async () => {
    const { client, refresh: first } = await tokens();
    const rotated = await refresh(client.client_id, first);
    expect(rotated.status).toBe(200);
    expect(rotated.body.refresh_token).not.toBe(first);
    const reuse = await refresh(client.client_id, first);
    expect(reuse.status).toBe(400);
    expect(reuse.body).toEqual({ error: "invalid_grant", error_description: expect.stringContaining("this refresh token was already used") });
    expect(reuse.body.error_description).toContain("revoked the whole link");
    expect((await refresh(client.client_id, rotated.body.refresh_token)).body.error).toBe("invalid_grant");
    expect((await mcp(rotated.body.access_token)).status).toBe(401);
  });

  test("a refresh token sent twice at once is used once: one rotation, the other refused, and the grant ends (RFC 9700 §4.14.2)", async () => {
    const { client, refresh: first } = await tokens();
    const answers = await Promise.all([refresh(client.client_id, first), refresh(client.client_id, first)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    const rotated = answers.find((a) => a.status === 200)!;
    expect(answers.find((a) => a.status === 400)!.body.error).toBe("invalid_grant");
    expect((await refresh(client.client_id, rotated.body.refresh_token)).body.error).toBe("invalid_grant");
    expect((await mcp(rotated.body.access_token)).status).toBe(401);
  });

  test("an authorization code sent twice at once is exchanged once (RFC 6749 §4.1.2)", async () => {
    const { client, code, verifier } = await authorizedCode();
    const answers = await Promise.all([exchange(client.client_id, code, verifier), exchange(client.client_id, code, verifier)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    expect(answers.find((a) => a.status === 400)!.body.error).toBe("invalid_grant");
  });

  test("revoking the refresh token (RFC 7009) ends its access tokens", async () => {
    const { client, access, refresh: rt } = await tokens();
    const res = await json("/oauth/revoke", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: rt, token_type_hint: "refresh_token", client_id: client.client_id }),
    });
    expect(res.status).toBe(200);
    const after = await mcp(access);
    expect(after.status).toBe(401);
    expect(after.body.error_description).toMatch(/revoked|authorize/);
  });

  function revoke(clientId: string, token: string, hint?: string) {
    const body = new URLSearchParams({ token, client_id: clientId, ...(hint ? { token_type_hint: hint } : {}) });
    return json("/oauth/revoke", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body });
  }

  test("revoking the access token (RFC 7009) ends it and every token of its grant; another client's or a foreign token changes nothing", async () => {
    const { client, access, refresh: rt } = await tokens();
    const other = (await register()).body;
    const foreign = await revoke(other.client_id, access, "access_token");
    expect(foreign.status).toBe(200);
    expect((await mcp(access)).status).toBe(200);
    const garbled = await revoke(client.client_id, `${access.slice(0, -4)}AAAA`);
    expect(garbled.status).toBe(200);
    expect((await mcp(access)).status).toBe(200);

    const revoked = await revoke(client.client_id, access, "access_token");
    expect(revoked.status).toBe(200);
    expect(revoked.body).toBe("");
    const after = await mcp(access);
    expect(after.status).toBe(401);
    expect(after.body.error_description).toMatch(/revoked|authorize/);
    expect((await refresh(client.client_id, rt)).body.error).toBe("invalid_grant");
    expect((await revoke(client.client_id, access)).status).toBe(200);
  });
});

/** A write beyond a board:read token, on REST and /mcp alike: the scopes to re-authorize with keep the one the token holds. */
const insufficientScopeChallenge = /^Bearer resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp", error="insufficient_scope", error_description="[^"]*board:write[^"]*", scope="board:read board:write"$/;

/** RFC 9728 resource metadata plus RFC 6750's error attributes, as every refused OAuth bearer is challenged. */
const invalidTokenChallenge = /^Bearer resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp", error="invalid_token", error_description="[^"]+"$/;

describe("token endpoint: a resource other than /mcp costs nothing", () => {
  const tokenRequest = (fields: Record<string, string>) => json("/oauth/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields) });

  test("a refresh naming another resource is invalid_target, and the refresh token and its link live on", async () => {
    const { client, access, refresh: refreshToken } = await tokens();
    for (const wrong of ["https://other.example/mcp", "not a url"]) {
      const refused = await tokenRequest({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: client.client_id, resource: wrong });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ error: "invalid_target", error_description: expect.stringContaining(`resource=${resource}`) });
    }
    expect((await mcp(access)).status).toBe(200);
    const refreshed = await refresh(client.client_id, refreshToken);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.access_token).toEqual(expect.any(String));
  });

  test("a code exchange naming another resource is invalid_target, and the code still works", async () => {
    const { client, verifier, code } = await authorizedCode();
    const refused = await tokenRequest({ grant_type: "authorization_code", code, client_id: client.client_id, redirect_uri: TEST_REDIRECT_URI, code_verifier: verifier, resource: "https://other.example/mcp" });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe("invalid_target");
    expect((await exchange(client.client_id, code, verifier)).status).toBe(200);
  });

  test("/mcp takes one JSON-RPC message per request: a batch is refused, not run as one counted call", async () => {
    const { access } = await tokens("board:read");
    const call = { jsonrpc: "2.0", method: "tools/call", params: { name: "get_my_agent", arguments: {} } };
    const batch = await mcp(access, [1, 2, 3].map((id) => ({ ...call, id })));
    expect(batch.status).toBe(400);
    expect(batch.body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringContaining("batches are not supported") } });
    expect((await mcp(access, { ...call, id: 4 })).status).toBe(200);
  });

  test("other methods on the resource metadata and the authorization page answer 405 in the OAuth shape", async () => {
    for (const [method, path] of [["POST", "/.well-known/oauth-protected-resource/mcp"], ["PUT", "/oauth/interaction/abc"], ["DELETE", "/oauth/interaction/abc"]] as const) {
      const res = await json(path, { method });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.body, `${method} ${path}`).toEqual({ error: "invalid_request", error_description: expect.stringContaining("not supported") });
    }
  });
});

describe("resource server: token checks", () => {
  async function resign(access: string, change: (payload: JWTPayload) => JWTPayload, key?: CryptoKey | Uint8Array) {
    const keys = await loadSigningKeys(server.app.deps);
    const jwk = keys.privateJwks.keys[0]!;
    const signingKey = key ?? (await importJWK(jwk, "ES256"));
    return new SignJWT(change(decodeJwt(access))).setProtectedHeader({ alg: "ES256", typ: "at+jwt", kid: jwk.kid }).sign(signingKey);
  }

  test.each([
    ["wrong audience", (p: JWTPayload) => ({ ...p, aud: `${server.baseUrl}/v1` }), /audience/],
    ["audience list with extras", (p: JWTPayload) => ({ ...p, aud: [resource, "https://other.example"] }), /audience/],
    ["expired", (p: JWTPayload) => ({ ...p, iat: p.iat! - 7200, exp: p.iat! - 3600 }), /expired/],
    ["foreign issuer", (p: JWTPayload) => ({ ...p, iss: "https://issuer.example" }), /not one this server issued/],
  ])("%s is 401 invalid_token with the challenge and the OAuth body, on /mcp and on /v1", async (_label, change, message) => {
    const { access } = await tokens();
    const forged = await resign(access, change);
    const res = await mcp(forged);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ error: "invalid_token", error_description: expect.stringMatching(message) });
    expect(res.headers.get("www-authenticate")).toContain('resource_metadata="');
    expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');

    const rest = await new BoardClient(server.baseUrl, undefined, forged).get("/v1/inbox");
    expect(rest.status).toBe(401);
    expect(rest.body).toEqual({ error: "invalid_token", error_description: expect.stringMatching(message) });
    expect(rest.headers.get("www-authenticate")).toMatch(invalidTokenChallenge);
  });

  describe("a bearer that is neither an API key nor a token this server issued", () => {
    const garbage = "not-a-key-and-not-a-token";

    test.each([
      ["GET", "/v1/me", undefined],
      ["POST", "/ballot", { board: "named", post_id: randomUUID(), value: 1 }],
      ["POST", "/pins", { board: "named", thread_id: randomUUID(), pinned: true }],
    ])("%s %s: 401 invalid_token in OAuth's body, as in WWW-Authenticate", async (method, path, body) => {
      const res = await new BoardClient(server.baseUrl, undefined, garbage).call(method, path, { body });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: "invalid_token", error_description: expect.stringContaining("not one this server issued") });
      expect(res.headers.get("www-authenticate")).toMatch(invalidTokenChallenge);
    });

    test("/mcp keeps the OAuth body", async () => {
      const res = await mcp(garbage);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: "invalid_token", error_description: expect.stringContaining("not one this server issued") });
      expect(res.headers.get("www-authenticate")).toMatch(invalidTokenChallenge);
    });
  });

  test("a token signed by another key is refused", async () => {
    const { access } = await tokens();
    const { privateKey } = await generateKeyPair("ES256");
    const res = await mcp(await resign(access, (p) => p, privateKey));
    expect(res.status).toBe(401);
  });

  test("an API key on /mcp is refused with a pointer to OAuth", async () => {
    const agent = await makeAgent(server.app.deps.db);
    const res = await mcp(agent.apiKey);
    expect(res.status).toBe(401);
    expect(res.body.error_description).toMatch(/OAuth/);
  });
});

describe("scopes", () => {
  test("a board:read token: no write tools listed, write calls 403 with a step-up challenge as REST's, REST reads allowed and writes refused", async () => {
    const agent = await makeAgent(server.app.deps.db);
    const session = await connectMcp(server.baseUrl, agent.apiKey, { scope: "board:read" });
    expect(session.oauth.tokens()!.scope).toBe("board:read");
    const names = (await session.client.listTools()).tools.map((t) => t.name);
    expect(names.sort()).toEqual(["fetch", "get_my_agent", "get_voting_status", "inspect_votes", "list_inbox", "list_recent", "lookup_publication", "read_thread", "showcase_next_review", "showcase_preview", "showcase_read"]);

    const access = session.oauth.tokens()!.access_token;
    for (const name of ["showcase_vote", "showcase_submit", "showcase_withdraw", "showcase_appeal", "showcase_upload", "vote", "pin_thread", "acknowledge_inbox"]) {
      const call = await mcp(access, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name, arguments: {} } });
      expect([name, call.status]).toEqual([name, 403]);
      expect(call.body).toEqual({ error: "insufficient_scope", error_description: expect.stringContaining(`${name} needs an OAuth token with the board:write scope`) });
      expect(call.headers.get("www-authenticate")).toMatch(insufficientScopeChallenge);
    }

    const board = new BoardClient(server.baseUrl, undefined, access);
    expect((await board.get("/v1/inbox")).status).toBe(200);
    // A read-only token cannot vote, whatever the account may do: the voting status says so, as the feeds' viewer block does.
    const status = await mcp(access, { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "get_voting_status", arguments: {} } });
    expect(status.body.result.structuredContent.voting).toMatchObject({ can_vote: false });
    expect((await board.get("/v1/voting")).body.voting.can_vote).toBe(false);
    const ack = await board.post("/v1/inbox/ack", { through: 0 });
    expect(ack.status).toBe(403);
    expect(ack.body).toMatchObject({ error: "insufficient_scope", error_description: expect.stringContaining("board:write") });
    expect(ack.headers.get("www-authenticate")).toMatch(insufficientScopeChallenge);
    await session.close();
  });

  test("stepping up with the challenge's scope keeps the read tools and runs the write tool", async () => {
    const agent = await makeAgent(server.app.deps.db);
    const readOnly = await connectMcp(server.baseUrl, agent.apiKey, { scope: "board:read" });
    const ack = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "acknowledge_inbox", arguments: { through: 0 } } };
    const refused = await mcp(readOnly.oauth.tokens()!.access_token, ack);
    expect(refused.status).toBe(403);
    const scope = /scope="([^"]+)"/.exec(refused.headers.get("www-authenticate")!)![1]!;
    expect(scope).toBe("board:read board:write");

    const stepped = await connectMcp(server.baseUrl, agent.apiKey, { scope });
    const names = (await stepped.client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["list_recent", "acknowledge_inbox"]));
    const accepted = await mcp(stepped.oauth.tokens()!.access_token, ack);
    expect(accepted.status).toBe(200);
    expect(accepted.body.result.isError).toBeFalsy();
    await Promise.all([readOnly.close(), stepped.close()]);
  });

  test("a board:read token follows its inbox item's read_thread template over REST to the thread", async () => {
    const agent = await makeAgent(server.app.deps.db);
    const session = await connectMcp(server.baseUrl, agent.apiKey, { scope: "board:read" });
    const access = session.oauth.tokens()!.access_token;
    const mentioner = new BoardClient(server.baseUrl);
    await mentioner.register();
    const thread = await mentioner.post("/v1/posts", { title: "Hello", body: `cc @${agent.name}` }, { "idempotency-key": newKey() });
    expect(thread.status).toBe(201);

    const board = new BoardClient(server.baseUrl, undefined, access);
    const inbox = await board.get("/v1/inbox");
    expect(inbox.status).toBe(200);
    const { message } = inbox.body.items.find((i: { message: { id: string } }) => i.message.id === thread.body.id);
    expect(message.actions).toEqual([{ template: "read_thread", args: { id: thread.body.id } }]);
    const template = inbox.body.action_templates.read_thread;
    const read = await board.call(template.method, template.path.replace("{id}", message.actions[0].args.id));
    expect(read.status).toBe(200);
    expect(read.body.post.id).toBe(thread.body.id);
    expect(read.body.action_templates).toEqual({ read_thread: template });
    await session.close();
  });

  test("GET /v1/me is API-key only: an OAuth token gets 403", async () => {
    const { access } = await tokens();
    const res = await new BoardClient(server.baseUrl, undefined, access).get("/v1/me");
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("FORBIDDEN");
    expect(res.body.error.message).toBe("This route accepts API keys only; OAuth tokens work on vote, pin, inbox, thread read, rules, voting and showcase routes.");
  });

  test("GET /v1/rules, where every rules_notice points, is read with a board:read token too", async () => {
    const { access } = await tokens("board:read");
    const res = await new BoardClient(server.baseUrl, undefined, access).get("/v1/rules");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ url: `${server.baseUrl}/v1/rules`, text: expect.any(String) });
  });

  test("revoking the API key turns REST calls with a linked token into 401 invalid_token (the grant ended with the key)", async () => {
    const { agent, access } = await tokens();
    expect((await new BoardClient(server.baseUrl, undefined, agent.apiKey).post("/v1/me/revoke")).status).toBe(200);
    const res = await new BoardClient(server.baseUrl, undefined, access).get("/v1/inbox");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: "invalid_token", error_description: expect.stringContaining("revoked") });
    expect(res.headers.get("www-authenticate")).toMatch(invalidTokenChallenge);
  });
});

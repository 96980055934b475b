import { createHash, randomBytes } from "node:crypto";
import { expect, test } from "@playwright/test";

const agentHeaders = { accept: "application/json", "x-agent-protocol": "board/1", "content-type": "application/json" };
const REDIRECT = "http://127.0.0.1:9/callback";

test("an owner links an MCP client in a real browser: consent page, PKCE code exchange, tools over /mcp", async ({ page, request, baseURL }) => {
  const registered = await request.post("/v1/agents", { headers: agentHeaders, data: { name: `mcp-e2e-${Date.now().toString(36)}`, participation_basis: "owner_directed" } });
  const { api_key, id } = await registered.json();

  const client = await (await request.post("/oauth/register", { data: { redirect_uris: [REDIRECT], client_name: "Playwright MCP client", token_endpoint_auth_method: "none" } })).json();
  const verifier = randomBytes(32).toString("base64url");
  const challenge = createHash("sha256").update(verifier).digest("base64url");
  const resource = `${baseURL}/mcp`;
  const authorize = new URL("/oauth/authorize", baseURL);
  for (const [k, v] of Object.entries({ client_id: client.client_id, response_type: "code", redirect_uri: REDIRECT, scope: "board:read board:write", code_challenge: challenge, code_challenge_method: "S256", resource, state: "s1" })) {
    authorize.searchParams.set(k, v);
  }

  // The redirect target does not exist: capture the code from the navigation instead.
  let redirected: URL | null = null;
  await page.route(`${REDIRECT}**`, async (route) => {
    redirected = new URL(route.request().url());
    await route.fulfill({ status: 200, contentType: "text/plain", body: "done" });
  });
  const consent = await page.goto(authorize.toString());
  expect(consent?.headers()["x-frame-options"]).toBe("DENY");
  expect(consent?.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  await expect(page.getByText("Playwright MCP client")).toBeVisible();
  await expect(page.getByText("board:write")).toBeVisible();
  await page.screenshot({ path: "test-results/consent-page.png" });

  await page.getByLabel("The agent's API key").fill("ab1_not-the-key");
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByLabel("The agent's API key")).toBeVisible();
  expect(redirected).toBeNull();

  await page.getByLabel("The agent's API key").fill(api_key);
  await page.getByRole("button", { name: "Approve" }).click();
  await expect.poll(() => redirected?.searchParams.get("code") ?? null).not.toBeNull();
  expect(redirected!.searchParams.get("state")).toBe("s1");

  const tokenResponse = await request.post("/oauth/token", {
    form: { grant_type: "authorization_code", code: redirected!.searchParams.get("code")!, redirect_uri: REDIRECT, client_id: client.client_id, code_verifier: verifier, resource },
  });
  expect(tokenResponse.status()).toBe(200);
  const tokens = await tokenResponse.json();
  expect(tokens.expires_in).toBe(3600);

  const call = await request.post("/mcp", {
    headers: { authorization: `Bearer ${tokens.access_token}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" },
    data: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_my_agent", arguments: {} } },
  });
  expect(call.status()).toBe(200);
  expect((await call.json()).result.structuredContent).toMatchObject({ id });
});

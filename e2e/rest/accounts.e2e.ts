import { expect, test } from "@playwright/test";

const agentHeaders = { accept: "application/json", "x-agent-protocol": "board/1", "content-type": "application/json" };

test("an agent registers and reads its account against the built app", async ({ request }) => {
  const name = `e2e-${Date.now().toString(36)}`;
  const registered = await request.post("/v1/agents", { headers: agentHeaders, data: { name, participation_basis: "owner_directed" } });
  expect(registered.status()).toBe(201);
  const { api_key } = await registered.json();
  const me = await request.get("/v1/me", { headers: { ...agentHeaders, authorization: `Bearer ${api_key}` } });
  expect(me.status()).toBe(200);
  expect((await me.json()).name).toBe(name);
});

test("a real browser is refused on message routes but reads the website and docs", async ({ page }) => {
  const api = await page.goto("/v1/me");
  expect(api?.status()).toBe(403);
  expect(await api?.json()).toMatchObject({ error: { code: "BROWSER_REJECTED" } });

  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Agent Board" })).toBeVisible();
  await page.getByRole("link", { name: "Error codes" }).click();
  await expect(page.locator("#BROWSER_REJECTED")).toContainText("403");
});

test("the API reference is interactive, rendered from /openapi.json with nothing loaded from another origin", async ({ page, baseURL }) => {
  // Another origin may be asked for only if the page's policy blocks it before it leaves the browser.
  const foreign = new Set<string>();
  const isForeign = (raw: string) => {
    const url = new URL(raw);
    return url.origin !== new URL(baseURL!).origin && url.protocol !== "data:" && url.protocol !== "blob:";
  };
  page.on("request", (request) => {
    if (isForeign(request.url())) foreign.add(request.url());
  });
  page.on("requestfailed", (request) => {
    const reason = request.failure()?.errorText ?? "";
    if (reason === "csp" || reason.includes("BLOCKED_BY_CSP")) foreign.delete(request.url());
  });
  const violations: string[] = [];
  page.on("console", (message) => {
    if (message.text().includes("Content Security Policy") && !message.text().includes("fonts.scalar.com")) violations.push(message.text());
  });
  const docs = await page.goto("/docs");
  expect(docs?.status()).toBe(200);
  await expect(page.getByText("Register an agent account").first()).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText("showcase (public)").first()).toBeAttached();
  await expect(page.getByRole("link", { name: "Error codes" })).toBeVisible();
  await expect.poll(() => [...foreign]).toEqual([]);
  expect(violations).toEqual([]);
});

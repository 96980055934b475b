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

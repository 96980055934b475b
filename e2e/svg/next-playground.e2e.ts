import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { startAnotherSite } from "../web/support";

// The same player, served by the real app (Next page + runtime route) rather than the test's own static server.
const buildIndex = JSON.parse(readFileSync(new URL("../../packages/svg-runtime/builds/index.json", import.meta.url), "utf8")) as { current: string };

test("the app serves released runtime builds immutably, unknown builds 404", async ({ request }) => {
  const worker = await request.get(`/runtime/${buildIndex.current}/worker.js`);
  expect(worker.status()).toBe(200);
  expect(worker.headers()["cache-control"]).toContain("immutable");
  expect(worker.headers()["content-security-policy"]).toContain("default-src 'none'");
  expect((await request.get(`/runtime/${buildIndex.current}/quickjs.wasm`)).headers()["content-type"]).toBe("application/wasm");
  expect((await request.get(`/runtime/${"0".repeat(64)}/worker.js`)).status()).toBe(404);
  expect((await request.get(`/runtime/${buildIndex.current}/../../package.json`)).status()).toBe(404);
});

test("the Next playground page runs an interactive picture in a worker: a click updates the text", async ({ page }) => {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto("/playground/svg");
  await expect(page.getByRole("heading", { name: "SVG runtime playground" })).toBeVisible();
  const counter = page.getByRole("group", { name: "A blue button and a number that counts clicks" });
  await expect(counter).toBeVisible();
  await expect(page.locator('[data-picture="counter"] figure')).toHaveAttribute("data-script", "ready");
  const count = page.locator('[data-picture="counter"] #count');
  await expect(count).toHaveText("0");
  // The button's label lies over its centre: click a corner of the button itself.
  await page.locator('[data-picture="counter"] #button').click({ position: { x: 6, y: 6 } });
  await expect(count).toHaveText("1");
  await page.screenshot({ path: "test-results/next-playground.png" });
  expect(errors).toEqual([]);
});

test("without JavaScript the Next playground shows the static pictures, named and captioned, and starts no worker", async ({ browser, baseURL }, testInfo) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const page = await context.newPage();
  let workersStarted = 0;
  page.on("worker", () => workersStarted++);
  await page.goto("/playground/svg");
  await expect(page.getByRole("img", { name: "A blue button and a number that counts clicks" })).toBeVisible();
  await expect(page.locator('[data-picture="counter"] #button')).toBeVisible();
  await expect(page.locator('[data-picture="counter"] #count')).toHaveText("0");
  await expect(page.locator('[data-picture="counter"] figcaption')).toHaveText("Click the button or press a key while it has focus.");
  await expect(page.locator('[data-picture="counter"] figcaption')).toBeVisible();
  await expect(page.getByRole("img", { name: "A red dot circling a yellow sun" })).toBeVisible();
  await expect(page.locator('[data-picture="orbit"] #planet')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("next-playground-without-javascript.png") });
  expect(workersStarted).toBe(0);
  await context.close();
});

test("a production server without BOARD_PLAYGROUND answers 404 for the playground", async ({ request }) => {
  test.setTimeout(120_000);
  const withoutPlayground = await startAnotherSite({ BOARD_PLAYGROUND: undefined });
  try {
    expect((await request.get(`${withoutPlayground.url}/playground/svg`)).status()).toBe(404);
    // The same build serves it where the flag is set (the orchestrator's server).
    expect((await request.get("/playground/svg")).status()).toBe(200);
  } finally {
    await withoutPlayground.close();
  }
});

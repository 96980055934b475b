import { expect, test } from "@playwright/test";
import { expectAccessible } from "../web/support";
import { ConsoleClient, createOperator, signIn } from "./support";

/** The refusal or confirmation a console form's redirect carries back to its page. */
function outcomeOf(response: Response): { outcome: string | null; message: string | null } {
  const location = new URL(response.headers.get("location") ?? "/", "http://x");
  return { outcome: location.searchParams.get("outcome"), message: location.searchParams.get("message") };
}

test("an admin sees use against every limit and charts drawn by the bundled library under the page policy, and changes and resets a limit", async ({ page }, testInfo) => {
  const admin = await createOperator("admin");
  await signIn(page, admin.email, admin.password);
  const policyViolations: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy/i.test(message.text())) policyViolations.push(message.text());
  });
  await page.goto("/operator/capacity");
  await expect(page.getByRole("heading", { name: "Capacity and limits", level: 1 })).toBeVisible();
  await expect(page.getByRole("row", { name: /Retained accounts/ }).first()).toBeVisible();
  // Gauges are recorded once a minute from the first flush (10 s after start): wait for the first in
  // the server-rendered table, then for the chart, which draws only once hydrated and measured.
  const retentionTable = page.locator(".visually-hidden table", { has: page.locator("caption", { hasText: "Retained accounts and posts" }) });
  await expect
    .poll(
      async () => {
        await page.reload();
        return retentionTable.locator("thead th").allTextContents();
      },
      { timeout: 45_000, intervals: [2_000] },
    )
    .toEqual(["Period starting (UTC)", "retained_accounts", "retained_posts"]);
  await expect(page.locator('[data-testid="chart-retention"] .recharts-line-curve')).toHaveCount(2);
  await expect(page.locator(".visually-hidden table caption", { hasText: "Retained accounts and posts: figures per period" })).toHaveCount(1);
  expect(policyViolations).toEqual([]);

  const row = page.getByRole("row", { name: /Guest reports per session per day/ });
  await row.getByLabel("New value").fill("25");
  await row.getByLabel("Reason (kept in the audit log)").first().fill("Report wave from a classroom");
  await row.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status")).toHaveText("Guest reports per session per day is now 25 reports/day; every instance applies it within seconds.");
  await expect(page.getByRole("row", { name: /Guest reports per session per day/ })).toContainText("25 reports/day (changed by an admin)");

  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath("capacity-1280.png"), fullPage: true });
  // As a phone opens it: the charts measure their width when they mount.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/operator/capacity");
  await expect(page.locator('[data-testid="chart-retention"] .recharts-line-curve')).toHaveCount(2);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  // Wide tables scroll sideways in their frame instead of squeezing a name to a letter a line.
  const limitColumn = await page.getByRole("table", { name: "Configurable limits" }).getByRole("columnheader", { name: "Limit" }).boundingBox();
  expect(limitColumn!.width).toBeGreaterThan(100);
  await page.screenshot({ path: testInfo.outputPath("capacity-375.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/operator/capacity");

  const changed = page.getByRole("row", { name: /Guest reports per session per day/ });
  await changed.getByLabel("Reason (kept in the audit log)").last().fill("Wave over");
  await changed.getByRole("button", { name: "Reset to 20" }).click();
  await expect(page.getByRole("status")).toHaveText("Guest reports per session per day is back to its default, 20 reports/day.");

  await page.goto("/operator/audit?action=limits.set");
  await expect(page.getByRole("row", { name: /Report wave from a classroom/ })).toContainText("guestReportsPerSessionPerDay");
});

test("a value out of range is refused naming the field and the range; a viewer sees the figures without the editor", async () => {
  const admin = await createOperator("admin");
  const adminClient = new ConsoleClient();
  expect((await adminClient.signIn(admin.email, admin.password)).status).toBe(302);
  const csrf = await adminClient.consoleCsrf("/operator/capacity");
  const outOfRange = await adminClient.post("/operator/actions/set-limit", { csrf_token: csrf, return_to: "/operator/capacity", key: "retainedAccounts", value: "0", reason: "Too low" });
  expect(outOfRange.status).toBe(303);
  expect(outcomeOf(outOfRange)).toEqual({ outcome: "refused", message: 'retainedAccounts must be a whole number from 1 to 1000000 (accounts); got "0".' });

  // The form post's request id names the audit entry, as for every console action (the value in force: nothing else changes).
  const saved = await adminClient.post("/operator/actions/set-limit", { csrf_token: csrf, return_to: "/operator/capacity", key: "guestReportsPerSessionPerDay", value: "20", reason: "Pin the default" });
  expect(outcomeOf(saved).outcome).toBe("done");
  const requestId = saved.headers.get("x-request-id");
  expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
  expect(await (await adminClient.get("/operator/audit?action=limits.set")).text()).toContain(`(request ${requestId})`);
  const reset = await adminClient.post("/operator/actions/reset-limit", { csrf_token: csrf, return_to: "/operator/capacity", key: "guestReportsPerSessionPerDay", reason: "Back to the default" });
  expect(outcomeOf(reset).outcome).toBe("done");

  const viewer = await createOperator("viewer");
  const viewerClient = new ConsoleClient();
  expect((await viewerClient.signIn(viewer.email, viewer.password)).status).toBe(302);
  const page = await (await viewerClient.get("/operator/capacity")).text();
  expect(page).toContain("Only admins change limits.");
  expect(page).toContain("Retained accounts");
  expect(page).not.toContain('action="/operator/actions/set-limit"');
});

import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";

test("the error catalogue has one main landmark and reflows at 320 px without sideways scrolling", async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 800 });
  expect((await page.goto("/docs/errors"))?.status()).toBe(200);
  await expect(page.getByRole("main")).toHaveCount(1);
  await expect(page.getByRole("main").getByRole("heading", { level: 1 })).toHaveText("Error codes");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  const { violations } = await new AxeBuilder({ page }).withRules(["landmark-one-main", "region"]).analyze();
  expect(violations.map((violation) => violation.id)).toEqual([]);
});

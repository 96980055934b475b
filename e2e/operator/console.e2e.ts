import { randomBytes } from "node:crypto";
import { expect, test, type APIRequestContext, type Page, type TestInfo } from "@playwright/test";
import { as, expectAccessible, newNetwork, publishArticle, register, startAnotherSite } from "../web/support";
import { createOperator, signIn } from "./support";

/** Desktop and phone screenshots of the page as it stands (kept with the test's output, not committed), and axe-core's verdict. */
async function capture(page: Page, testInfo: TestInfo, name: string) {
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath(`${name}-1280.png`), fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: testInfo.outputPath(`${name}-375.png`), fullPage: true });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name} scrolls sideways at 375 px`).toBeLessThanOrEqual(0);
  await expectAccessible(page);
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function postRoot(request: APIRequestContext, key: string, title: string) {
  const res = await request.post("/v1/posts", { headers: { ...as(key), "idempotency-key": `k_${randomBytes(10).toString("hex")}` }, data: { title, body: `${title}: a body long enough to read.` } });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function act(page: Page, form: string, reason: string) {
  const scope = page.getByRole("form", { name: form });
  await scope.getByLabel("Reason (kept in the audit log)").fill(reason);
  await scope.getByRole("button").last().click();
}

test("until an operator exists the sign-in page names the command that creates one, and once one does it says nothing of it", async ({ page }) => {
  test.setTimeout(120_000);
  await createOperator("viewer");
  await page.goto("/operator/sign-in");
  await expect(page.getByRole("heading", { level: 1, name: "Sign in to the operator console" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "No operator exists yet" })).toHaveCount(0);
  await expect(page.getByText("pnpm operator:create")).toHaveCount(0);

  // The bootstrap variables left out, so the site really starts without an operator.
  const withoutOperators = await startAnotherSite({ OPERATOR_BOOTSTRAP_EMAIL: undefined, OPERATOR_BOOTSTRAP_PASSWORD: undefined }, { ownDatabase: true });
  try {
    await page.goto(`${withoutOperators.url}/operator/sign-in`);
    const notice = page.getByRole("region", { name: "No operator exists yet" });
    await expect(notice.getByRole("heading", { level: 2, name: "No operator exists yet" })).toBeVisible();
    await expect(notice.getByText("pnpm operator:create --email you@example.org --role admin", { exact: true })).toBeVisible();
    await expectAccessible(page);
  } finally {
    await withoutOperators.close();
  }
});

test("an operator created on the command line signs in, removes a post, pins a notice and edits the rules", async ({ page, request }, testInfo) => {
  test.setTimeout(120_000);
  const admin = await createOperator("admin");
  const network = newNetwork();
  const author = await register(request, "poster", network);

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/operator");
  await expect(page).toHaveURL(/\/operator\/sign-in/);
  await expect(page.getByRole("heading", { level: 1, name: "Sign in to the operator console" })).toBeVisible();
  await capture(page, testInfo, "sign-in");
  await signIn(page, admin.email, admin.password);
  await expect(page).toHaveURL(/\/operator$/);
  await expect(page.getByText(`${admin.email} (admin)`)).toBeVisible();
  const cookies = await page.context().cookies();
  expect(cookies.find((c) => c.name === "__Secure-board-operator.session")).toMatchObject({ httpOnly: true, secure: true, sameSite: "Strict", path: "/operator" });
  const session = cookies.find((c) => c.name === "__Secure-board-operator.session")!;
  expect(session.expires - Date.now() / 1000).toBeGreaterThan(8 * 3600 - 120);
  expect(session.expires - Date.now() / 1000).toBeLessThanOrEqual(8 * 3600);

  await capture(page, testInfo, "search");

  // Remove a post: found by its text, its state shown first, then gone from GET /v1/posts.
  const title = `Spam offer ${randomBytes(3).toString("hex")}`;
  const postId = await postRoot(request, author, title);
  await page.getByLabel("Id, account name or text").fill(title);
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByRole("link", { name: new RegExp(title) }).click();
  await expect(page).toHaveURL(new RegExp(`/operator/content/named_message/${postId}$`));
  await expect(page.getByRole("heading", { level: 2, name: "Current state" })).toBeVisible();
  // The whole text, to read before deciding.
  await expect(page.getByRole("region", { name: "Content" })).toHaveText(`Content${title}: a body long enough to read.`);
  await capture(page, testInfo, "content");
  const removalReason = `spam, reported by two agents (${randomBytes(3).toString("hex")})`;
  await act(page, "Remove", removalReason);
  await expect(page.getByRole("status")).toHaveText("Removed: it is gone for everyone.");
  const feed = (await (await request.get("/v1/posts", { headers: as(author) })).json()) as { items: Array<{ id: string }> };
  expect(feed.items.map((item) => item.id)).not.toContain(postId);

  // The author's account: standing and quotas; a restriction stops its writes (403) until lifted.
  await page.goto(`/operator/content/named_message/${postId}`);
  await page.getByRole("link", { name: /^web-poster-/ }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Voting, pinning and quotas today" })).toBeVisible();
  await expect(page.getByText(/^Posts today: 1 of \d+$/)).toBeVisible();
  await capture(page, testInfo, "account");
  await act(page, "Restrict the account", "posting spam");
  await expect(page.getByRole("status")).toHaveText("Account restricted.");
  const refusedPost = await request.post("/v1/posts", { headers: { ...as(author), "idempotency-key": `k_${randomBytes(10).toString("hex")}` }, data: { title: "More spam", body: "Refused while restricted." } });
  expect(refusedPost.status()).toBe(403);
  expect(((await refusedPost.json()) as { error: { code: string } }).error.code).toBe("ACCOUNT_RESTRICTED");
  await act(page, "Lift the restriction", "cleared after review");
  await expect(page.getByRole("status")).toHaveText("Restriction lifted.");

  // Official pin: first in GET /pins and in the feed's pinned block.
  const noticeTitle = `Maintenance notice ${randomBytes(3).toString("hex")}`;
  const noticeId = await postRoot(request, author, noticeTitle);
  await page.getByRole("navigation", { name: "Console sections" }).getByRole("link", { name: "Official pins" }).click();
  const pinForm = page.getByRole("form", { name: "Pin a thread officially" });
  await pinForm.getByLabel("Root thread id").fill(noticeId);
  await pinForm.getByLabel("Note for operators (optional)").fill("Until the maintenance ends");
  await act(page, "Pin a thread officially", "maintenance window announcement");
  await expect(page.getByRole("status")).toHaveText("Pinned as an official notice.");
  await expect(page.getByText("Note: Until the maintenance ends")).toBeVisible();
  await capture(page, testInfo, "pins");
  const pins = (await (await request.get("/pins?board=named", { headers: as(author) })).json()) as { pins: Array<{ thread_id: string; kind: string }> };
  expect(pins.pins[0]).toMatchObject({ thread_id: noticeId, kind: "official" });
  const pinnedFeed = (await (await request.get("/v1/posts", { headers: as(author) })).json()) as { pinned: Array<{ thread_id: string }> };
  expect(pinnedFeed.pinned[0]?.thread_id).toBe(noticeId);
  // And unpinned again (official pins are permanent until an operator ends them).
  await act(page, `Unpin ${noticeTitle}`, "maintenance is over");
  await expect(page.getByRole("status")).toHaveText("Official pin ended.");
  const afterUnpin = (await (await request.get("/pins?board=named", { headers: as(author) })).json()) as { pins: Array<{ thread_id: string }> };
  expect(afterUnpin.pins.map((pin) => pin.thread_id)).not.toContain(noticeId);

  // Rules: preview, then save; /v1/rules and rules_notice change at once.
  const noticeOf = async () => ((await (await request.get("/v1/posts", { headers: as(author) })).json()) as { rules_notice: { text: string; url: string } }).rules_notice;
  const noticeBefore = await noticeOf();
  await page.getByRole("navigation", { name: "Console sections" }).getByRole("link", { name: "Rules" }).click();
  const rulesText = `Be kind 🙂, cite sources, vote honestly. Revision ${randomBytes(3).toString("hex")}.`;
  // The limit is in code points; the browser's maxlength counts UTF-16 units, so it must leave room for two per character.
  await expect(page.getByLabel(/Rules text/)).toHaveAttribute("maxlength", "40000");
  await page.getByLabel(/Rules text/).fill(rulesText);
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByRole("heading", { name: `Preview (${[...rulesText].length} of 20,000 characters)` })).toBeVisible();
  await expect(page.locator(".preview").last()).toHaveText(rulesText);
  await page.getByLabel("Reason (kept in the audit log)").fill("clearer wording");
  await capture(page, testInfo, "rules");
  // A second editor opened the same version before this save lands: their save is refused with the conflict, and the page shows the new text.
  const secondEditor = await page.context().newPage();
  await secondEditor.goto("/operator/rules");
  await page.getByRole("button", { name: "Save a new version" }).click();
  await expect(page.getByRole("status")).toContainText("Saved: version");
  await expect(page.locator("summary").filter({ hasText: admin.email }).first()).toContainText(`by ${admin.email} (${[...rulesText].length} characters) · current`);
  await secondEditor.getByLabel(/Rules text/).fill("A competing edit from an older version.");
  await secondEditor.getByLabel("Reason (kept in the audit log)").fill("competing edit");
  await secondEditor.getByRole("button", { name: "Save a new version" }).click();
  await expect(secondEditor.locator(".outcome-refused")).toHaveText("Refused: Another rules version was saved after the one you edited; reload the current rules, reapply your change and save again.");
  await expect(secondEditor.locator(".preview").first()).toHaveText(rulesText);
  await secondEditor.screenshot({ path: testInfo.outputPath("rules-conflict-1280.png"), fullPage: true });
  await secondEditor.close();
  const rules = (await (await request.get("/v1/rules", { headers: as(author) })).json()) as { text: string };
  expect(rules.text).toBe(rulesText);
  const noticeAfter = await noticeOf();
  expect(noticeAfter.text).not.toBe(noticeBefore.text);
  expect(noticeAfter.text).toMatch(/The rules changed at \d{4}-\d\d-\d\dT/);
  expect(noticeAfter.url).toMatch(/\/v1\/rules$/);

  // A report handled: an agent reports a published article; the queue shows it; the operator restricts it from there.
  const articleTitle = `Questionable article ${randomBytes(3).toString("hex")}`;
  const article = await publishArticle(request, articleTitle, [{ type: "paragraph", text: "An article that another agent will report to the operators; it stays visible until an operator decides." }], newNetwork());
  await expect.poll(async () => (await request.get(`/api/showcase/posts/${article.item_id}`)).status(), { timeout: 15_000 }).toBe(200);
  const reported = await request.post("/v1/showcase/reports", { headers: as(article.reviewerA), data: { revision_id: article.revision_id, reason: "misleading claims about sandboxes" } });
  expect(reported.status()).toBe(200);
  await page.getByRole("navigation", { name: "Console sections" }).getByRole("link", { name: "Reports" }).click();
  const group = page.getByRole("article").filter({ hasText: articleTitle });
  await expect(group).toContainText("1 unresolved report");
  await expect(group).toContainText("misleading claims about sandboxes");
  await capture(page, testInfo, "reports");
  await group.getByLabel("Restrict the item").check();
  await group.getByLabel("Reason (kept in the audit log)").fill("the report is right: misleading");
  await group.getByRole("button", { name: "Resolve" }).click();
  await expect(page.getByRole("status")).toHaveText("1 report resolved; the item is restricted.");
  await expect(page.getByRole("article").filter({ hasText: articleTitle })).toHaveCount(0);
  expect((await request.get(`/api/showcase/posts/${article.item_id}`)).status()).not.toBe(200);
  const publicFeed = (await (await request.get("/api/showcase/feed")).json()) as { items: Array<{ item_id: string }> };
  expect(publicFeed.items.map((item) => item.item_id)).not.toContain(article.item_id);
  await page.goto("/showcase");
  await expect(page.getByRole("link", { name: articleTitle })).toHaveCount(0);
  // The item's page in the console shows it restricted, with the way back.
  await page.goto(`/operator/content/showcase_item/${article.item_id}`);
  await expect(page.getByRole("button", { name: "Unrestrict: show it again" })).toBeVisible();
  await capture(page, testInfo, "restricted-item");

  // The audit log lists every action, searchable.
  await page.getByRole("navigation", { name: "Console sections" }).getByRole("link", { name: "Audit log" }).click();
  await page.getByLabel(/^Text/).fill(removalReason);
  await page.getByRole("button", { name: "Search" }).click();
  const entry = page.getByRole("row").filter({ hasText: removalReason });
  await expect(entry).toHaveCount(1);
  await expect(entry.getByRole("cell", { name: "content.remove" })).toBeVisible();
  await expect(entry).toContainText(`${admin.email} (admin)`);
  await expect(entry.getByText("removed: false → true")).toBeVisible();
  await capture(page, testInfo, "audit");

  await page.getByRole("navigation", { name: "Console sections" }).getByRole("link", { name: "Operators" }).click();
  await expect(page.getByRole("cell", { name: admin.email })).toBeVisible();
  await capture(page, testInfo, "operators");

  // An account removed with its content kept: the content can still be removed later, from its page.
  const leaver = await register(request, "leaver", network);
  const leaverPost = await postRoot(request, leaver, `Left behind ${randomBytes(3).toString("hex")}`);
  const leaverId = ((await (await request.get("/v1/me", { headers: as(leaver) })).json()) as { id: string }).id;
  await page.goto(`/operator/accounts/${leaverId}`);
  await page.getByRole("form", { name: "Remove the account" }).getByLabel("Keep its content").check();
  await act(page, "Remove the account", "asked to leave");
  await expect(page.getByRole("status")).toHaveText("Account removed; its content stays.");
  expect((await request.get(`/v1/posts/${leaverPost}`, { headers: as(author) })).status()).toBe(200);
  await act(page, "Remove its content", "its posts were spam after all");
  await expect(page.getByRole("status")).toHaveText("Its content is removed: 1 of its posts and replies, 0 of its showcase items.");
  expect((await request.get(`/v1/posts/${leaverPost}`, { headers: as(author) })).status()).toBe(404);
  // Nothing is left to remove: the page says so and offers no second removal.
  await expect(page.getByText("Its posts, replies and showcase items are removed too.")).toBeVisible();
  await expect(page.getByRole("form", { name: "Remove its content" })).toHaveCount(0);
});

test("without JavaScript: sign-in, a removal with its outcome, and the rules preview all work", async ({ browser, request }, testInfo) => {
  const context = await browser.newContext({ javaScriptEnabled: false, extraHTTPHeaders: { "x-forwarded-for": newNetwork() } });
  const page = await context.newPage();
  const moderator = await createOperator("moderator");
  const author = await register(request, "nojs", newNetwork());
  const postId = await postRoot(request, author, `No script ${randomBytes(3).toString("hex")}`);
  await signIn(page, moderator.email, moderator.password);
  await expect(page).toHaveURL(/\/operator$/);
  await page.goto(`/operator/content/named_message/${postId}`);
  await act(page, "Remove", "removed without a script");
  await expect(page.getByRole("status")).toHaveText("Removed: it is gone for everyone.");
  expect((await request.get(`/v1/posts/${postId}`, { headers: as(author) })).status()).toBe(404);
  await page.goto("/operator/rules");
  const draft = `A draft previewed without a script ${randomBytes(3).toString("hex")}.`;
  await page.getByLabel(/Rules text/).fill(draft);
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByRole("heading", { name: `Preview (${draft.length} of 20,000 characters)` })).toBeVisible();
  await expect(page.getByLabel(/Rules text/)).toHaveValue(draft);
  await page.screenshot({ path: testInfo.outputPath("rules-preview-nojs.png"), fullPage: true });
  await context.close();
});

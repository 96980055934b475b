import { randomBytes, randomUUID } from "node:crypto";
import { expect, test, type Route } from "@playwright/test";
import { as, expectAccessible, newNetwork, publishArticle, register, startAnotherSite } from "./support";

const COUNTER_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 200"><rect id="button" x="10" y="10" width="120" height="60" rx="8" fill="#36c" tabindex="0"/><text id="count" x="200" y="50" font-size="32">0</text>' +
  '<script><![CDATA[let n = 0; showcase.on("button", "click", () => { n++; showcase.setText("count", String(n)); });]]></script></svg>';

test("a published article on the website: feed, semantic blocks, interactive SVG, comments; withdrawn it answers a neutral 410 page", async ({ page, request }, testInfo) => {
  test.setTimeout(90_000);
  const title = `Counting clicks in a sandbox ${randomBytes(2).toString("hex")}`;
  const { author, reviewerA, item_id, revision_id } = await publishArticle(request, title, [
    { type: "paragraph", text: "This article shows a picture whose script counts clicks; it runs in a sandbox and can only change its own text. See https://example.com for nothing at all." },
    { type: "heading", level: 1, text: "How the counter works" },
    { type: "list", ordered: true, items: ["The button listens for clicks.", "The script updates the count."] },
    { type: "heading", level: 3, text: "Where the count lives" },
    { type: "code", text: 'showcase.on("button", "click", handler);' },
    { type: "svg", source: COUNTER_SVG, description: "A blue button and a click counter.", caption: "Click the blue button", runtime: "showcase-svg-v1" },
  ]);
  const comment = await request.post(`/v1/showcase/posts/${item_id}/comments`, {
    headers: as(reviewerA),
    data: { schema_version: 1, language: "en", publication_intent: "show_to_humans", idempotency_key: `web_${randomBytes(8).toString("hex")}`, blocks: [{ type: "paragraph", text: "A tidy example: the count survives many clicks and never leaves its picture, which is what a sandbox should do." }] },
  });
  expect(comment.status()).toBe(202);
  await expect.poll(async () => (await (await request.get(`/api/showcase/posts/${item_id}`)).json()).comment_count, { timeout: 30_000 }).toBe(1);

  const refused: string[] = [];
  page.on("console", (message) => {
    if (message.text().includes("Content Security Policy")) refused.push(message.text());
  });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/showcase");
  await expectAccessible(page);
  const feedPage = await page.reload();
  expect(feedPage?.headers()).toMatchObject({ "x-content-type-options": "nosniff", "referrer-policy": "strict-origin-when-cross-origin" });
  expect(feedPage?.headers()["content-security-policy"]).toMatch(/script-src 'nonce-[A-Za-z0-9+/]{22}==' 'strict-dynamic' 'wasm-unsafe-eval'.*frame-ancestors 'none'/);
  await page.getByRole("link", { name: title }).click();
  await expect(page).toHaveURL(new RegExp(`/showcase/${item_id}$`));
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  // hreflang, canonical and og:url are absolute addresses of the site itself.
  const own = new URL(`/showcase/${item_id}`, page.url()).href;
  await expect(page.locator('link[rel="alternate"][hreflang="en"]')).toHaveAttribute("href", own);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", own);
  await expect(page.locator('meta[property="og:url"]')).toHaveAttribute("content", own);
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", title);
  await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute("content", "summary");
  await expect(page.getByRole("heading", { level: 2, name: "How the counter works" })).toBeVisible();
  // The author skipped level 2; the page outline does not skip h3.
  await expect(page.getByRole("heading", { level: 3, name: "Where the count lives" })).toBeVisible();
  await expect(page.locator("ol li").first()).toHaveText("The button listens for clicks.");
  await expect(page.locator("pre code")).toHaveText('showcase.on("button", "click", handler);');
  await expect(page.getByRole("link", { name: /example\.com/ })).toHaveCount(0);
  // A picture whose script answers input is a named group, so its button stays reachable.
  await expect(page.getByRole("group", { name: "A blue button and a click counter." })).toBeVisible();
  await expect(page.locator("figcaption")).toHaveText("Click the blue button");
  await expect(page.locator("figure")).toHaveAttribute("data-script", "ready", { timeout: 15_000 });
  await page.locator("figure #button").click();
  await expect(page.locator("figure #count")).toHaveText("1");
  await expect(page.getByRole("heading", { name: "1 comment" })).toBeVisible();
  await expect(page.getByText("A tidy example")).toBeVisible();
  await expect(page.getByText("Loading the comment form…")).toHaveCount(0);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath("article-1280.png"), fullPage: true });
  await page.setViewportSize({ width: 320, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.screenshot({ path: testInfo.outputPath("article-375.png"), fullPage: true });

  expect(refused).toEqual([]);
  const atom = await request.get("/showcase/feed.xml");
  expect(atom.headers()["content-type"]).toBe("application/atom+xml; charset=utf-8");
  expect(await atom.text()).toContain(`<title type="text">${title}</title>`);
  expect(await (await request.get("/sitemap.xml")).text()).toContain(`/showcase/${item_id}</loc>`);

  const { preview_url } = await (await request.post(`/v1/showcase/revisions/${revision_id}/preview-session`, { headers: as(author), data: {} })).json();
  const preview = await page.goto(preview_url);
  expect(preview?.status()).toBe(200);
  expect(preview?.headers()["x-robots-tag"]).toBe("noindex, nofollow");
  expect(preview?.headers()["referrer-policy"]).toBe("no-referrer");
  await expect(page.getByRole("note")).toContainText("Preview");
  await expectAccessible(page);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(page.locator("figure")).toHaveAttribute("data-script", "ready", { timeout: 15_000 });

  expect((await request.post(`/v1/showcase/posts/${item_id}/withdraw`, { headers: as(author), data: {} })).status()).toBe(200);
  expect(await (await request.get("/showcase/feed.xml")).text()).not.toContain(title);
  expect((await page.goto(preview_url))?.status()).toBe(410);
  const gone = await page.goto(`/showcase/${item_id}`);
  expect(gone?.status()).toBe(410);
  await expect(page.getByRole("heading", { level: 1, name: "No longer available" })).toBeVisible();
  await expectAccessible(page);
  await expect(page.getByText(title)).toHaveCount(0);
  expect(gone?.headers()["x-robots-tag"]).toBe("noindex");
  const unknown = await page.goto("/showcase/00000000-0000-4000-8000-000000000000");
  expect(unknown?.status()).toBe(404);
});

test("the feed's before cursor that is no position in it (malformed, outside the sequences' range) is a 400 page saying so, not an error", async ({ request }) => {
  for (const before of ["9999999999", "2147483648", "0", "x", "abc", "1&before=2"]) {
    const response = await request.get(`/showcase?before=${before}`, { headers: { accept: "text/html" } });
    expect(response.status(), before).toBe(400);
    const html = await response.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain("<main><h1>Not a page of the article list</h1>");
    expect(html).toContain('<a href="/showcase">All articles</a>');
  }
  expect((await request.get("/showcase?before=2147483647")).status()).toBe(200);
});

test("a page that is not there is a neutral 404 page, readable without JavaScript: unknown or unpublished article, malformed id, unknown address", async ({ browser, request }) => {
  const author = await register(request, "unpublished");
  const submitted = await request.post("/v1/showcase/posts", {
    headers: as(author),
    data: { schema_version: 1, language: "en", publication_intent: "show_to_humans", idempotency_key: `web_${randomBytes(8).toString("hex")}`, title: "Not yet public", blocks: [{ type: "paragraph", text: "An article submitted and not yet published, so no reader may see it or learn that it exists." }] },
  });
  expect(submitted.status()).toBe(202);
  const { item_id: unpublished } = (await submitted.json()) as { item_id: string };
  const paths = ["/showcase/11111111-2222-4333-8444-555555555555", `/showcase/${unpublished}`, "/showcase/not-a-uuid", "/nothing-here"];
  for (const javaScriptEnabled of [false, true]) {
    const context = await browser.newContext({ javaScriptEnabled });
    const page = await context.newPage();
    for (const path of paths) {
      const response = await page.goto(path);
      expect([path, response?.status()]).toEqual([path, 404]);
      await expect(page.locator("html")).toHaveAttribute("lang", "en");
      await expect(page.getByRole("main").getByRole("heading", { level: 1 })).toHaveText("Not found");
      await expect(page.getByRole("main").getByRole("link", { name: "All articles" })).toHaveAttribute("href", "/showcase");
      await expect(page.locator("title")).toHaveCount(1);
      await expect(page).toHaveTitle("Not found · Agent Board");
      await expect(page.getByText("Not yet public")).toHaveCount(0);
    }
    await context.close();
  }
});

test("pages of the article list lead back to the newest articles, and past the oldest say there are no older ones; every showcase page leads home", async ({ page, request }) => {
  await publishArticle(request, `Listed article ${randomBytes(2).toString("hex")}`, [{ type: "paragraph", text: "An article so the list is not empty when it is read past its oldest article." }], newNetwork());
  await page.goto("/showcase?before=1");
  await expect(page.getByText("There are no older articles.")).toBeVisible();
  await expect(page.getByText("No articles yet.")).toHaveCount(0);
  await expect(page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Newest articles" })).toHaveAttribute("href", "/showcase");
  await expectAccessible(page);
  await page.goto("/showcase");
  await expect(page.getByRole("link", { name: "Newest articles" })).toHaveCount(0);
  await expect(page.getByRole("navigation", { name: "Site" }).getByRole("link", { name: "Agent Board" })).toHaveAttribute("href", "/");
  await page.getByRole("navigation", { name: "Site" }).getByRole("link", { name: "Agent Board" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Agent Board");
});

test("the site has an icon, so browsers find one instead of a 404", async ({ page, request }) => {
  await page.goto("/");
  const href = await page.locator('link[rel="icon"]').first().getAttribute("href");
  expect(href).toBeTruthy();
  const icon = await request.get(href!);
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toContain("image/svg+xml");
});

test("/favicon.ico, which browsers and crawlers ask for whatever a page declares, leads permanently to the site's icon", async ({ request }) => {
  const favicon = await request.get("/favicon.ico", { maxRedirects: 0 });
  expect(favicon.status()).toBe(308);
  expect(favicon.headers()["location"]).toBe("/icon.svg");
  const icon = await request.get("/favicon.ico");
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toContain("image/svg+xml");
});

test("every page is rendered for its request: its scripts carry the nonce of its policy, and no shared cache may keep it", async ({ request }) => {
  for (const path of ["/", "/showcase", "/no-such-page"]) {
    const response = await request.get(path, { headers: { accept: "text/html" } });
    const nonce = /'nonce-([^']+)'/.exec(response.headers()["content-security-policy"] ?? "")?.[1];
    expect(nonce, path).toBeTruthy();
    const scripts = (await response.text()).match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length, path).toBeGreaterThan(0);
    expect(scripts.filter((tag) => !tag.includes(`nonce="${nonce}"`)), path).toEqual([]);
    expect(response.headers()["cache-control"], path).toMatch(/no-store/);
  }
});

test("an article page served from the read cache carries the nonce of its reader's own policy", async ({ request }) => {
  const { item_id } = await publishArticle(request, `One nonce per reader ${randomBytes(2).toString("hex")}`, [{ type: "paragraph", text: "An article read twice in a row, so the second reader gets the copy kept in the read cache." }], newNetwork());
  const seen: string[] = [];
  for (let reader = 0; reader < 2; reader++) {
    const response = await request.get(`/showcase/${item_id}`, { headers: { accept: "text/html" } });
    expect(response.status()).toBe(200);
    const nonce = /'nonce-([^']+)'/.exec(response.headers()["content-security-policy"] ?? "")?.[1] ?? "";
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    const html = await response.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((tag) => !tag.includes(`nonce="${nonce}"`))).toEqual([]);
    for (const earlier of seen) expect(html).not.toContain(earlier);
    seen.push(nonce);
  }
  expect(seen[0]).not.toBe(seen[1]);
});

test("without JavaScript an article page says that commenting needs it, and its Reply links lead there", async ({ request }) => {
  const { item_id } = await publishArticle(request, `Read without scripts ${randomBytes(2).toString("hex")}`, [{ type: "paragraph", text: "An article read by a browser that runs no JavaScript at all, which still reads every word." }], newNetwork());
  const html = await (await request.get(`/showcase/${item_id}`, { headers: { accept: "text/html" } })).text();
  expect(html).toContain('id="comment-form"');
  expect(html).toMatch(/<noscript><p>Commenting needs JavaScript[^<]*<\/p><\/noscript>/);
  expect(html).not.toContain("Loading the comment form");
});

test("with guest comments closed (no CAPTCHA configured) no comment offers Reply, and the form's section says comments are closed", async ({ page, request }) => {
  test.setTimeout(120_000);
  const { reviewerA, item_id } = await publishArticle(request, `Closed to readers ${randomBytes(2).toString("hex")}`, [{ type: "paragraph", text: "An article on a site whose operators configured no CAPTCHA, so readers cannot comment." }], newNetwork());
  const comment = await request.post(`/v1/showcase/posts/${item_id}/comments`, {
    headers: { ...as(reviewerA), "x-forwarded-for": newNetwork() },
    data: { schema_version: 1, language: "en", publication_intent: "show_to_humans", idempotency_key: `web_${randomBytes(8).toString("hex")}`, blocks: [{ type: "paragraph", text: "An agent's comment, which a reader could answer where comments are open." }] },
  });
  expect(comment.status()).toBe(202);
  await expect.poll(async () => (await (await request.get(`/api/showcase/posts/${item_id}`)).json()).comment_count, { timeout: 30_000 }).toBe(1);
  // The orchestrator's site has a CAPTCHA: there the comment offers Reply.
  await page.goto(`/showcase/${item_id}`);
  await expect(page.getByRole("link", { name: "Reply" })).toHaveCount(1);

  const closed = await startAnotherSite({});
  try {
    await page.goto(`${closed.url}/showcase/${item_id}`);
    await expect(page.getByText("An agent's comment, which a reader could answer")).toBeVisible();
    await expect(page.getByRole("link", { name: "Reply" })).toHaveCount(0);
    await expect(page.getByRole("heading", { level: 2, name: "Reader comments are closed" })).toBeVisible();
  } finally {
    await closed.close();
  }
});

test("an article page stays readable when its comment form cannot load (the public read allowance used up)", async ({ page, request }) => {
  const title = `Read while refused ${randomBytes(2).toString("hex")}`;
  const { item_id } = await publishArticle(request, title, [{ type: "paragraph", text: "An article whose reader's network has used up its public reads for this minute, so the form cannot load." }], newNetwork());
  await page.route("**/api/showcase/human-session", (route) =>
    route.fulfill({ status: 429, contentType: "application/json", headers: { "retry-after": "30" }, body: JSON.stringify({ error: { code: "BOARD_RATE_LIMIT", message: "Wait Retry-After seconds." } }) }),
  );
  await page.goto(`/showcase/${item_id}`);
  await expect(page.getByRole("status").filter({ hasText: "The comment form could not load just now." })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  await expect(page.getByText("Loading the comment form…")).toHaveCount(0);
});

test("an asset URL opened directly shows the picture and runs no script", async ({ page, request }) => {
  const { revision_id } = await publishArticle(request, "A picture served as a file", [
    { type: "paragraph", text: "The picture below carries a script that would count clicks when played; opened directly as a file it must stay still." },
    { type: "svg", source: COUNTER_SVG, description: "A blue button and a click counter.", runtime: "showcase-svg-v1" },
  ], newNetwork());
  const response = await page.goto(`/api/showcase/assets/${revision_id}/svg-1`);
  expect(response?.status()).toBe(200);
  expect(response?.headers()["content-security-policy"]).toBe("default-src 'none'; sandbox");
  await page.locator("#button").click();
  await expect(page.locator("#count")).toHaveText("0");
});

test("a guest comments through the form: session, CAPTCHA, published after the check; the draft survives a reload; a lost answer is reconciled by lookup; delete", async ({ page, request, context }) => {
  test.setTimeout(90_000);
  const { item_id } = await publishArticle(request, "Questions welcome", [{ type: "paragraph", text: "This article invites readers to leave a comment below; every comment is checked automatically before it is shown to anyone." }], newNetwork());

  await page.goto(`/showcase/${item_id}`);
  // Keyboard only, as a reader without a pointer would.
  await page.getByLabel("Nickname").fill("Ada");
  await page.keyboard.press("Enter");
  await expect(page.getByText("Commenting as Ada.")).toBeVisible();
  // The nickname form is gone: the keyboard lands in the comment field, and the session is announced.
  await expect(page.getByLabel("Your comment")).toBeFocused();
  await expect(page.locator("#comment-form").getByRole("status")).toHaveText("You comment as Ada.");
  await expect(page.getByLabel("I am human (test widget)")).toBeVisible();
  await expectAccessible(page);
  const cookie = (await context.cookies()).find((c) => c.name === "__Host-board_guest");
  expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: "Strict", path: "/" });

  const refused: string[] = [];
  page.on("console", (message) => {
    if (message.text().includes("Content Security Policy")) refused.push(message.text());
  });
  await page.getByLabel("Your comment").fill("Thank you, this was clear.");
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("I am human (test widget)")).toBeFocused();
  await page.keyboard.press("Space");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Send comment" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "Your comment is published." })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Your comment is published." })).toBeFocused();
  await expect(page.getByRole("article", { name: "Comment by Ada" })).toContainText("Thank you, this was clear.");
  expect(refused).toEqual([]);

  await page.getByLabel("Your comment").fill("A draft I have not sent yet.");
  await page.reload();
  await expect(page.getByLabel("Your comment")).toHaveValue("A draft I have not sent yet.");

  await page.getByLabel("Your comment").fill("A second comment whose answer gets lost.");
  await page.getByLabel("I am human (test widget)").check();
  await page.route("**/human-comments", async (route) => {
    await route.fetch();
    await route.abort();
  });
  await page.getByRole("button", { name: "Send comment" }).click();
  await expect(page.getByRole("status").filter({ hasText: "No answer arrived" })).toBeVisible();
  await page.unrouteAll();
  await page.reload();
  await expect(page.getByRole("status").filter({ hasText: "Your comment is published." })).toBeVisible();
  await expect(page.getByText("A second comment whose answer gets lost.")).toHaveCount(1);
  expect((await (await request.get(`/api/showcase/posts/${item_id}/comments`)).json()).items).toHaveLength(2);

  // Another reader, whose shouting the automatic check cannot approve: nothing is shown and the draft stays.
  const other = await context.browser()!.newContext();
  const second = await other.newPage();
  await second.goto(`/showcase/${item_id}`);
  await second.getByLabel("Nickname").fill("Bob");
  await second.getByRole("button", { name: "Start commenting" }).click();
  const loud = "THIS COMMENT IS WRITTEN IN CAPITAL LETTERS FROM START TO END";
  await second.getByLabel("Your comment").fill(loud);
  await second.getByLabel("I am human (test widget)").check();
  await second.getByRole("button", { name: "Send comment" }).click();
  await expect(second.getByRole("status").filter({ hasText: "the automatic check could not approve it" })).toBeVisible();
  await expect(second.getByLabel("Your comment")).toHaveValue(loud);
  await second.reload();
  await expect(second.getByLabel("Your comment")).toHaveValue(loud);
  await expect(second.getByRole("article", { name: "Comment by Bob" })).toHaveCount(0);
  await other.close();

  // Deleting cannot be undone: it asks once more, and "Keep it" changes nothing.
  const first = page.getByRole("article", { name: "Comment by Ada" }).first();
  await first.getByRole("button", { name: "Delete my comment" }).focus();
  await page.keyboard.press("Enter");
  await expect(first.getByRole("button", { name: "Yes, delete it" })).toBeFocused();
  await first.getByRole("button", { name: "Keep it" }).click();
  await expect(first.getByRole("button", { name: "Delete my comment" })).toBeFocused();
  expect((await (await request.get(`/api/showcase/posts/${item_id}/comments`)).json()).items).toHaveLength(2);
  await page.keyboard.press("Enter");
  await page.keyboard.press("Enter");
  await expect(page.getByText("Thank you, this was clear.")).toHaveCount(0);
  await expect(page.locator("#comments-heading")).toBeFocused();
  await expect(page.locator("#comments-status")).toHaveText("Your comment was deleted.");
  expect((await (await request.get(`/api/showcase/posts/${item_id}/comments`)).json()).items).toHaveLength(1);
});

test("a refusal names its reasons and whether the nickname or the text is at fault; the nickname can be changed in the form, after which its old error is gone", async ({ page, request }) => {
  test.setTimeout(90_000);
  const { item_id } = await publishArticle(request, "Birds in the garden", [{ type: "paragraph", text: "This article about garden birds is commented on by a reader whose first nickname the automatic check objects to." }], newNetwork());
  await page.setExtraHTTPHeaders({ "x-forwarded-for": newNetwork() });
  await page.goto(`/showcase/${item_id}`);
  const status = page.locator("#comment-form").getByRole("status");
  await page.getByLabel("Nickname").fill("   ");
  await page.getByRole("button", { name: "Start commenting" }).click();
  await expect(status).toHaveText("Choose a nickname.");
  await page.getByLabel("Nickname").fill("fuckface");
  await page.getByRole("button", { name: "Start commenting" }).click();
  await expect(page.getByText("Commenting as fuckface.")).toBeVisible();
  // The earlier refusal is gone; the status line announces the session instead.
  await expect(status).toHaveText("You comment as fuckface.");

  // Both texts refused at once (a session sends at most two comments a minute): each reason names its own.
  await page.getByLabel("Your comment").fill("What a fucking pleasant article about birds.");
  await page.getByLabel("I am human (test widget)").check();
  await page.getByRole("button", { name: "Send comment" }).click();
  await expect(status.locator("p").first()).toHaveText(
    "Your comment was not published: the automatic check could not approve it, for the reasons below. No one reviews it later, so it stays unpublished; change what they name and send again. Your text is kept below.",
  );
  await expect(status.getByRole("listitem")).toHaveText(['Your nickname: Profanity or sexual language ("fuck"): the automatic check cannot approve it.', 'Your comment: Profanity or sexual language ("fuck"): the automatic check cannot approve it.']);
  await expect(status.locator("p").last()).toHaveText("The check objects to your nickname, which is sent with every comment: press “Change nickname” to choose another, then send again.");
  await expect(page.getByLabel("Your comment")).toHaveAttribute("aria-invalid", "true");

  await page.getByRole("button", { name: "Change nickname" }).click();
  await expect(page.getByLabel("Nickname")).toBeFocused();
  await expect(page.getByLabel("Nickname")).toHaveValue("fuckface");
  await page.getByLabel("Nickname").fill("Robin");
  await page.getByRole("button", { name: "Save nickname" }).click();
  await expect(status).toHaveText("You now comment as Robin. Your text is kept; send it again.");
  await expect(page.getByRole("button", { name: "Change nickname" })).toBeFocused();
  await expect(page.getByText("Commenting as Robin.")).toBeVisible();
  await expect(page.getByLabel("Your comment")).toHaveValue("What a fucking pleasant article about birds.");
  await expectAccessible(page);
  await page.getByLabel("Your comment").fill("What a pleasant article about birds, thank you.");
  await page.getByLabel("I am human (test widget)").check();
  await page.getByRole("button", { name: "Send comment" }).click();
  await expect(status).toHaveText("Your comment is published.");
  await expect(page.getByRole("article", { name: "Comment by Robin" })).toContainText("What a pleasant article about birds, thank you.");
  await expect(status.getByRole("listitem")).toHaveCount(0);
});

test("when the CAPTCHA script cannot load, the form says so and why, and loads it again on request", async ({ page, request }) => {
  test.setTimeout(90_000);
  const { item_id } = await publishArticle(request, "Commented past a content blocker", [{ type: "paragraph", text: "This article is commented on by a reader whose content blocker first stops the CAPTCHA's script." }], newNetwork());
  await page.setExtraHTTPHeaders({ "x-forwarded-for": newNetwork() });
  await page.route("**/api.js", (route) => route.abort("blockedbyclient"));
  await page.goto(`/showcase/${item_id}`);
  await page.getByLabel("Nickname").fill("Wren");
  await page.getByRole("button", { name: "Start commenting" }).click();
  const status = page.locator("#comment-form").getByRole("status");
  const unavailable = /^The CAPTCHA could not load from 127\.0\.0\.1:\d+: a content blocker or the connection stopped it\. Allow 127\.0\.0\.1:\d+ or check the connection, then press “Load the CAPTCHA again”\. Your text is kept\.$/;
  await expect(status).toHaveText(unavailable);
  await page.getByLabel("Your comment").fill("Sent once the CAPTCHA is allowed.");
  await page.getByRole("button", { name: "Send comment" }).click();
  await expect(status).toHaveText(unavailable);
  await expect(status).not.toContainText("Tick the CAPTCHA first.");
  await expectAccessible(page);

  await page.unrouteAll();
  await page.getByRole("button", { name: "Load the CAPTCHA again" }).click();
  await page.getByLabel("I am human (test widget)").check();
  await expect(page.getByRole("button", { name: "Load the CAPTCHA again" })).toHaveCount(0);
  await page.getByRole("button", { name: "Send comment" }).click();
  await expect(status).toHaveText("Your comment is published.");
});

test("when the CAPTCHA script never answers, the form gives up after 15 seconds, says why, and loads it again on request", async ({ page, request }) => {
  test.setTimeout(90_000);
  const { item_id } = await publishArticle(request, "Commented over a stalled connection", [{ type: "paragraph", text: "This article is commented on by a reader whose connection leaves the CAPTCHA's script hanging." }], newNetwork());
  await page.setExtraHTTPHeaders({ "x-forwarded-for": newNetwork() });
  await page.clock.install();
  let stalled = 0;
  await page.route("**/api.js", () => void stalled++);
  await page.goto(`/showcase/${item_id}`);
  await page.getByLabel("Nickname").fill("Finch");
  await page.getByRole("button", { name: "Start commenting" }).click();
  await expect.poll(() => stalled).toBe(1);
  const status = page.locator("#comment-form").getByRole("status");
  await page.clock.runFor(14_000);
  await expect(page.getByRole("button", { name: "Load the CAPTCHA again" })).toHaveCount(0);
  await expect(status).not.toContainText("could not load");
  await page.clock.runFor(1_000);
  await expect(status).toHaveText(/^The CAPTCHA could not load from 127\.0\.0\.1:\d+: a content blocker or the connection stopped it\./);

  await page.unrouteAll({ behavior: "ignoreErrors" });
  await page.getByRole("button", { name: "Load the CAPTCHA again" }).click();
  await page.getByLabel("I am human (test widget)").check();
  await expect(status).toHaveText("");
  await page.getByLabel("Your comment").fill("Sent once the connection recovered.");
  await page.getByRole("button", { name: "Send comment" }).click();
  await expect(status).toHaveText("Your comment is published.");
});

test("reply mode names the comment it answers, can be left with the draft kept, and ends once the reply is published", async ({ page, request }) => {
  test.setTimeout(90_000);
  const { item_id } = await publishArticle(request, "Answered in a thread", [{ type: "paragraph", text: "This article is commented on by a reader who answers a comment, changes their mind, then answers after all." }], newNetwork());
  await page.setExtraHTTPHeaders({ "x-forwarded-for": newNetwork() });
  await page.goto(`/showcase/${item_id}`);
  await page.getByLabel("Nickname").fill("Dora");
  await page.getByRole("button", { name: "Start commenting" }).click();
  const first = "Which of these birds stays for the winter? I have wondered about that for a long time now.";
  await page.getByLabel("Your comment").fill(first);
  await page.getByLabel("I am human (test widget)").check();
  await page.getByRole("button", { name: "Send comment" }).click();
  const answered = page.getByRole("article", { name: "Comment by Dora" });
  await expect(answered).toContainText(first);
  const answeredId = (await answered.locator("xpath=..").getAttribute("id"))!.replace("comment-", "");

  await answered.getByRole("link", { name: "Reply" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Reply to Dora" })).toBeVisible();
  const context = page.locator("#comment-form .reply-context");
  await expect(context).toHaveText("You are answering this comment by Dora: Which of these birds stays for the winter? I have wondered about that for a long…. Cancel reply");
  await expect(context.getByRole("link", { name: "this comment by Dora" })).toHaveAttribute("href", `#comment-${answeredId}`);
  await expect(context.locator("q")).toHaveText("Which of these birds stays for the winter? I have wondered about that for a long…");
  await expectAccessible(page);
  await page.getByLabel("Your comment").fill("The robin does, I think.");
  await context.getByRole("link", { name: "Cancel reply" }).click();
  await expect(page).toHaveURL(new RegExp(`/showcase/${item_id}#comment-form$`));
  await expect(page.getByRole("heading", { level: 2, name: "Add a comment" })).toBeVisible();
  await expect(page.getByLabel("Your comment")).toHaveValue("The robin does, I think.");

  await answered.getByRole("link", { name: "Reply" }).click();
  await expect(page.getByRole("heading", { level: 2, name: "Reply to Dora" })).toBeVisible();
  await expect(page.getByLabel("Your comment")).toHaveValue("");
  await page.getByLabel("Your comment").fill("The robin stays, and sings all winter.");
  await page.getByLabel("I am human (test widget)").check();
  await page.getByRole("button", { name: "Send comment" }).click();
  await expect(page.locator("#comment-form").getByRole("status")).toHaveText("Your reply is published. The form below now comments on the article.");
  await expect(page.getByRole("heading", { level: 2, name: "Add a comment" })).toBeVisible();
  await expect(page).not.toHaveURL(/reply_to=/);
  await expect(page.locator(`#comment-${answeredId} ol`).getByRole("article", { name: "Comment by Dora" })).toContainText("The robin stays, and sings all winter.");
});

test("a reply drafted to a comment that is no longer shown moves to the article's form, and the form says so", async ({ page, request }) => {
  const { item_id } = await publishArticle(request, "Replies to a vanished comment", [{ type: "paragraph", text: "An article whose reader drafted a reply to a comment that was taken down before the reply was sent." }], newNetwork());
  const gone = randomUUID();
  await page.goto(`/showcase/${item_id}`);
  await page.evaluate(([post, id]) => localStorage.setItem(`board-draft:${post}:${id}`, JSON.stringify({ text: "My unsent reply.", requestId: null })), [item_id, gone]);
  await page.goto(`/showcase/${item_id}?reply_to=${gone}#comment-form`);
  await expect(page.getByRole("heading", { level: 2, name: "Add a comment" })).toBeVisible();
  await expect(page.locator("#comment-form").getByRole("status")).toContainText("The comment you were replying to is no longer available. Your reply is kept below");
  expect(await page.evaluate(([post, id]) => [localStorage.getItem(`board-draft:${post}:${id}`), localStorage.getItem(`board-draft:${post}:root`)], [item_id, gone])).toEqual([null, JSON.stringify({ text: "My unsent reply.", requestId: null })]);
  await page.getByLabel("Nickname").fill("Ida");
  await page.keyboard.press("Enter");
  await expect(page.getByLabel("Your comment")).toHaveValue("My unsent reply.");
});

test("a guest's comment in another language is marked with it, so it is voiced as written; English keeps the page's", async ({ page, request }) => {
  const { item_id } = await publishArticle(request, "Read in two languages", [{ type: "paragraph", text: "An article that a French reader and an English reader both comment on, each in their own language." }], newNetwork());
  await page.setExtraHTTPHeaders({ "x-forwarded-for": newNetwork() });
  await page.goto(`/showcase/${item_id}`);
  await page.getByLabel("Nickname").fill("Léa");
  await page.keyboard.press("Enter");
  for (const text of ["J'ai beaucoup aimé cet article sur les deux langues, merci pour ces explications très claires.", "I enjoyed reading this in English too; thank you for the clear explanation."]) {
    await page.getByLabel("Your comment").fill(text);
    await page.getByLabel("I am human (test widget)").check();
    await page.getByRole("button", { name: "Send comment" }).click();
    await expect(page.getByRole("article", { name: "Comment by Léa" }).filter({ hasText: text })).toBeVisible();
  }
  const comments = page.getByRole("article", { name: "Comment by Léa" });
  await expect(comments.filter({ hasText: "J'ai beaucoup aimé" }).locator(".guest-text")).toHaveAttribute("lang", "fr");
  await expect(comments.filter({ hasText: "I enjoyed reading" }).locator(".guest-text")).not.toHaveAttribute("lang", /.*/);
});

test("an older page of the article list has a title of its own", async ({ page, request }) => {
  await publishArticle(request, "One more for the list", [{ type: "paragraph", text: "An article that makes sure the list has something on it when an older page is read." }], newNetwork());
  await page.goto("/showcase");
  await expect(page).toHaveTitle("Showcase · Agent Board");
  await page.goto("/showcase?before=2147483647");
  await expect(page).toHaveTitle(/^Older articles, from \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC back · Showcase · Agent Board$/);
  await page.goto("/showcase?before=1");
  await expect(page).toHaveTitle("No older articles · Showcase · Agent Board");
});

test("a send refused before it is read keeps its request id: after a lost answer, sending again never posts twice; the text is fixed while it is sent", async ({ page, request }) => {
  test.setTimeout(90_000);
  const { item_id } = await publishArticle(request, "One comment, however often it is sent", [{ type: "paragraph", text: "This article checks that a comment sent again after an uncertain answer is stored only once." }], newNetwork());
  await page.goto(`/showcase/${item_id}`);
  await page.getByLabel("Nickname").fill("Cy");
  await page.getByRole("button", { name: "Start commenting" }).click();
  await page.getByLabel("Your comment").fill("Sent once,\nwhatever happens to the answers.");

  await page.route("**/human-comments", async (route) => {
    await route.fetch();
    await route.abort();
  });
  await page.getByLabel("I am human (test widget)").check();
  await page.getByRole("button", { name: "Send comment" }).click();
  await expect(page.getByRole("status").filter({ hasText: "No answer arrived" })).toBeVisible();

  await page.unrouteAll();
  await page.route("**/human-comments", (route) => route.fulfill({ status: 429, json: { error: { code: "BOARD_RATE_LIMIT", message: "Too many requests from your network; wait a minute." } } }));
  await page.getByLabel("I am human (test widget)").check();
  await page.getByRole("button", { name: "Send comment" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Your text is kept" })).toBeVisible();

  await page.unrouteAll();
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/human-comments", async (route) => {
    await held;
    await route.continue();
  });
  await page.getByLabel("I am human (test widget)").check();
  await page.getByRole("button", { name: "Send comment" }).click();
  await expect(page.getByLabel("Your comment")).toHaveAttribute("readonly", "");
  release();
  await expect(page.getByRole("status").filter({ hasText: "Your comment is published." })).toBeVisible();
  expect((await (await request.get(`/api/showcase/posts/${item_id}/comments`)).json()).items).toHaveLength(1);
  // A guest's line breaks are shown as written.
  expect(await page.getByRole("article", { name: "Comment by Cy" }).locator(".guest-text p").innerText()).toBe("Sent once,\nwhatever happens to the answers.");
});

test("a send still being checked: the form says so, keeps the text read-only and shows the outcome once the check is done", async ({ page, request }) => {
  test.setTimeout(90_000);
  const { item_id } = await publishArticle(request, "A comment checked slowly", [{ type: "paragraph", text: "This article checks what a reader sees while the automatic check of a comment has not answered yet." }], newNetwork());
  await page.goto(`/showcase/${item_id}`);
  await page.getByLabel("Nickname").fill("Di");
  await page.getByRole("button", { name: "Start commenting" }).click();
  await page.getByLabel("Your comment").fill("Checked a little later than usual.");

  // The server's answers while its check runs: the send's receipt and the first lookup say `checking`.
  const stillChecking = async (route: Route) => {
    const answer = await route.fetch();
    await route.fulfill({ response: answer, json: { ...(await answer.json()), state: "checking", published: false } });
  };
  let lookups = 0;
  await page.route("**/human-comments", stillChecking);
  await page.route("**/human-comments/lookup**", (route) => (++lookups === 1 ? stillChecking(route) : route.continue()));
  await page.getByLabel("I am human (test widget)").check();
  await page.getByRole("button", { name: "Send comment" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Your comment is being checked" })).toBeVisible();
  await expect(page.getByLabel("Your comment")).toHaveAttribute("readonly", "");
  await expect(page.getByRole("button", { name: "Send comment" })).toBeDisabled();

  await expect(page.getByRole("status").filter({ hasText: "Your comment is published." })).toBeVisible({ timeout: 30_000 });
  expect(lookups).toBe(2);
  await expect(page.getByLabel("Your comment")).not.toHaveAttribute("readonly", "");
  await expect(page.getByRole("article", { name: "Comment by Di" })).toContainText("Checked a little later than usual.");
});

test("reporting keeps the keyboard focus: without a session the reader is told before writing; the form takes the focus, then the outcome does", async ({ page, request }) => {
  const { item_id } = await publishArticle(request, "Reported by keyboard", [{ type: "paragraph", text: "This article is reported by a reader who uses only the keyboard, and must not lose their place." }], newNetwork());
  await page.goto(`/showcase/${item_id}`);
  await page.getByRole("button", { name: "Report article" }).focus();
  await page.keyboard.press("Enter");
  const needsSession = page.getByRole("status").filter({ hasText: "Reports need a guest session" });
  await expect(needsSession).toBeFocused();
  await expect(page.getByLabel("Why are you reporting this article?")).toHaveCount(0);

  await page.getByLabel("Nickname").fill("Kay");
  await page.getByRole("button", { name: "Start commenting" }).click();
  await expect(page.getByText("Commenting as Kay.")).toBeVisible();
  await page.getByRole("button", { name: "Report article" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByLabel("Why are you reporting this article?")).toBeFocused();
  await page.getByRole("button", { name: "Cancel" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Report article" })).toBeFocused();
  await page.keyboard.press("Enter");
  const reason = page.getByLabel("Why are you reporting this article?");
  await expect(page.getByText("2000 of 2000 characters left")).toBeVisible();
  // A reason the service refuses marks the field and ties the refusal to it; the focus goes back to the field.
  await page.keyboard.type("It copies another article.");
  await page.getByRole("button", { name: "Send report" }).focus();
  await page.keyboard.press("Enter");
  await expect(reason).toBeFocused();
  await expect(reason).toHaveAttribute("aria-invalid", "true");
  const describedBy = (await reason.getAttribute("aria-describedby"))!.split(" ");
  await expect(page.locator(`[id="${describedBy[1]}"]`)).toContainText("control characters");
  await reason.fill("It copies another article.");
  await expect(reason).toHaveAttribute("aria-invalid", "false");
  await page.getByRole("button", { name: "Send report" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "Thank you: the report was sent to the operators." })).toBeFocused();
  await expectAccessible(page);
});

test("without JavaScript no Report control is offered (reporting runs in the browser)", async ({ browser, request }) => {
  const { item_id } = await publishArticle(request, "Read without scripts, nothing to press", [{ type: "paragraph", text: "An article read without JavaScript, where a control that cannot work must not be shown." }], newNetwork());
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`/showcase/${item_id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Read without scripts, nothing to press");
  await expect(page.getByRole("button", { name: /^Report/ })).toHaveCount(0);
  await context.close();
});

test("the nickname is counted in code points, as the server counts it, against the limit its hint names", async ({ page, request }) => {
  const { item_id } = await publishArticle(request, "Nicknames of every script", [{ type: "paragraph", text: "This article is commented on by a reader whose nickname is written in emoji, two UTF-16 units each." }], newNetwork());
  await page.goto(`/showcase/${item_id}`);
  const nickname = page.getByLabel("Nickname");
  await expect(nickname).not.toHaveAttribute("maxlength", /./);
  await expect(page.getByText("1-40 characters on one line")).toBeVisible();
  await nickname.fill("x".repeat(41));
  await expect(page.getByText("1 characters too many")).toBeVisible();
  await expect(nickname).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("button", { name: "Start commenting" })).toBeDisabled();
  // Forty different emoji: 80 UTF-16 units, which a maxlength of 40 would refuse and the server accepts.
  const emoji = Array.from({ length: 40 }, (_, i) => String.fromCodePoint(0x1f600 + i)).join("");
  await nickname.fill(emoji);
  await expect(page.getByText("0 characters left")).toBeVisible();
  await page.getByRole("button", { name: "Start commenting" }).click();
  await expect(page.getByText(`Commenting as ${emoji}.`)).toBeVisible();
});

test("with comments closed a reader can still report: the form offers a guest session for it, and the report is sent", async ({ page, request }) => {
  const { item_id } = await publishArticle(request, "Reported while comments are closed", [{ type: "paragraph", text: "This article is reported by a reader of a site whose operators closed comments from readers." }], newNetwork());
  // The site's answer with comments closed (no CAPTCHA configured): sessions still open, for reports.
  await page.route("**/api/showcase/human-session", async (route) => {
    const answer = await route.fetch();
    const view = await answer.json();
    await route.fulfill({ response: answer, json: { ...view, form: { ...view.form, comments_open: false, captcha: null } } });
  });
  await page.goto(`/showcase/${item_id}`);
  await expect(page.getByRole("heading", { level: 2, name: "Reader comments are closed" })).toBeVisible();
  await expect(page.getByText("Comments from readers are closed on this site.")).toBeVisible();
  await expect(page.getByLabel("Your comment")).toHaveCount(0);

  await page.getByRole("button", { name: "Report article" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Reports need a guest session: choose a nickname in the comment form below first" })).toBeVisible();

  // A refused nickname is marked invalid and described by the line that says why.
  await page.getByLabel("Nickname").fill("   ");
  await page.getByRole("button", { name: "Start a session to report" }).click();
  const nickname = page.getByLabel("Nickname");
  await expect(nickname).toHaveAttribute("aria-invalid", "true");
  await expect(nickname).toHaveAccessibleDescription(/Choose a nickname\./);
  await nickname.fill("Eve");
  await expect(nickname).toHaveAttribute("aria-invalid", "false");
  await page.getByRole("button", { name: "Start a session to report" }).click();
  await expect(page.getByText("You can report articles and comments as Eve.")).toBeVisible();
  await page.getByRole("button", { name: "Report article" }).click();
  await page.getByLabel("Why are you reporting this article?").fill("It repeats another article word for word.");
  await page.getByRole("button", { name: "Send report" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Thank you: the report was sent to the operators." })).toBeVisible();
});

test("thirty-two levels of replies fit a 320 px phone: past eight levels replies line up and name whom they answer; print leaves the controls out", async ({ page, request }) => {
  test.setTimeout(120_000);
  const { author, reviewerA, item_id } = await publishArticle(request, "A long conversation", [{ type: "paragraph", text: "This article starts a conversation that goes as deep as replies may go, thirty-two levels." }], newNetwork());
  // Each send from a network of its own: 32 writes are more than one network's 30 a minute.
  const reply = async (key: string, level: number, parentId: string | null) => {
    const res = await request.post(`/v1/showcase/posts/${item_id}/comments`, {
      headers: { ...as(key), "x-forwarded-for": newNetwork() },
      data: { schema_version: 1, language: "en", publication_intent: "show_to_humans", idempotency_key: `deep_${randomBytes(8).toString("hex")}`, blocks: [{ type: "paragraph", text: `Level ${level} of a long conversation about queues, retries and the patience they need.` }], ...(parentId ? { parent_id: parentId } : {}) },
    });
    expect(res.status()).toBe(202);
    return (await res.json()) as { item_id: string; revision_id: string };
  };
  let parent: { item_id: string; revision_id: string } | null = null;
  // Sixteen levels each: a comment quota is 20 a day, and a reply to another's comment waits until it is public.
  for (let level = 1; level <= 32; level++) {
    const writer = level <= 16 ? reviewerA : author;
    if (level === 17) {
      const waitedFor: string = parent!.revision_id;
      await expect.poll(async () => (await (await request.get(`/v1/showcase/revisions/${waitedFor}`, { headers: as(author) })).json()).state, { timeout: 30_000 }).toBe("published");
    }
    parent = await reply(writer, level, parent?.item_id ?? null);
  }
  await expect.poll(async () => (await (await request.get(`/api/showcase/posts/${item_id}`)).json()).comment_count, { timeout: 60_000 }).toBe(32);

  await page.setViewportSize({ width: 320, height: 800 });
  await page.goto(`/showcase/${item_id}`);
  const deepest = page.locator("article").filter({ hasText: "Level 32 of a long conversation" }).last();
  await expect(deepest).toContainText("in reply to");
  expect((await deepest.boundingBox())!.width).toBeGreaterThan(200);
  await expect(page.locator("article").filter({ hasText: "Level 8 of a long conversation" }).last()).not.toContainText("in reply to");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);

  await page.emulateMedia({ media: "print" });
  await expect(page.locator("#comment-form")).toBeHidden();
  await expect(page.getByRole("button", { name: "Report article" })).toBeHidden();
  await expect(page.getByText("Level 32 of a long conversation")).toBeVisible();
});

test("the home page, the error catalogue and a page that does not exist pass the accessibility rules too", async ({ page }) => {
  for (const [path, heading] of [
    ["/", "Agent Board"],
    ["/docs/errors", null],
    ["/showcase/00000000-0000-4000-8000-000000000000", null],
  ] as const) {
    const response = await page.goto(path);
    expect([path, response?.status()]).toEqual([path, path.startsWith("/showcase/") ? 404 : 200]);
    if (heading) await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
    await expectAccessible(page);
  }
});

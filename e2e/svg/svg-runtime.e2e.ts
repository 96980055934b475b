import { expect, type Page, test, type Worker } from "@playwright/test";
import { currentBuildId, releasedBuilds } from "../../packages/svg-runtime/src/index.js";
import { type PictureSpec, type PlaygroundServer, startPlaygroundServer } from "./support/playground-server.js";

const picture = (body: string, script: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 200">${body}<script><![CDATA[${script}]]></script></svg>`;

const COUNTER = picture(
  '<rect id="button" x="10" y="10" width="120" height="60" rx="8" fill="#36c" tabindex="0"/><text id="count" x="200" y="50" font-size="32">0</text><text id="key" x="200" y="90">none</text><text id="where" x="200" y="130">-</text>',
  `let n = 0;
   showcase.on("button", "click", (e) => { n++; showcase.setText("count", String(n)); showcase.setText("where", Math.round(e.x) + "," + Math.round(e.y)); });
   showcase.on("button", "keydown", (e) => showcase.setText("key", e.key));`,
);
const RESIZE = picture('<text id="size" x="10" y="40">?</text>', `
  const show = () => { const v = showcase.viewport(); showcase.setText("size", v.width + "x" + v.height); };
  show(); showcase.on("$viewport", "resize", show);`);
const ANIMATION = picture('<circle id="dot" cx="10" cy="100" r="8" fill="crimson"/><text id="frames" x="10" y="30">0</text>', `
  let frames = 0;
  showcase.setInterval(() => { frames++; showcase.setText("frames", String(frames)); showcase.setAttribute("dot", "cx", String(10 + (frames * 4) % 380)); }, 16);`);
const PROBE = picture('<text id="probe" x="10" y="40">?</text>', `
  const names = ["window", "document", "fetch", "XMLHttpRequest", "WebSocket", "importScripts", "self", "postMessage", "navigator", "location"];
  showcase.setText("probe", names.map((name) => name + "=" + typeof globalThis[name]).join(" "));`);
const RUNAWAY = picture('<rect id="trap" width="100" height="50" fill="orange"/><text id="state" x="10" y="100">armed</text>', `
  showcase.on("trap", "click", () => { showcase.setText("state", "looping"); for (;;) {} });`);
const TICKER = (label: string) => picture(`<text id="t" x="10" y="40">${label}</text>`, `
  let n = 0; showcase.setInterval(() => showcase.setText("t", "${label} " + (++n)), 100);`);
const MEMORY_BOMB = picture('<rect id="start" width="100" height="50" fill="purple"/><text id="state" x="10" y="100">idle</text>', `
  showcase.on("start", "click", () => { showcase.setText("state", "allocating"); const kept = []; for (;;) { try { kept.push(new Array(100000).fill(1)); } catch (e) {} } });`);
const DROP_SHADOW_PROBE = picture('<g id="layer"/><text id="result" x="10" y="40">?</text>', `
  let result;
  try { showcase.create("layer", "filter", { id: "f" }); showcase.create("f", "feDropShadow", { dx: "1" }); result = "accepted"; }
  catch (error) { result = error.code; }
  showcase.setText("result", result);`);

const OLD_BUILD = releasedBuilds()[0];
const CURRENT_BUILD = releasedBuilds().find((build) => build.id === currentBuildId());

let server: PlaygroundServer;

test.beforeAll(async () => {
  const spec = (key: string, source: string, extra: Partial<PictureSpec> = {}): PictureSpec => ({ key, source, description: `${key} picture`, ...extra });
  server = await startPlaygroundServer({
    counter: [spec("counter", COUNTER, { caption: "Click the blue button" })],
    resize: [spec("resize", RESIZE)],
    animation: [spec("animation", ANIMATION)],
    probe: [spec("probe", PROBE)],
    four: [spec("runaway", RUNAWAY), spec("one", TICKER("one")), spec("two", TICKER("two")), spec("three", TICKER("three"))],
    pinned: [spec("old", DROP_SHADOW_PROBE, { build: OLD_BUILD?.id }), spec("new", DROP_SHADOW_PROBE, { build: CURRENT_BUILD?.id })],
    memory: [spec("memory", MEMORY_BOMB)],
    scroll: ["first", "second", "third", "fourth"].map((label) => spec(label, TICKER(label))),
  });
});

test.afterAll(async () => server?.close());

async function open(page: Page, set: string): Promise<void> {
  await page.goto(`${server.url}/?set=${set}`);
  await expect(page.locator("#playground")).toHaveAttribute("data-ready", "true");
}

/** Waits until the picture's top-level script has run and its listeners are attached. */
async function scriptReady(page: Page, key: string): Promise<void> {
  await expect(page.locator(`[data-picture="${key}"] figure`)).toHaveAttribute("data-script", "ready");
}

/**
 * The most workers alive at once, each start counted after a short grace: Chromium reports a
 * terminated worker's close a moment after `terminate()`, possibly after the next worker started.
 */
const CLOSE_REPORT_GRACE_MS = 300;
function countWorkers(page: Page): { peak: () => Promise<number> } {
  const alive = new Set<Worker>();
  const checks: Array<Promise<void>> = [];
  let peak = 0;
  page.on("worker", (worker) => {
    alive.add(worker);
    worker.on("close", () => alive.delete(worker));
    checks.push(new Promise((resolve) => setTimeout(() => {
      peak = Math.max(peak, alive.size);
      resolve();
    }, CLOSE_REPORT_GRACE_MS)));
  });
  return { peak: async () => (await Promise.all(checks), peak) };
}

const text = (page: Page, key: string, id: string) => page.locator(`[data-picture="${key}"] #${id}`);

test.describe("showcase-svg-v1 player", () => {
  test("click updates text, with SVG coordinates", async ({ page }, testInfo) => {
    await open(page, "counter");
    await scriptReady(page, "counter");
    await text(page, "counter", "button").click();
    await text(page, "counter", "button").click();
    await expect(text(page, "counter", "count")).toHaveText("2");
    await expect(text(page, "counter", "where")).toHaveText(/^\d+,\d+$/);
    await expect(page.locator("figcaption")).toHaveText("Click the blue button");
    await expect(page.locator('[data-picture="counter"] svg')).toHaveAttribute("aria-label", "counter picture");
    await page.screenshot({ path: testInfo.outputPath("counter.png") });
  });

  test("keyboard events reach the script", async ({ page }) => {
    await open(page, "counter");
    await scriptReady(page, "counter");
    await text(page, "counter", "button").focus();
    await page.keyboard.press("ArrowRight");
    await expect(text(page, "counter", "key")).toHaveText("ArrowRight");
  });

  test("resize reaches $viewport listeners", async ({ page }) => {
    await open(page, "resize");
    await expect(text(page, "resize", "size")).toHaveText("400x200");
    await page.addStyleTag({ content: ".showcase-svg-stage{width:300px;height:150px}" });
    await expect(text(page, "resize", "size")).toHaveText("300x150");
  });

  test("a 16 ms animation runs", async ({ page }, testInfo) => {
    await open(page, "animation");
    await expect.poll(async () => Number(await text(page, "animation", "frames").textContent()), { timeout: 5000 }).toBeGreaterThan(20);
    await page.screenshot({ path: testInfo.outputPath("animation.png") });
  });

  test("the script sees no browser globals", async ({ page }) => {
    await open(page, "probe");
    await expect(text(page, "probe", "probe")).toHaveText(
      "window=undefined document=undefined fetch=undefined XMLHttpRequest=undefined WebSocket=undefined importScripts=undefined self=undefined postMessage=undefined navigator=undefined location=undefined",
    );
  });

  test("the page requests only its own assets and the runtime build, with no CSP violation", async ({ page }) => {
    const external: string[] = [];
    page.on("request", (request) => {
      if (!request.url().startsWith(server.url)) external.push(request.url());
    });
    const cspMessages: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) cspMessages.push(message.text());
    });
    const before = server.requests.length;
    await open(page, "counter");
    await scriptReady(page, "counter");
    await text(page, "counter", "button").click();
    await expect(text(page, "counter", "count")).toHaveText("1");
    const paths = server.requests.slice(before);
    const build = CURRENT_BUILD?.id ?? "";
    for (const path of paths) {
      expect(["/", "/playground.js", "/playground.css", "/pictures/counter.json", `/runtime/${build}/worker.js`, `/runtime/${build}/quickjs.wasm`, "/favicon.ico"]).toContain(path);
    }
    expect(external).toEqual([]);
    expect(cspMessages).toEqual([]);
    await expect(page.locator("#playground")).toHaveAttribute("data-csp-violations", "0");
  });

  test("runtime files are immutable and the worker has its own CSP", async ({ request }) => {
    const response = await request.get(`${server.url}/runtime/${CURRENT_BUILD?.id}/worker.js`);
    expect(response.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(response.headers()["content-security-policy"]).toBe("default-src 'none'; script-src 'self' 'wasm-unsafe-eval'");
    expect((await request.get(`${server.url}/runtime/${"0".repeat(64)}/worker.js`)).status()).toBe(404);
  });

  test("four interactive pictures never run more than two workers; a budget stop frees a slot", async ({ page }, testInfo) => {
    const workers = countWorkers(page);
    await open(page, "four");
    const states = () => page.locator("figure").evaluateAll((figures) => figures.map((figure) => (figure as HTMLElement).dataset.state));
    await expect.poll(states).toEqual(["running", "running", "waiting", "waiting"]);
    await expect(page.locator('[data-picture="two"] figure .showcase-svg-notice')).toContainText("at most two pictures");

    await scriptReady(page, "runaway");
    await text(page, "runaway", "trap").click();
    const notice = page.locator('[data-picture="runaway"] [role="alert"]');
    await expect(notice).toContainText(/stopped \(BUDGET_(INSTRUCTIONS|HANDLER_TIME|WATCHDOG)\)/);
    await expect(text(page, "runaway", "state")).toHaveText("armed");
    await expect(page.locator('[data-picture="runaway"] button')).toHaveText("Restart picture");
    await expect.poll(states).toEqual(["stopped", "running", "running", "waiting"]);
    await expect(text(page, "two", "t")).toHaveText(/^two \d+$/);
    await page.screenshot({ path: testInfo.outputPath("four.png") });
    expect(await workers.peak()).toBeLessThanOrEqual(2);
  });

  test("a picture off screen lends its slot to a picture waiting on screen and starts again when back in view", async ({ page }) => {
    const workers = countWorkers(page);
    await open(page, "scroll");
    await page.addStyleTag({ content: "[data-picture] { margin-bottom: 3000px }" });
    const states = () => page.locator("figure").evaluateAll((figures) => figures.map((figure) => (figure as HTMLElement).dataset.state));
    await expect.poll(states).toEqual(["running", "running", "waiting", "waiting"]);

    await page.locator('[data-picture="fourth"]').scrollIntoViewIfNeeded();
    await expect.poll(states).toEqual(["running", "parked", "waiting", "running"]);
    await expect(text(page, "fourth", "t")).toHaveText(/^fourth \d+$/);
    await expect(page.locator('[data-picture="second"] .showcase-svg-notice')).toContainText("off screen");

    await page.locator('[data-picture="second"]').scrollIntoViewIfNeeded();
    await expect.poll(states).toEqual(["parked", "running", "waiting", "running"]);
    await expect(text(page, "second", "t")).toHaveText(/^second \d+$/);
    expect(await workers.peak()).toBeLessThanOrEqual(2);
  });

  test("a memory bomb that catches its own out-of-memory errors is stopped by the memory budget, named in the notice", async ({ page }, testInfo) => {
    await open(page, "memory");
    await scriptReady(page, "memory");
    const started = Date.now();
    await text(page, "memory", "start").click();
    const notice = page.locator('[data-picture="memory"] [role="alert"]');
    await expect(notice).toContainText("stopped (BUDGET_MEMORY)");
    expect(Date.now() - started).toBeLessThan(2_000);
    await expect(text(page, "memory", "state")).toHaveText("idle");
    await expect(page.locator('[data-picture="memory"] button')).toHaveText("Restart picture");
    await page.screenshot({ path: testInfo.outputPath("memory.png") });
  });

  test("a revision pinned to an older build still runs that build", async ({ page }) => {
    expect(OLD_BUILD?.policyVersion).toBe(1);
    expect(CURRENT_BUILD?.policyVersion).toBe(2);
    const before = server.requests.length;
    await open(page, "pinned");
    await expect(text(page, "old", "result")).toHaveText("SVG_UNKNOWN_ELEMENT");
    await expect(text(page, "new", "result")).toHaveText("accepted");
    const paths = server.requests.slice(before);
    expect(paths).toContain(`/runtime/${OLD_BUILD?.id}/worker.js`);
    expect(paths).toContain(`/runtime/${CURRENT_BUILD?.id}/worker.js`);
  });

  test("prefers-reduced-motion starts pictures paused with a start control", async ({ browser }) => {
    const context = await browser.newContext({ reducedMotion: "reduce" });
    const page = await context.newPage();
    await open(page, "animation");
    const figure = page.locator('[data-picture="animation"] figure');
    await expect(figure).toHaveAttribute("data-state", "paused");
    await expect(text(page, "animation", "frames")).toHaveText("0");
    await page.getByRole("button", { name: "Start picture" }).click();
    await expect.poll(async () => Number(await text(page, "animation", "frames").textContent())).toBeGreaterThan(3);
    await context.close();
  });
});

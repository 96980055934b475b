import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { answerWhenDatabaseAway } from "../../apps/web/unavailable-page";
import { openDatabase, type Database } from "../../packages/db/src/client";
import { provisionDatabase, repoRoot } from "../../packages/db/src/prisma-cli";
import { startPrivatePostgres, type PrivatePostgres } from "../lib/private-services";
import { authorized, freePort, registerAgents, startBoardProcess, stopBoardProcess, until, type BoardProcess } from "./harness";

// The whole site (apps/web/server.ts: Next.js and the API in one process, as `npm start` runs it,
// with its job runner) on a PostgreSQL of this file's own, stopped and started under it. Needs
// `pnpm exec turbo run build --filter=@board/web` first, as the e2e suite does.
let postgres: PrivatePostgres;
let database: Awaited<ReturnType<typeof provisionDatabase>>;
let site: BoardProcess;

beforeAll(async () => {
  if (!existsSync(path.join(repoRoot, "apps/web/.next/BUILD_ID"))) throw new Error("The site is not built: run `pnpm exec turbo run build --filter=@board/web` first (npm test does).");
  postgres = await startPrivatePostgres();
  database = await provisionDatabase(postgres.serverUrl, "board_web_outage");
  const port = await freePort();
  site = await startBoardProcess(port, { DATABASE_URL: database.url, REDIS_URL: "", HOST: "127.0.0.1", BOARD_PUBLIC_URL: `http://127.0.0.1:${port}`, BOARD_RUN_JOBS: "1" }, "apps/web/server.ts");
});

afterAll(async () => {
  await stopBoardProcess(site);
  await postgres?.start();
  await database?.drop();
  await postgres?.remove();
});

const asBrowser = { accept: "text/html,application/xhtml+xml" };

async function submitArticle(apiKey: string, title: string): Promise<{ item_id: string; revision_id: string }> {
  const response = await fetch(`${site.base}/v1/showcase/posts`, {
    method: "POST",
    headers: authorized(apiKey),
    body: JSON.stringify({
      schema_version: 1,
      language: "en",
      publication_intent: "show_to_humans",
      idempotency_key: `outage_${randomBytes(8).toString("hex")}`,
      title,
      blocks: [{ type: "paragraph", text: "An article written to see the site and its job runner through a database restart." }],
    }),
  });
  expect(response.status).toBe(202);
  return (await response.json()) as { item_id: string; revision_id: string };
}

async function revisionState(apiKey: string, revisionId: string): Promise<string> {
  const response = await fetch(`${site.base}/v1/showcase/revisions/${revisionId}`, { headers: authorized(apiKey) });
  return response.ok ? ((await response.json()) as { state: string }).state : `status ${response.status}`;
}

test("PostgreSQL stopped: every page, feed and route handler of the site answers 503 with Retry-After and a plain page; pages are back within 5 s of its return and the job runner checks new articles again", { timeout: 120_000 }, async () => {
  const [author, ...reviewers] = await registerAgents(site.base, 3, "web-outage");
  if (!author) throw new Error("no author registered");
  const before = await submitArticle(author.apiKey, "Checked before the outage");
  await until(async () => (await revisionState(author.apiKey, before.revision_id)) === "awaiting_votes", 15_000);
  // Two other accounts' recommendations make it public (grace mode), so its page has something to show.
  for (const reviewer of reviewers) {
    const vote = await fetch(`${site.base}/v1/showcase/votes`, { method: "POST", headers: authorized(reviewer.apiKey), body: JSON.stringify({ revision_id: before.revision_id, value: 1 }) });
    expect(vote.status).toBe(200);
  }
  for (const path of ["/showcase", `/showcase/${before.item_id}`, "/operator/sign-in"]) {
    expect((await fetch(`${site.base}${path}`, { headers: asBrowser })).status, path).toBe(200);
  }
  const script = /\/_next\/static\/[^"]+\.js/.exec(await (await fetch(`${site.base}/showcase`, { headers: asBrowser })).text())?.[0];
  expect(script).toBeDefined();

  // Its check job is queued or running when PostgreSQL goes away.
  const during = await submitArticle(author.apiKey, "Checked across the outage");
  await postgres.stop();
  const stoppedAt = performance.now();
  for (const path of ["/showcase", `/showcase/${before.item_id}`, "/operator", "/operator/sign-in", "/operator/accounts", "/"]) {
    const started = performance.now();
    const page = await fetch(`${site.base}${path}`, { headers: asBrowser, redirect: "manual" });
    const body = await page.text();
    expect(performance.now() - started, path).toBeLessThan(1_000);
    expect(page.status, path).toBe(503);
    expect(page.headers.get("retry-after"), path).toBe("5");
    expect(page.headers.get("content-type"), path).toBe("text/html; charset=utf-8");
    expect(page.headers.get("cache-control"), path).toBe("no-store");
    expect(body, path).toContain("<h1>Briefly unavailable</h1>");
    expect(body, path).toContain("Agent Board is briefly unavailable. Please try again in a few seconds");
    expect(body, path).not.toMatch(/ECONNREFUSED|postgres|prisma|database|at \w+ \(|Error/i);
  }
  const head = await fetch(`${site.base}/showcase`, { method: "HEAD", headers: asBrowser });
  expect([head.status, head.headers.get("retry-after"), await head.text()]).toEqual([503, "5", ""]);
  for (const path of ["/showcase/feed.xml", "/sitemap.xml"]) {
    const feed = await fetch(`${site.base}${path}`, { headers: { accept: "application/rss+xml, application/xml" } });
    expect(feed.status, path).toBe(503);
    expect(feed.headers.get("retry-after"), path).toBe("5");
    expect(feed.headers.get("content-type"), path).toBe("text/plain; charset=utf-8");
    expect(await feed.text(), path).toBe("Agent Board is briefly unavailable. Retry after 5 seconds.\n");
  }
  // Next's own files need no database and are still served.
  expect((await fetch(`${site.base}${script}`)).status).toBe(200);
  // Away long enough for the job runner to lose its connections and fail several polls (one a second).
  await new Promise((r) => setTimeout(r, Math.max(0, 3_000 - (performance.now() - stoppedAt))));
  await postgres.start();

  const pagesBackMs = await until(async () => (await fetch(`${site.base}/showcase`, { headers: asBrowser })).status === 200, 5_000);
  expect(pagesBackMs).toBeLessThan(5_000);
  const article = await fetch(`${site.base}/showcase/${before.item_id}`, { headers: asBrowser });
  expect(article.status).toBe(200);
  expect(await article.text()).toContain("Checked before the outage");
  expect((await fetch(`${site.base}/showcase/feed.xml`)).status).toBe(200);

  const after = await submitArticle(author.apiKey, "Checked after the outage");
  const checkedMs = await until(async () => (await revisionState(author.apiKey, after.revision_id)) === "awaiting_votes", 15_000);
  let acrossState = "";
  // Its job failed with the connection and the failure could not be recorded: without the runner's
  // supervision (packages/app/src/jobs.ts) it stays locked for graphile-worker's 4 hours.
  const acrossMs = await until(async () => (acrossState = await revisionState(author.apiKey, during.revision_id)) === "awaiting_votes", 15_000).catch((error: Error) => {
    throw new Error(`${error.message}: the article submitted before the outage is ${acrossState}`);
  });
  console.log(`website outage: PostgreSQL away 3 s, every page, feed and route handler answered 503 with Retry-After; pages back ${Math.round(pagesBackMs)} ms after its return; an article submitted afterwards was checked in ${Math.round(checkedMs)} ms, one submitted just before the outage ${Math.round(checkedMs + acrossMs)} ms after the return`);
});

test("the operator console asks the operators' reserved pool, every other page the shared one, so agents saturating the shared pool do not lock operators out", async () => {
  const reachable = openDatabase(database.url, { poolSize: 1 });
  const refused = openDatabase(`postgresql://postgres@127.0.0.1:${await freePort()}/none`, { poolSize: 1 });
  const probe = async (pools: Record<"deps" | "reservedDeps", { db: Database }>, paths: string[]) => {
    const server = http.createServer(async (req, res) => {
      if (!(await answerWhenDatabaseAway(pools, req, res))) res.end("rendered");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const answers: Record<string, number> = {};
      for (const path of paths) answers[path] = (await fetch(`${base}${path}`, { headers: asBrowser })).status;
      return answers;
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  };
  const paths = ["/operator", "/operator/accounts?q=x", "/operator?tab=1", "/operators", "/showcase", "/", "/_next/static/chunks/app.js", "/runtime/player.js"];
  try {
    expect(await probe({ deps: { db: refused }, reservedDeps: { db: reachable } }, paths)).toEqual({
      "/operator": 200, "/operator/accounts?q=x": 200, "/operator?tab=1": 200, "/operators": 503, "/showcase": 503, "/": 503, "/_next/static/chunks/app.js": 200, "/runtime/player.js": 200,
    });
    expect(await probe({ deps: { db: reachable }, reservedDeps: { db: refused } }, paths)).toEqual({
      "/operator": 503, "/operator/accounts?q=x": 503, "/operator?tab=1": 503, "/operators": 200, "/showcase": 200, "/": 200, "/_next/static/chunks/app.js": 200, "/runtime/player.js": 200,
    });
  } finally {
    await Promise.all([reachable.close(), refused.close()]);
  }
});

/**
 * `npm test`: a fresh PostgreSQL database (on DATABASE_URL's server, or the embedded one), then
 * every suite: migration drift, typecheck, unit, integration, e2e (Playwright in Debian Chromium).
 * Ends with one line "N passed, N failed".
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startEmbeddedPostgres, type EmbeddedServer } from "./lib/embedded-postgres";
import { freePort } from "./lib/free-port";
import { startHcaptchaStub } from "./lib/hcaptcha-stub";
import { runCommand as run } from "./lib/run-command";
import { provisionDatabase, repoRoot, runPrisma } from "../packages/db/src/prisma-cli";

interface VitestFileResult {
  status: string;
  assertionResults: Array<{ status: string }>;
}

interface SuiteResult {
  name: string;
  passed: number;
  failed: number;
  skipped: number;
}

const results: SuiteResult[] = [];
const only = new Set((process.env.BOARD_TEST_SUITES ?? "drift,typecheck,lint,unit,int,e2e").split(","));

function check(name: string, ok: boolean) {
  results.push({ name, passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0 });
}

async function vitestSuite(project: "unit" | "int", env: Record<string, string> = {}) {
  const report = path.join(tmpdir(), `board-vitest-${project}-${process.pid}.json`);
  rmSync(report, { force: true });
  const code = await run("pnpm", ["exec", "vitest", "run", "--project", project, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`], env);
  if (!existsSync(report)) return results.push({ name: project, passed: 0, failed: 1, skipped: 0 });
  const json = JSON.parse(readFileSync(report, "utf8"));
  // A suite that failed outside its tests (an import, a beforeAll hook) counts as one failure; the
  // tests it then did not run are neither passed nor skipped by choice.
  const brokenSuites = (json.testResults ?? []).filter((r: VitestFileResult) => r.status === "failed" && !r.assertionResults.some((a) => a.status === "failed"));
  const notRun = brokenSuites.reduce((n: number, r: VitestFileResult) => n + r.assertionResults.filter((a) => a.status !== "passed").length, 0);
  results.push({
    name: project,
    passed: json.numPassedTests,
    failed: json.numFailedTests + brokenSuites.length + (code !== 0 && json.numFailedTests + brokenSuites.length === 0 ? 1 : 0),
    skipped: json.numPendingTests + json.numTodoTests - notRun,
  });
}

async function ensureChromium(): Promise<boolean> {
  if (existsSync("/usr/bin/chromium")) return true;
  if (process.getuid?.() === 0 && existsSync("/usr/bin/apt-get")) {
    console.log("Installing Debian's chromium for the browser tests ...");
    await run("apt-get", ["update", "-qq"]);
    await run("apt-get", ["install", "-y", "-qq", "chromium"], { DEBIAN_FRONTEND: "noninteractive" });
  }
  if (existsSync("/usr/bin/chromium")) return true;
  console.error("e2e needs Debian's chromium at /usr/bin/chromium: run `sudo apt-get install chromium`.");
  return false;
}

let websiteBuilt: Promise<boolean> | null = null;

/** `next build` of apps/web, once per run: the browser tests and the website's outage test serve it. */
function buildWebsite(): Promise<boolean> {
  websiteBuilt ??= run("pnpm", ["exec", "turbo", "run", "build", "--filter=@board/web"], { NEXT_TELEMETRY_DISABLED: "1" }).then((code) => code === 0);
  return websiteBuilt;
}

async function e2eSuite(databaseUrl: string) {
  if (!(await ensureChromium())) return results.push({ name: "e2e", passed: 0, failed: 1, skipped: 0 });
  if (!(await buildWebsite())) return results.push({ name: "e2e (build)", passed: 0, failed: 1, skipped: 0 });
  const port = await freePort();
  // localhost is a secure context for the browser, so the Secure guest cookie is really exercised.
  const baseUrl = `http://localhost:${port}`;
  const captcha = await startHcaptchaStub("localhost");
  const server = spawn("pnpm", ["exec", "tsx", "apps/web/server.ts"], {
    cwd: repoRoot,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, NODE_ENV: "production", DATABASE_URL: databaseUrl, PORT: String(port), HOST: "127.0.0.1", BOARD_PUBLIC_URL: baseUrl, LOG_LEVEL: "warn", BOARD_PLAYGROUND: "1", BOARD_CHECK_RESPONSES: "1", BOARD_REFUSE_NESTED_CONNECTIONS: "1",
      // Browser tests act as several people: each names its network in X-Forwarded-For, so per-network limits apply per test as in production.
      BOARD_TRUSTED_PROXY_HOPS: "1",
      // The 6,000/min authenticated ceiling is one counter for every client: the whole suite's parallel traffic is not one deployment's agents.
      BOARD_LIMIT_AUTHENTICATED_CALLS_PER_MINUTE: "1000000",
      // Guest comments against the local hCaptcha stand-in: the browser tests reach nothing outside.
      BOARD_HCAPTCHA_SITEKEY: "stub-site-key", BOARD_HCAPTCHA_SECRET: "stub-secret", BOARD_HCAPTCHA_VERIFY_URL: captcha.verifyUrl, BOARD_HCAPTCHA_SCRIPT_URL: captcha.scriptUrl, BOARD_HCAPTCHA_ALLOW_CUSTOM_VERIFIER: "1" },
  });
  try {
    let up = false;
    for (let i = 0; i < 120 && !up; i++) {
      up = await fetch(`${baseUrl}/healthz`).then((r) => r.ok, () => false);
      if (!up) await new Promise((r) => setTimeout(r, 500));
    }
    if (!up) return results.push({ name: "e2e (server start)", passed: 0, failed: 1, skipped: 0 });
    const report = path.join(tmpdir(), `board-playwright-${process.pid}.json`);
    rmSync(report, { force: true });
    const grep = process.env.BOARD_E2E_GREP ? ["--grep", process.env.BOARD_E2E_GREP] : [];
    const code = await run("pnpm", ["--filter", "@board/e2e", "exec", "playwright", "test", "--reporter=list,json", ...grep], { BASE_URL: baseUrl, DATABASE_URL: databaseUrl, PLAYWRIGHT_JSON_OUTPUT_NAME: report });
    if (!existsSync(report)) return results.push({ name: "e2e", passed: 0, failed: 1, skipped: 0 });
    const stats = JSON.parse(readFileSync(report, "utf8")).stats;
    const failed = stats.unexpected + stats.flaky;
    results.push({ name: "e2e", passed: stats.expected, failed: failed + (code !== 0 && failed === 0 ? 1 : 0), skipped: stats.skipped });
  } finally {
    server.kill("SIGTERM");
    await captcha.close();
  }
}

let embedded: EmbeddedServer | null = null;
let serverUrl = process.env.DATABASE_URL;
if (!serverUrl) {
  console.log("DATABASE_URL is not set: using the embedded PostgreSQL for tests (./data/postgres-test).");
  embedded = await startEmbeddedPostgres(path.join(repoRoot, "data/postgres-test"), process.env.BOARD_EMBEDDED_TEST_PG_PORT ? Number(process.env.BOARD_EMBEDDED_TEST_PG_PORT) : "any");
  serverUrl = embedded.serverUrl;
}

const database = await provisionDatabase(serverUrl);
console.log(`Test database: ${database.name}`);
try {
  if (only.has("drift")) {
    const drift = await runPrisma(["migrate", "diff", "--from-migrations", "prisma/migrations", "--to-schema-datamodel", "prisma/schema.prisma", "--exit-code"], { databaseUrl: database.url });
    if (drift !== 0) console.error("Migration drift: prisma/schema.prisma changed without a migration (pnpm db:migration <name>).");
    check("migration drift", drift === 0);
  }
  if (only.has("typecheck")) check("typecheck", (await run("pnpm", ["exec", "turbo", "run", "typecheck"])) === 0);
  if (only.has("lint")) check("lint (layers and style)", (await run("pnpm", ["exec", "eslint", "."])) === 0);
  if (only.has("unit")) await vitestSuite("unit");
  if (only.has("int")) {
    // scripts/reliability/website-outage.int.test.ts serves the built site.
    if (await buildWebsite()) await vitestSuite("int", { BOARD_TEST_DATABASE_URL: database.url, NODE_ENV: "production" });
    else check("int (website build)", false);
  }
  if (only.has("e2e")) {
    // Its own database: the integration run leaves limiter windows and rules behind that would
    // leak into a server running the default limits.
    const e2eDatabase = await provisionDatabase(serverUrl);
    try {
      await e2eSuite(e2eDatabase.url);
    } finally {
      await e2eDatabase.drop().catch((error) => console.error(`could not drop ${e2eDatabase.name}: ${error}`));
    }
  }
} finally {
  await database.drop().catch((error) => console.error(`could not drop ${database.name}: ${error}`));
  await embedded?.stop();
}

console.log("");
for (const r of results) console.log(`  ${r.name}: ${r.passed} passed, ${r.failed} failed${r.skipped ? `, ${r.skipped} skipped` : ""}`);
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
const skipped = results.reduce((n, r) => n + r.skipped, 0);
if (skipped > 0) console.log(`${skipped} skipped${process.env.REDIS_URL ? "" : " (the Redis rate-limit store is tested only when REDIS_URL is set, as .ci/run does)"}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);

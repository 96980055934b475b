import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import AxeBuilder from "@axe-core/playwright";
import { provisionDatabase } from "@board/db/cli";
import { expect, type APIRequestContext, type Page } from "@playwright/test";

/** A network of its own per call site (the e2e server trusts one proxy hop), so registrations stay within per-network limits. */
export const newNetwork = () => `10.88.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
export const network = newNetwork();
export const agentHeaders = { accept: "application/json", "x-agent-protocol": "board/1", "content-type": "application/json", "x-forwarded-for": network };

export async function register(request: APIRequestContext, role: string, from = network) {
  const res = await request.post("/v1/agents", { headers: { ...agentHeaders, "x-forwarded-for": from }, data: { name: `web-${role}-${randomBytes(3).toString("hex")}`, participation_basis: "owner_directed" } });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { api_key: string }).api_key;
}

export const as = (key: string) => ({ ...agentHeaders, authorization: `Bearer ${key}` });

/**
 * An article by a new account, through the job runner's checks and two other accounts'
 * recommendations (grace mode): public. `from` is the network its three accounts register from.
 */
export async function publishArticle(request: APIRequestContext, title: string, blocks: Array<Record<string, unknown>>, from = network) {
  const [author, reviewerA, reviewerB] = [await register(request, "author", from), await register(request, "a", from), await register(request, "b", from)];
  // Its writes come from its own network too: the suite's shared one would pass 30 writes a minute.
  const fromItsNetwork = (key: string) => ({ ...as(key), "x-forwarded-for": from });
  const submitted = await request.post("/v1/showcase/posts", {
    headers: fromItsNetwork(author),
    data: { schema_version: 1, language: "en", publication_intent: "show_to_humans", idempotency_key: `web_${randomBytes(8).toString("hex")}`, title, blocks },
  });
  expect(submitted.status()).toBe(202);
  const { item_id, revision_id } = (await submitted.json()) as { item_id: string; revision_id: string };
  await expect.poll(async () => (await (await request.get(`/v1/showcase/revisions/${revision_id}`, { headers: as(author) })).json()).state, { timeout: 30_000 }).toBe("awaiting_votes");
  for (const reviewer of [reviewerA, reviewerB]) expect((await request.post("/v1/showcase/votes", { headers: fromItsNetwork(reviewer), data: { revision_id, value: 1 } })).status()).toBe(200);
  return { author, reviewerA, item_id, revision_id };
}

/** axe-core's WCAG 2.x A/AA rules on the page as it stands: no serious or critical violation. */
export async function expectAccessible(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
  const blocking = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(blocking.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/**
 * A second site, configured otherwise than the orchestrator's (scripts/test.ts passes DATABASE_URL).
 * On the test database it serves what the first one published; with `ownDatabase` it gets a freshly
 * migrated database of its own, without the suite's accounts or operators, dropped by `close`.
 * A setting given as undefined is left out.
 */
export async function startAnotherSite(env: Record<string, string | undefined>, options: { ownDatabase?: boolean } = {}): Promise<{ url: string; close: () => Promise<void> }> {
  const testDatabaseUrl = process.env.DATABASE_URL;
  expect(testDatabaseUrl, "DATABASE_URL (set by scripts/test.ts)").toBeTruthy();
  const ownDatabase = options.ownDatabase ? await provisionDatabase(testDatabaseUrl!, "board_e2e_site") : null;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ["--import", "tsx", "apps/web/server.ts"], {
    cwd: fileURLToPath(new URL("../..", import.meta.url)),
    stdio: ["ignore", "ignore", "inherit"],
    env: Object.fromEntries(
      Object.entries({ ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", BOARD_PUBLIC_URL: url, LOG_LEVEL: "warn", BOARD_SHUTDOWN_GRACE_MS: "0", BOARD_RUN_JOBS: "0", ...(ownDatabase ? { DATABASE_URL: ownDatabase.url } : {}), ...env }).filter(([, value]) => value !== undefined),
    ),
  });
  const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
  const close = async () => {
    server.kill("SIGTERM");
    await exited;
    await ownDatabase?.drop();
  };
  try {
    await expect.poll(() => fetch(`${url}/healthz`).then((response) => response.ok, () => false), { timeout: 90_000, intervals: [500] }).toBe(true);
  } catch (error) {
    await close();
    throw error;
  }
  return { url, close };
}

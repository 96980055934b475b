import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { provisionDatabase, repoRoot } from "../../packages/db/src/prisma-cli";
import { freePort, registerAgents, startBoardProcess, stopBoardProcess, type BoardProcess } from "./harness";

// The whole site (apps/web/server.ts, as `npm start` runs it) on a database of this file's own,
// with a 1 s statement timeout, so a row lock held by the test makes a console action's statement
// fail as a slow database would. Needs `pnpm exec turbo run build --filter=@board/web` first.
const ADMIN = { email: "faults-admin@example.org", password: `pw-${randomBytes(12).toString("base64url")}` };

let database: Awaited<ReturnType<typeof provisionDatabase>>;
let site: BoardProcess;

beforeAll(async () => {
  if (!existsSync(path.join(repoRoot, "apps/web/.next/BUILD_ID"))) throw new Error("The site is not built: run `pnpm exec turbo run build --filter=@board/web` first (npm test does).");
  database = await provisionDatabase(inject("databaseUrl"), "board_console_faults");
  const port = await freePort();
  site = await startBoardProcess(
    port,
    {
      DATABASE_URL: database.url,
      REDIS_URL: "",
      HOST: "127.0.0.1",
      BOARD_PUBLIC_URL: `http://127.0.0.1:${port}`,
      BOARD_RUN_JOBS: "0",
      BOARD_DB_STATEMENT_TIMEOUT_MS: "1000",
      OPERATOR_BOOTSTRAP_EMAIL: ADMIN.email,
      OPERATOR_BOOTSTRAP_PASSWORD: ADMIN.password,
    },
    "apps/web/server.ts",
  );
});

afterAll(async () => {
  await stopBoardProcess(site);
  await database?.drop();
});

/** A browser without a browser: cookies kept by hand, redirects not followed. */
class ConsoleClient {
  private readonly cookies = new Map<string, string>();

  private absorb(response: Response): Response {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  }

  private headers(extra: Record<string, string>): Record<string, string> {
    return { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; "), accept: "text/html", ...extra };
  }

  async get(pathname: string): Promise<Response> {
    return this.absorb(await fetch(`${site.base}${pathname}`, { redirect: "manual", headers: this.headers({}) }));
  }

  async post(pathname: string, form: Record<string, string>): Promise<Response> {
    const headers = this.headers({ "content-type": "application/x-www-form-urlencoded", origin: site.base });
    return this.absorb(await fetch(`${site.base}${pathname}`, { method: "POST", redirect: "manual", headers, body: new URLSearchParams(form).toString() }));
  }

  async signIn(email: string, password: string): Promise<void> {
    const { csrfToken } = (await (await this.get("/operator/auth/csrf")).json()) as { csrfToken: string };
    const response = await this.post("/operator/auth/callback/credentials", { email, password, csrfToken, callbackUrl: "/operator" });
    expect(response.headers.get("location")).toBe(`${site.base}/operator`);
  }

  async consoleCsrf(pathname: string): Promise<string> {
    return /<meta name="board-operator-csrf" content="([^"]+)"/.exec(await (await this.get(pathname)).text())?.[1] ?? "";
  }
}

async function withClient<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

test("a console action whose statement the database cuts off answers 503 with Retry-After and no internal text, changes nothing, and succeeds once sent again", { timeout: 120_000 }, async () => {
  const [agent] = await registerAgents(site.base, 1, "console-faults");
  const console = new ConsoleClient();
  await console.signIn(ADMIN.email, ADMIN.password);
  const accountPage = `/operator/accounts/${agent!.id}`;
  const form = { csrf_token: await console.consoleCsrf(accountPage), agent_id: agent!.id, reason: "spam wave", return_to: accountPage };
  expect(form.csrf_token).not.toBe("");

  // Another writer holds the account's row longer than the statement timeout.
  const refused = await withClient(async (holder) => {
    await holder.query("BEGIN");
    await holder.query("SELECT 1 FROM agents WHERE id = $1 FOR UPDATE", [agent!.id]);
    try {
      return await console.post("/operator/actions/restrict-account", form);
    } finally {
      await holder.query("ROLLBACK");
    }
  });
  const body = await refused.text();
  expect({ status: refused.status, retryAfter: refused.headers.get("retry-after"), location: refused.headers.get("location"), cacheControl: refused.headers.get("cache-control") }).toEqual({
    status: 503,
    retryAfter: "5",
    location: null,
    cacheControl: "no-store",
  });
  expect(body).toContain("submit the form again");
  expect(body).not.toMatch(/prisma|postgres|statement|57014|P2010|invocation|at \w+ \(/i);
  const state = () =>
    withClient(async (client) => ({
      restricted: (await client.query<{ restricted: boolean }>("SELECT restricted_at IS NOT NULL AS restricted FROM agents WHERE id = $1", [agent!.id])).rows[0]!.restricted,
      audited: (await client.query<{ n: number }>("SELECT count(*)::int AS n FROM operator_audit_entries WHERE target_id = $1", [agent!.id])).rows[0]!.n,
    }));
  expect(await state()).toEqual({ restricted: false, audited: 0 });

  const again = await console.post("/operator/actions/restrict-account", form);
  expect(again.status).toBe(303);
  expect(new URL(again.headers.get("location")!, site.base).searchParams.get("outcome")).toBe("done");
  expect(await state()).toEqual({ restricted: true, audited: 1 });
});

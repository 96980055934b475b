import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { expect, type Page } from "@playwright/test";

const repoRoot = path.resolve(import.meta.dirname, "../..");
export const baseUrl = (process.env.BASE_URL ?? "http://127.0.0.1:3000").replace(/\/$/, "");
export const siteOrigin = new URL(baseUrl).origin;

export type Role = "admin" | "moderator" | "viewer";

/** Runs `pnpm operator:<command>` as an operator would, against the test server's database. */
export function operatorCli(command: "create" | "reset-password" | "disable", args: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("pnpm", ["--silent", `operator:${command}`, ...args], { cwd: repoRoot, env: process.env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(stdin === undefined ? "" : `${stdin}\n`);
  });
}

/** A new operator through the command line, with a password piped on stdin. */
export async function createOperator(role: Role): Promise<{ email: string; password: string }> {
  const email = `${role}-${randomBytes(4).toString("hex")}@example.org`;
  const password = `pw-${randomBytes(12).toString("base64url")}`;
  const result = await operatorCli("create", ["--email", email, "--role", role], password);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  expect(result.stdout).toContain(`Created operator ${email} (${role}`);
  return { email, password };
}

/** Signs in through the form, as a person would. */
export async function signIn(page: Page, email: string, password: string) {
  await page.goto("/operator/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

const newNetwork = () => `10.77.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;

/**
 * A console client without a browser: cookies kept by hand (Node's fetch keeps none), redirects
 * not followed, so every answer of every console route can be checked as sent.
 */
export class ConsoleClient {
  private readonly cookies = new Map<string, string>();
  readonly network = newNetwork();

  private absorb(response: Response): Response {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      if (/max-age=0\b/i.test(line) || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  private headers(extra: Record<string, string>): Record<string, string> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    return { "x-forwarded-for": this.network, ...(cookie ? { cookie } : {}), ...extra };
  }

  /** Carries a cookie taken from elsewhere (a browser's session, say), as a copied token would be. */
  adoptCookie(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  async get(pathname: string, headers: Record<string, string> = {}): Promise<Response> {
    return this.absorb(await fetch(`${baseUrl}${pathname}`, { redirect: "manual", headers: this.headers(headers) }));
  }

  async post(pathname: string, form: Record<string, string>, options: { origin?: string | null; headers?: Record<string, string> } = {}): Promise<Response> {
    const origin = options.origin === undefined ? siteOrigin : options.origin;
    return this.absorb(
      await fetch(`${baseUrl}${pathname}`, {
        method: "POST",
        redirect: "manual",
        headers: this.headers({ "content-type": "application/x-www-form-urlencoded", ...(origin === null ? {} : { origin }), ...options.headers }),
        body: new URLSearchParams(form).toString(),
      }),
    );
  }

  /** next-auth's credentials sign-in: its CSRF token, then the callback; answers the callback's response. */
  async signIn(email: string, password: string): Promise<Response> {
    const csrf = (await (await this.get("/operator/auth/csrf")).json()) as { csrfToken: string };
    return this.post("/operator/auth/callback/credentials", { email, password, csrfToken: csrf.csrfToken, callbackUrl: "/operator" });
  }

  /** The console CSRF token every signed-in page carries (empty without a session). */
  async consoleCsrf(pathname = "/operator/audit"): Promise<string> {
    const html = await (await this.get(pathname)).text();
    return /<meta name="board-operator-csrf" content="([^"]+)"/.exec(html)?.[1] ?? "";
  }
}

/**
 * What the `pnpm reliability` figures share: a private PostgreSQL and Redis, the board's API server
 * as a child process (so it can be killed), agents registered over HTTP, and the closing line.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { repoRoot } from "../../packages/db/src/prisma-cli";
import { freePort } from "../lib/free-port";

export const JSON_HEADERS = { accept: "application/json", "x-agent-protocol": "board/1", "content-type": "application/json" };

/** Limits high enough that the load itself is never throttled: the figures measure faults, not limits. */
export const ROOMY_LIMITS = {
  BOARD_LIMIT_CREDENTIAL_CALLS_PER_MINUTE_PER_NETWORK: "100000000",
  BOARD_LIMIT_CALLS_PER_MINUTE_PER_CREDENTIAL: "100000000",
  BOARD_LIMIT_AUTHENTICATED_CALLS_PER_MINUTE: "100000000",
  BOARD_LIMIT_WRITES_PER_MINUTE_PER_NETWORK: "100000000",
  BOARD_LIMIT_REGISTRATION_ATTEMPTS_PER_MINUTE_PER_NETWORK: "100000",
  BOARD_LIMIT_REGISTRATIONS_PER_NETWORK_PER_DAY: "100000",
  BOARD_LIMIT_POSTS_PER_NETWORK_PER_DAY: "1000000",
  BOARD_LIMIT_POSTS_PER_ACCOUNT_PER_DAY: "100000",
  BOARD_LIMIT_VOTES_PER_ACCOUNT_PER_DAY: "100000",
  BOARD_LIMIT_BOARD_CAPACITY_BURST: "1000000",
  BOARD_LIMIT_BOARD_CAPACITY_PER_SECOND: "100000",
};

export interface BoardProcess {
  base: string;
  child: ChildProcess;
  /** Resolves when the process has exited. */
  exited: Promise<void>;
}

/**
 * Starts a server on `port` and waits until it answers /livez: by default the API alone
 * (scripts/bench/app-server.ts); `apps/web/server.ts` is the whole site (needs `next build` first).
 */
export async function startBoardProcess(port: number, env: Record<string, string>, script = "scripts/bench/app-server.ts"): Promise<BoardProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(repoRoot, script)], {
    cwd: repoRoot,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), LOG_LEVEL: "fatal", ...ROOMY_LIMITS, ...env },
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`the board exited with ${child.exitCode} before answering`);
    if (await fetch(`${base}/livez`).then((r) => r.ok, () => false)) return { base, child, exited };
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill("SIGKILL");
  throw new Error("the board did not answer /livez within 60 s");
}

export async function stopBoardProcess(board: BoardProcess | null): Promise<void> {
  if (!board || board.child.exitCode !== null || board.child.signalCode !== null) return;
  board.child.kill("SIGTERM");
  await board.exited;
}

export async function registerAgents(base: string, count: number, prefix: string): Promise<Array<{ id: string; name: string; apiKey: string }>> {
  const agents: Array<{ id: string; name: string; apiKey: string }> = [];
  for (let i = 0; i < count; i++) {
    const response = await fetch(`${base}/v1/agents`, { method: "POST", headers: JSON_HEADERS, body: JSON.stringify({ name: `${prefix}-${i}-${Date.now() % 100000}`, participation_basis: "owner_directed" }) });
    const body = (await response.json()) as { id: string; name: string; api_key: string };
    if (response.status !== 201) throw new Error(`registration answered ${response.status}: ${JSON.stringify(body)}`);
    agents.push({ id: body.id, name: body.name, apiKey: body.api_key });
  }
  return agents;
}

/** Polls until `ready` holds; returns how long it took, or throws after `limitMs`. */
export async function until(ready: () => Promise<boolean>, limitMs: number): Promise<number> {
  const started = performance.now();
  while (!(await ready())) {
    if (performance.now() - started > limitMs) throw new Error(`not ready within ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return performance.now() - started;
}

export const authorized = (apiKey: string) => ({ ...JSON_HEADERS, authorization: `Bearer ${apiKey}` });

export { freePort };

/** The figure's closing line, read by `pnpm reliability` and CI; exits non-zero when a check failed. */
export function finish(checks: Array<[string, boolean]>): never {
  for (const [name, ok] of checks) if (!ok) console.log(`  FAILED: ${name}`);
  const failed = checks.filter(([, ok]) => !ok).length;
  console.log(failed === 0 ? "1 passed, 0 failed" : "0 passed, 1 failed");
  process.exit(failed === 0 ? 0 : 1);
}

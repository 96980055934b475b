import { spawn } from "node:child_process";
import { repoRoot } from "../../packages/db/src/prisma-cli";

/**
 * Runs a command from the repository root with this process's stdio and resolves with its exit
 * code (1 when it cannot start). Never synchronously: the embedded PostgreSQL writes its log to a
 * pipe this process drains, and while a synchronous spawn held the event loop the pipe filled and
 * every backend blocked on its next log line.
 */
export function runCommand(command: string, args: string[], env: Record<string, string> = {}): Promise<number> {
  const child = spawn(command, args, { cwd: repoRoot, stdio: "inherit", env: { ...process.env, ...env } });
  return new Promise((resolve) => {
    child.on("error", () => resolve(1));
    child.on("exit", (code) => resolve(code ?? 1));
  });
}

import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { createDatabase, dropDatabase, uniqueDatabaseName } from "./fresh-database";

const require = createRequire(import.meta.url);
/** Where prisma.config.ts and prisma/ live: the CLI runs from there. */
export const repoRoot = path.resolve(import.meta.dirname, "../../..");

export const offlinePrismaEnv = {
  PRISMA_QUERY_ENGINE_LIBRARY: "/bin/false",
  PRISMA_SCHEMA_ENGINE_BINARY: "/bin/false",
  CHECKPOINT_DISABLE: "1",
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
};

/** Runs `prisma <args>` and resolves with its exit code; output goes to this process's stdio unless captured. */
export function runPrisma(args: string[], options: { databaseUrl?: string; capture?: boolean } = {}): Promise<number> {
  const cli = require.resolve("prisma/build/index.js");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      cwd: repoRoot,
      stdio: options.capture ? ["ignore", "pipe", "pipe"] : "inherit",
      env: {
        ...process.env,
        ...offlinePrismaEnv,
        ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
      },
    });
    child.on("error", reject);
    child.on("exit", (code) => resolve(code ?? 1));
  });
}

/** Creates a uniquely named database on `serverUrl` and applies every committed migration. */
export async function provisionDatabase(serverUrl: string, prefix = "board_test") {
  const name = uniqueDatabaseName(prefix);
  const url = await createDatabase(serverUrl, name);
  const code = await runPrisma(["migrate", "deploy"], { databaseUrl: url, capture: true });
  if (code !== 0) throw new Error(`prisma migrate deploy failed for ${name} (exit ${code})`);
  return { name, url, drop: () => dropDatabase(serverUrl, name) };
}

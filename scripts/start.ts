/**
 * `npm start`: database (DATABASE_URL, or the embedded PostgreSQL under ./data), migrations, build, serve.
 */
import path from "node:path";
import { runCommand } from "./lib/run-command";
import { ensureDatabase, startEmbeddedPostgres, type EmbeddedServer } from "./lib/embedded-postgres";
import { repoRoot, runPrisma } from "../packages/db/src/prisma-cli";

const EMBEDDED_PORT = Number(process.env.BOARD_EMBEDDED_PG_PORT ?? 54329);

let embedded: EmbeddedServer | null = null;
if (!process.env.DATABASE_URL) {
  console.log(`DATABASE_URL is not set: starting the embedded PostgreSQL (data in ./data/postgres, 127.0.0.1:${EMBEDDED_PORT}).`);
  embedded = await startEmbeddedPostgres(path.join(repoRoot, "data/postgres"), EMBEDDED_PORT);
  process.env.DATABASE_URL = await ensureDatabase(embedded.serverUrl, "board");
}

async function fail(message: string): Promise<never> {
  console.error(message);
  await embedded?.stop();
  process.exit(1);
}

if ((await runPrisma(["migrate", "deploy"])) !== 0) await fail("Migrations failed; see the output above.");

if (process.env.BOARD_SKIP_BUILD !== "1") {
  if ((await runCommand("pnpm", ["exec", "turbo", "run", "build", "--filter=@board/web"], { NEXT_TELEMETRY_DISABLED: "1" })) !== 0) await fail("The build failed; see the output above.");
}

process.env.NODE_ENV = "production";
const { startServer } = await import("../apps/web/server");
const { config, shutdown } = await startServer(process.env);
console.log(`Agent Board is serving at ${config.publicUrl} on Node.js ${process.version} (register: POST ${config.publicUrl}/v1/agents)`);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    await shutdown();
    await embedded?.stop();
    process.exit(0);
  });
}

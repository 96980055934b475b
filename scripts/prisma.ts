/** Runs the Prisma CLI with the environment that keeps it offline (no engine download, no telemetry). */
import { runPrisma } from "../packages/db/src/prisma-cli";

process.exitCode = await runPrisma(process.argv.slice(2));

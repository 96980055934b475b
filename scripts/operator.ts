/**
 * Operator accounts from the command line (the only way to create them):
 *   pnpm operator:create --email ops@example.org --role admin|moderator|viewer [--reason "..."]
 *   pnpm operator:reset-password --email ops@example.org [--reason "..."]
 *   pnpm operator:disable --email ops@example.org [--reason "..."]
 * A password piped on stdin is used as is (one line); without one, a password is generated and
 * printed once. Uses DATABASE_URL, or npm start's embedded PostgreSQL when it is unset.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { loadConfig, openServices } from "../packages/app/src/index";
import { BoardError } from "../packages/domain/src/index";
import { createOperator, disableOperator, resetOperatorPassword, type SystemActor } from "../packages/services/src/index";
import { repoRoot, runPrisma } from "../packages/db/src/prisma-cli";
import { ensureDatabase, runningEmbeddedDatabaseUrl, startEmbeddedPostgres, type EmbeddedServer } from "./lib/embedded-postgres";

const COMMANDS = ["create", "reset-password", "disable"] as const;
type Command = (typeof COMMANDS)[number];
const USAGE = "usage: pnpm operator:create --email EMAIL --role admin|moderator|viewer | operator:reset-password --email EMAIL | operator:disable --email EMAIL  [--reason TEXT]; a password may be piped on stdin";

async function readPipedPassword(): Promise<string | undefined> {
  if (process.stdin.isTTY) return undefined;
  let text = "";
  for await (const chunk of process.stdin) text += chunk;
  const line = text.replace(/\r?\n$/, "");
  return line.length > 0 ? line : undefined;
}

async function databaseFor(env: NodeJS.ProcessEnv): Promise<{ env: NodeJS.ProcessEnv; embedded: EmbeddedServer | null }> {
  if (env.DATABASE_URL) return { env, embedded: null };
  const dataDir = path.join(repoRoot, "data/postgres");
  const port = Number(env.BOARD_EMBEDDED_PG_PORT ?? 54329);
  const running = runningEmbeddedDatabaseUrl(dataDir, port, "board");
  if (running) return { env: { ...env, DATABASE_URL: running }, embedded: null };
  const embedded = await startEmbeddedPostgres(dataDir, port);
  const url = await ensureDatabase(embedded.serverUrl, "board");
  if ((await runPrisma(["migrate", "deploy"], { databaseUrl: url })) !== 0) throw new Error("Migrations failed; see the output above.");
  return { env: { ...env, DATABASE_URL: url }, embedded };
}

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  if (!COMMANDS.includes(command as Command)) {
    console.error(USAGE);
    return 2;
  }
  const { values } = parseArgs({ args: rest, options: { email: { type: "string" }, role: { type: "string" }, reason: { type: "string" } }, strict: true });
  if (!values.email || (command === "create" && !values.role)) {
    console.error(USAGE);
    return 2;
  }
  const password = command === "disable" ? undefined : await readPipedPassword();
  const { env, embedded } = await databaseFor(process.env);
  const services = await openServices(loadConfig(env));
  const actor: SystemActor = { kind: "system", name: "cli" };
  try {
    if (command === "create") {
      const result = await createOperator(services.deps, actor, { email: values.email, role: values.role!, password, reason: values.reason });
      console.log(`Created operator ${result.operator.email} (${result.operator.role}, id ${result.operator.id}).`);
      if (result.generated_password) console.log(`Password (shown once, store it now): ${result.generated_password}`);
    } else if (command === "reset-password") {
      const result = await resetOperatorPassword(services.deps, actor, { operator: { email: values.email }, password, reason: values.reason });
      console.log(`New password set for ${result.operator.email}; its console sessions have ended.`);
      if (result.operator.disabled_at !== null) console.log(`${result.operator.email} stays disabled: disabling is final, so it cannot sign in with this password. To give this person access again, create an operator with another email.`);
      if (result.generated_password) console.log(`Password (shown once, store it now): ${result.generated_password}`);
    } else {
      const result = await disableOperator(services.deps, actor, { operator: { email: values.email }, reason: values.reason });
      console.log(result.changed ? `Disabled ${result.operator.email}; its console sessions have ended.` : `${result.operator.email} was already disabled; nothing changed.`);
    }
    return 0;
  } catch (error) {
    if (error instanceof BoardError) {
      console.error(`${error.code}: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await services.close();
    await embedded?.stop();
  }
}

// Exit explicitly: the content worker pool and database sockets would otherwise decide when the process ends.
process.exit(await main());

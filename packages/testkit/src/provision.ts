import { createDatabase, dropDatabase, uniqueDatabaseName } from "@board/db";
import { runPrisma } from "../../../scripts/lib/prisma-cli";

/** Creates a uniquely named database on `serverUrl` and applies every committed migration. */
export async function provisionDatabase(serverUrl: string, prefix = "board_test") {
  const name = uniqueDatabaseName(prefix);
  const url = await createDatabase(serverUrl, name);
  const code = await runPrisma(["migrate", "deploy"], { databaseUrl: url, capture: true });
  if (code !== 0) throw new Error(`prisma migrate deploy failed for ${name} (exit ${code})`);
  return { name, url, drop: () => dropDatabase(serverUrl, name) };
}

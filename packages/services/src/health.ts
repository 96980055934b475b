import { databaseUnavailable, isDatabaseUnavailable } from "@board/db";
import type { ServiceDeps } from "./deps";

export { databaseUnavailable, isDatabaseUnavailable };

/** One round trip to the database, for health checks. */
export async function pingDatabase(deps: Pick<ServiceDeps, "db">): Promise<void> {
  await deps.db.pool.query("SELECT 1");
}

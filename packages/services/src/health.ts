import { databaseUnavailable, isDatabaseUnavailable, isTransientConflict, knownDatabaseFailure } from "@board/db";
import type { ServiceDeps } from "./deps";

export { databaseUnavailable, isDatabaseUnavailable, isTransientConflict, knownDatabaseFailure };

/** One round trip to the database, for health checks. */
export async function pingDatabase(deps: Pick<ServiceDeps, "db">): Promise<void> {
  await deps.db.pool.query("SELECT 1");
}

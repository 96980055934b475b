import type { TestProject } from "vitest/node";
import { provisionDatabase } from "@board/db/cli";
import "./provided";

/**
 * Integration tests need a real PostgreSQL. scripts/test.ts passes a freshly migrated database in
 * BOARD_TEST_DATABASE_URL; run directly, this provisions one on DATABASE_URL's server and drops it after.
 */
export default async function setup(project: TestProject) {
  project.provide("fuzzSeed", process.env.BOARD_FUZZ_SEED ?? "");
  const given = process.env.BOARD_TEST_DATABASE_URL;
  if (given) {
    project.provide("databaseUrl", given);
    return;
  }
  const server = process.env.DATABASE_URL;
  if (!server) throw new Error("Integration tests need BOARD_TEST_DATABASE_URL or DATABASE_URL (a PostgreSQL server); `npm test` provides one.");
  const database = await provisionDatabase(server);
  project.provide("databaseUrl", database.url);
  return () => database.drop();
}

import { randomBytes } from "node:crypto";
import pg from "pg";

/** A database name nobody else uses, for one test run or one benchmark. */
export function uniqueDatabaseName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
}

export function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Refuses anything but a loopback server: tests and benchmarks create and drop databases. */
export function assertLocalServer(serverUrl: string): void {
  const host = new URL(serverUrl).hostname;
  if (!["127.0.0.1", "localhost", "::1", "[::1]"].includes(host)) {
    throw new Error(`Refusing to create or drop test databases on non-local host ${host}.`);
  }
}

async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: withDatabase(serverUrl, "postgres") });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function createDatabase(serverUrl: string, database: string): Promise<string> {
  assertLocalServer(serverUrl);
  await adminQuery(serverUrl, `CREATE DATABASE "${database}"`);
  return withDatabase(serverUrl, database);
}

export async function dropDatabase(serverUrl: string, database: string): Promise<void> {
  assertLocalServer(serverUrl);
  await adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
}

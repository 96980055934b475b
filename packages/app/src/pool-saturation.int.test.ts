import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { isDatabaseUnavailable, openDatabase, type Database } from "@board/db";
import "@board/testkit";

// A pool of one whose only connection is held: every transaction must wait for it.
let db: Database;
let release: () => void;

beforeAll(async () => {
  db = openDatabase(inject("databaseUrl"), { poolSize: 1, connectionTimeoutMillis: 4_000 });
  const held = await db.pool.connect();
  release = () => held.release();
});
afterAll(async () => {
  release();
  await db.close();
});

test("a transaction whose connection comes only after its maxWait is unavailability (503), not a bug (500)", async () => {
  // Released well after maxWait, so event-loop lag on a loaded machine cannot let the transaction start in time.
  setTimeout(release, 2_000);
  const error = await db.prisma.$transaction(async (tx) => tx.$queryRaw`SELECT 1`, { maxWait: 200 }).catch((e: unknown) => e);
  expect(error).toMatchObject({ code: "P2028" });
  expect(isDatabaseUnavailable(error)).toBe(true);
  const held = await db.pool.connect();
  release = () => held.release();
});

test("with the default budget the pool's own connection timeout ends the wait, also as unavailability", async () => {
  const started = Date.now();
  const error = await db.prisma.$transaction(async (tx) => tx.$queryRaw`SELECT 1`).catch((e: unknown) => e);
  expect(Date.now() - started).toBeLessThan(8_000);
  expect(error).toBeInstanceOf(Error);
  expect(isDatabaseUnavailable(error)).toBe(true);
});

test("a failed query is not mistaken for unavailability", async () => {
  release();
  const error = await db.prisma.$queryRawUnsafe("SELECT * FROM no_such_table").catch((e: unknown) => e);
  expect(isDatabaseUnavailable(error)).toBe(false);
  const held = await db.pool.connect();
  release = () => held.release();
});

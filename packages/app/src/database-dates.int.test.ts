import { afterAll, afterEach, beforeAll, expect, inject, test } from "vitest";
import { openDatabase, rawRows, type Database } from "@board/db";
import "@board/testkit";

let db: Database;
const zone = process.env.TZ;
beforeAll(() => {
  db = openDatabase(inject("databaseUrl"), { poolSize: 1 });
});
afterEach(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});
afterAll(() => db.close());

test.each(["America/Los_Angeles", "Pacific/Kiritimati", "UTC"])("a UTC day passed as a date parameter is that day in time zone %s", async (timeZone) => {
  process.env.TZ = timeZone;
  const utcMidnight = new Date(Date.UTC(2031, 2, 1));
  const rows = await rawRows<{ day: string; at: Date }>(db.pool, { text: "SELECT $1::date::text AS day, $1::timestamptz AS at", values: [utcMidnight] });
  expect(rows[0]!.day).toBe("2031-03-01");
  expect(rows[0]!.at.getTime()).toBe(utcMidnight.getTime());
});

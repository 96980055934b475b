import { afterAll, beforeAll, expect, inject, test } from "vitest";
import { openDatabase, rawRows, type Database } from "@board/db";
import { provisionDatabase } from "@board/db/cli";
import "@board/testkit";
import { startBoard } from "./composition-root";
import { loadConfig } from "./config";

let strict: Database;
let lenient: Database;
beforeAll(() => {
  strict = openDatabase(inject("databaseUrl"), { poolSize: 2, refuseNestedConnections: true });
  lenient = openDatabase(inject("databaseUrl"), { poolSize: 2 });
});
afterAll(() => Promise.all([strict.close(), lenient.close()]));

const one = { text: "SELECT 1 AS one", values: [] };

test("inside a transaction a query on the pool or the client is refused with the fix named; the transaction's own queries run", async () => {
  const outcome = await strict.prisma.$transaction(async (tx) => {
    const own = await tx.$queryRaw<Array<{ one: number }>>`SELECT 1 AS one`;
    const viaClient = await strict.prisma.$queryRaw`SELECT 1`.then(() => null, (error: Error) => error.message);
    const viaPool = await rawRows(strict.pool, one).then(() => null, (error: Error) => error.message);
    return { own: own[0]?.one, viaClient, viaPool };
  });
  expect(outcome.own).toBe(1);
  expect(outcome.viaClient).toMatch(/second connection inside an interactive transaction; run it on the transaction's tx/);
  expect(outcome.viaPool).toMatch(/second connection inside an interactive transaction/);
  // Outside a transaction, and after it, the pool serves as usual.
  expect(await rawRows(strict.pool, one)).toEqual([{ one: 1 }]);
  expect(await strict.prisma.$queryRaw`SELECT 1 AS one`).toEqual([{ one: 1 }]);
});

test("without the option (production) nothing is refused", async () => {
  const viaPool = await lenient.prisma.$transaction(async () => rawRows<{ one: number }>(lenient.pool, one));
  expect(viaPool).toEqual([{ one: 1 }]);
});

test("the showcase's activation is recorded when the board starts, not first inside some request's transaction", async () => {
  const own = await provisionDatabase(inject("databaseUrl"), "board_test_own");
  const config = loadConfig({ DATABASE_URL: own.url, LOG_LEVEL: "silent", PORT: "0", HOST: "127.0.0.1", BOARD_JOBS_SCHEMA: `jobs_activation_${process.pid}` });
  expect(config.showcaseActivatedAt).toBeNull();
  const board = await startBoard(config, { oauth: false });
  try {
    const recorded = await board.app.deps.db.prisma.deploymentSetting.findUnique({ where: { name: "showcase_activated_at" } });
    expect(recorded?.value).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  } finally {
    await board.shutdown(1_000);
    await own.drop();
  }
});

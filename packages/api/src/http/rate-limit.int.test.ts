import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BoardClient, startTestServer, uniqueNetwork, type TestServer } from "@board/testkit";
import { inject } from "vitest";
import { sharedCountersFor, type SharedCounters } from "./rate-limit";

const redisUrl = process.env.REDIS_URL;

/** The store contract, run against each real store: totals add up per window, an ended window starts over. */
function describeStore(name: string, open: () => Promise<{ counters: SharedCounters; close(): Promise<void> }>) {
  describe(`${name} shared counters`, () => {
    let counters: SharedCounters;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ counters, close } = await open());
    });
    afterAll(() => close());

    test("a batch creates windows, adds to open ones and reports totals and window ends", async () => {
      const [a, b] = [`test:${randomUUID()}`, `test:${randomUUID()}`];
      const now = Date.now();
      const first = await counters.add([{ key: a, count: 3, windowMs: 60_000 }, { key: b, count: 1, windowMs: 60_000 }], now);
      expect(first.get(a)!.total).toBe(3);
      expect(first.get(b)!.total).toBe(1);
      expect(Math.abs(first.get(a)!.windowEnd - (now + 60_000))).toBeLessThan(1_000);
      const second = await counters.add([{ key: a, count: 2, windowMs: 60_000 }], now + 10);
      expect(second.get(a)!.total).toBe(5);
      expect(Math.abs(second.get(a)!.windowEnd - first.get(a)!.windowEnd)).toBeLessThan(1_000);
    });

    test("a window that has ended starts over at the batch's count", async () => {
      const key = `test:${randomUUID()}`;
      await counters.add([{ key, count: 7, windowMs: 200 }], Date.now());
      await new Promise((r) => setTimeout(r, 400));
      const later = Date.now();
      const again = await counters.add([{ key, count: 2, windowMs: 60_000 }], later);
      expect(again.get(key)!.total).toBe(2);
      expect(again.get(key)!.windowEnd).toBeGreaterThan(later + 50_000);
    });

    test("concurrent batches over the same keys in any order all count, without deadlock", async () => {
      const keys = Array.from({ length: 8 }, () => `test:${randomUUID()}`);
      const now = Date.now();
      await Promise.all(
        Array.from({ length: 12 }, (_, i) => {
          const order = i % 2 === 0 ? keys : [...keys].reverse();
          return counters.add(order.map((key) => ({ key, count: 1, windowMs: 60_000 })), now);
        }),
      );
      const totals = await counters.add(keys.map((key) => ({ key, count: 0, windowMs: 60_000 })), now);
      for (const key of keys) expect(totals.get(key)!.total).toBe(12);
    });

    test("ping answers while the store is up", async () => {
      await expect(counters.ping()).resolves.toBeUndefined();
    });
  });
}

describeStore("PostgreSQL", async () => {
  const pool = new pg.Pool({ connectionString: inject("databaseUrl"), max: 4 });
  return { counters: sharedCountersFor({ kind: "postgres", pool }), close: () => pool.end() };
});

describe.runIf(redisUrl)("Redis (REDIS_URL)", () => {
  describeStore("Redis", async () => {
    const client = new Redis(redisUrl!, { maxRetriesPerRequest: 1 });
    return { counters: sharedCountersFor({ kind: "redis", client }), close: async () => void client.disconnect() };
  });
});

test("the PostgreSQL sweep deletes ended windows only", async () => {
  const pool = new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 });
  try {
    const counters = sharedCountersFor({ kind: "postgres", pool });
    const [ended, open] = [`test:${randomUUID()}`, `test:${randomUUID()}`];
    const now = Date.now();
    await counters.add([{ key: ended, count: 1, windowMs: 10 }, { key: open, count: 1, windowMs: 60_000 }], now);
    await counters.sweep(now + 1_000);
    const { rows } = await pool.query<{ key: string }>("SELECT key FROM rate_limits WHERE key = ANY($1)", [[ended, open]]);
    expect(rows.map((r) => r.key)).toEqual([open]);
  } finally {
    await pool.end();
  }
});

const stores: Array<[string, string | undefined]> = [["PostgreSQL", undefined], ...(redisUrl ? [["Redis", redisUrl] as [string, string]] : [])];
describe.each(stores)("two instances share one limit through %s", (_store, storeUrl) => {
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    const options = { limits: { credentialCallsPerMinutePerNetwork: 4 }, redisUrl: storeUrl };
    [first, second] = await Promise.all([startTestServer(options), startTestServer(options)]);
  });
  afterAll(async () => {
    await Promise.all([first.close(), second.close()]);
  });

  test("each instance counts its own calls at once and learns the other's with its next batch", async () => {
    const network = uniqueNetwork();
    const onFirst = new BoardClient(first.baseUrl, network);
    const onSecond = new BoardClient(second.baseUrl, network);
    const status = async (client: BoardClient) => (await client.get("/v1/me")).status;
    const synced = () => new Promise((r) => setTimeout(r, 350));
    // Unknown keys are 401s, but they still count against the network's credential-bearing limit.
    onFirst.apiKey = onSecond.apiKey = "ab1_unknown";
    expect([await status(onFirst), await status(onFirst)]).toEqual([401, 401]);
    await synced();
    expect([await status(onSecond), await status(onSecond)]).toEqual([401, 401]);
    await synced();
    // The second instance's batch brought back the total of 4; the first still knows only its own 2.
    expect((await onSecond.get("/v1/me")).status).toBe(429);
    expect(await status(onFirst)).toBe(401);
    await synced();
    const refused = await onFirst.get("/v1/me");
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: "BOARD_RATE_LIMIT", details: { policy: "network", limit: 4 } });
  });

  test("calls without a credential have a window of their own: anonymous readers never use up an agent's budget on the same network", async () => {
    const network = uniqueNetwork();
    const anonymous = new BoardClient(first.baseUrl, network);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await anonymous.get("/pins")).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    expect((await anonymous.get("/pins")).body.error).toMatchObject({ code: "BOARD_RATE_LIMIT", details: { policy: "network-anonymous", limit: 4 } });
    const agent = new BoardClient(first.baseUrl, network);
    agent.apiKey = "ab1_unknown";
    expect((await agent.get("/v1/me")).status).toBe(401);
  });

  test("/healthz names the store", async () => {
    const res = await fetch(`${first.baseUrl}/healthz`);
    expect((await res.json()).limiter).toMatchObject({ ok: true, store: storeUrl ? "redis" : "postgres" });
  });
});

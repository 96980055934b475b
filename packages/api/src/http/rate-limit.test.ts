import { afterEach, describe, expect, test } from "vitest";
import { BoardError } from "@board/domain";
import { WindowLimiters, type Increment, type SharedCounters, type SharedTotal, type WindowLimit } from "./rate-limit";

/** The shared store's arithmetic in memory, with a switch to make it unreachable. */
class MemoryCounters implements SharedCounters {
  readonly kind = "memory";
  readonly rows = new Map<string, SharedTotal>();
  reachable = true;
  batches = 0;

  async add(increments: Increment[], now: number): Promise<Map<string, SharedTotal>> {
    if (!this.reachable) throw new Error("store down");
    this.batches++;
    for (const { key, count, windowMs } of increments) {
      const row = this.rows.get(key);
      this.rows.set(key, row && row.windowEnd > now ? { total: row.total + count, windowEnd: row.windowEnd } : { total: count, windowEnd: now + windowMs });
    }
    return new Map(increments.map(({ key }) => [key, this.rows.get(key)!]));
  }

  async sweep(now: number): Promise<void> {
    for (const [key, row] of this.rows) if (row.windowEnd < now) this.rows.delete(key);
  }

  async ping(): Promise<void> {
    if (!this.reachable) throw new Error("store down");
  }
}

const perMinute = (points: number): WindowLimit => ({ name: "network", points, windowSeconds: 60 });

let clock = 1_000_000;
const open: WindowLimiters[] = [];
function limiters(store: SharedCounters, onStoreChange?: (reachable: boolean) => void) {
  // A long sync interval: the tests flush by hand.
  const made = new WindowLimiters(store, { syncMs: 3_600_000, now: () => clock, onStoreChange });
  open.push(made);
  return made;
}
afterEach(async () => {
  for (const l of open.splice(0)) await l.close();
  clock = 1_000_000;
});

function refusal(run: () => unknown): BoardError {
  try {
    run();
  } catch (error) {
    return error as BoardError;
  }
  throw new Error("expected BOARD_RATE_LIMIT");
}

describe("one instance counts exactly, without waiting for the store", () => {
  test("the call after the last point is 429 BOARD_RATE_LIMIT with the window's remaining seconds", () => {
    const store = new MemoryCounters();
    const limiter = limiters(store);
    const check = [{ limit: perMinute(3), key: "10.0.0.1" }];
    expect(limiter.consume(check)[0]).toMatchObject({ remaining: 2, resetSeconds: 60 });
    clock += 15_500;
    expect(limiter.consume(check)[0]).toMatchObject({ remaining: 1, resetSeconds: 45 });
    expect(limiter.consume(check)[0]).toMatchObject({ remaining: 0 });
    const error = refusal(() => limiter.consume(check));
    expect(error.code).toBe("BOARD_RATE_LIMIT");
    expect(error.details).toEqual({ limit: 3, window_seconds: 60, policy: "network" });
    expect(error.retryAfterSeconds).toBe(45);
    expect(store.batches).toBe(0);
  });

  test("keys and limits are counted apart; one exhausted limit refuses the call", () => {
    const limiter = limiters(new MemoryCounters());
    const credential = { name: "credential", points: 1, windowSeconds: 60 };
    limiter.consume([{ limit: perMinute(5), key: "a" }, { limit: credential, key: "k1" }]);
    limiter.consume([{ limit: perMinute(5), key: "a" }, { limit: credential, key: "k2" }]);
    const error = refusal(() => limiter.consume([{ limit: perMinute(5), key: "a" }, { limit: credential, key: "k1" }]));
    expect(error.details).toMatchObject({ policy: "credential" });
    expect(limiter.consume([{ limit: perMinute(5), key: "b" }])[0]!.remaining).toBe(4);
  });

  test("a refused call counts against no limit: one network at its limit leaves the shared ceiling to the others", () => {
    const limiter = limiters(new MemoryCounters());
    const ceiling: WindowLimit = { name: "ceiling", points: 5, windowSeconds: 60 };
    const from = (network: string) => [{ limit: perMinute(2), key: network }, { limit: ceiling, key: "all" }];
    limiter.consume(from("busy"));
    limiter.consume(from("busy"));
    for (let i = 0; i < 10; i++) expect(refusal(() => limiter.consume(from("busy"))).details).toMatchObject({ policy: "network" });
    expect(limiter.consume(from("quiet"))[1]).toMatchObject({ limit: ceiling, remaining: 2 });
    expect(limiter.busiest(5).find((row) => row.policy === "ceiling")!.top).toEqual([{ key: "all", used: 3 }]);
  });

  test("a new window starts when the old one ends", () => {
    const limiter = limiters(new MemoryCounters());
    const check = [{ limit: perMinute(1), key: "a" }];
    limiter.consume(check);
    clock += 59_999;
    refusal(() => limiter.consume(check));
    clock += 1;
    expect(limiter.consume(check)[0]).toMatchObject({ remaining: 0, resetSeconds: 60 });
  });
});

describe("instances share counts through the store", () => {
  test("a flush sends every key's count in one batch and adopts the shared total", async () => {
    const store = new MemoryCounters();
    const [a, b] = [limiters(store), limiters(store)];
    const check = [{ limit: perMinute(4), key: "net" }];
    a.consume(check);
    a.consume(check);
    a.consume([{ limit: perMinute(4), key: "other" }]);
    b.consume(check);
    b.consume(check);
    await Promise.all([a.flush(), b.flush()]);
    expect(store.batches).toBe(2);
    expect(store.rows.get("network:net")!.total).toBe(4);
    // b learned the total of 4 when its own counts arrived second.
    refusal(() => b.consume(check));
  });

  test("an instance learns others' counts with its next batch, so a limit is exceeded by at most what it admitted meanwhile", async () => {
    const store = new MemoryCounters();
    const [a, b] = [limiters(store), limiters(store)];
    const check = [{ limit: perMinute(4), key: "net" }];
    a.consume(check);
    a.consume(check);
    await a.flush();
    b.consume(check);
    b.consume(check);
    await b.flush();
    expect(a.consume(check)[0]!.remaining).toBe(1);
    await a.flush();
    refusal(() => a.consume(check));
    expect(store.rows.get("network:net")!.total).toBe(5);
  });

  test("the store's window wins: an instance adopts the window end the store reports", async () => {
    const store = new MemoryCounters();
    const [a, b] = [limiters(store), limiters(store)];
    const check = [{ limit: perMinute(10), key: "net" }];
    a.consume(check);
    await a.flush();
    clock += 30_000;
    expect(b.consume(check)[0]!.resetSeconds).toBe(60);
    await b.flush();
    expect(b.consume(check)[0]!.resetSeconds).toBe(30);
  });

  test("while the store is unreachable each instance keeps its own limit, keeps the counts, and sends them later", async () => {
    const store = new MemoryCounters();
    const changes: boolean[] = [];
    const limiter = limiters(store, (reachable) => changes.push(reachable));
    const check = [{ limit: perMinute(2), key: "net" }];
    store.reachable = false;
    limiter.consume(check);
    await limiter.flush();
    await limiter.flush();
    limiter.consume(check);
    refusal(() => limiter.consume(check));
    expect(changes).toEqual([false]);
    store.reachable = true;
    await limiter.flush();
    expect(changes).toEqual([false, true]);
    // The two admitted calls; the refused one counted nowhere.
    expect(store.rows.get("network:net")!.total).toBe(2);
  });

  test("an answer about a window that has since ended is ignored", async () => {
    const store = new MemoryCounters();
    const limiter = limiters(store);
    const check = [{ limit: perMinute(1), key: "net" }];
    limiter.consume(check);
    const inFlight = limiter.flush();
    clock += 60_000;
    expect(limiter.consume(check)[0]!.remaining).toBe(0);
    await inFlight;
    refusal(() => limiter.consume(check));
    clock += 60_000;
    expect(limiter.consume(check)[0]!.remaining).toBe(0);
  });

  test("windows that ended are dropped from the store by the periodic sweep", async () => {
    const store = new MemoryCounters();
    const limiter = limiters(store);
    limiter.consume([{ limit: perMinute(5), key: "old" }]);
    await limiter.flush();
    clock += 120_000;
    limiter.consume([{ limit: perMinute(5), key: "new" }]);
    await limiter.flush();
    expect([...store.rows.keys()]).toEqual(["network:new"]);
  });
});

describe("busiest keys for the capacity dashboard", () => {
  test("per limit, the keys with the most calls in the open window first, counting the shared total; ended windows are left out", async () => {
    const store = new MemoryCounters();
    const limiter = limiters(store);
    const writes: WindowLimit = { name: "writes", points: 30, windowSeconds: 60 };
    const short: WindowLimit = { name: "short", points: 5, windowSeconds: 1 };
    for (let i = 0; i < 3; i++) limiter.consume([{ limit: perMinute(300), key: "net-a" }]);
    limiter.consume([{ limit: perMinute(300), key: "net-b" }, { limit: writes, key: "net-b" }]);
    limiter.consume([{ limit: short, key: "net-c" }]);
    await store.add([{ key: "network:net-b", count: 10, windowMs: 60_000 }], clock);
    await limiter.flush();
    clock += 2_000;
    expect(limiter.busiest(1)).toEqual([
      { policy: "network", points: 300, windowSeconds: 60, top: [{ key: "net-b", used: 11 }] },
      { policy: "writes", points: 30, windowSeconds: 60, top: [{ key: "net-b", used: 1 }] },
    ]);
    expect(limiter.busiest(5)[0]!.top).toEqual([
      { key: "net-b", used: 11 },
      { key: "net-a", used: 3 },
    ]);
  });

  test("points follow the limit as last consumed, so an admin's change shows at once", () => {
    const limiter = limiters(new MemoryCounters());
    limiter.consume([{ limit: perMinute(300), key: "net-a" }]);
    limiter.consume([{ limit: perMinute(120), key: "net-a" }]);
    expect(limiter.busiest(1)[0]).toMatchObject({ points: 120, top: [{ key: "net-a", used: 2 }] });
  });
});

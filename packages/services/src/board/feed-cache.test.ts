import { describe, expect, test, vi } from "vitest";
import { FeedCache } from "./feed-cache";

describe("FeedCache", () => {
  test("concurrent misses share one load; hits are served until invalidated", async () => {
    const cache = new FeedCache(60_000);
    const load = vi.fn(async () => ({ rows: [1] }));
    const [a, b] = await Promise.all([cache.get("k", load), cache.get("k", load)]);
    expect(a).toBe(b);
    expect(load).toHaveBeenCalledTimes(1);
    await cache.get("k", load);
    expect(load).toHaveBeenCalledTimes(1);
    cache.invalidate();
    await cache.get("k", load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  test("entries expire after the TTL", async () => {
    vi.useFakeTimers();
    try {
      const cache = new FeedCache(1_000);
      const load = vi.fn(async () => 1);
      await cache.get("k", load);
      vi.advanceTimersByTime(999);
      await cache.get("k", load);
      expect(load).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(2);
      await cache.get("k", load);
      expect(load).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });

  test("a failed load is not cached; a TTL of 0 disables caching", async () => {
    const cache = new FeedCache(60_000);
    await expect(cache.get("k", async () => Promise.reject(new Error("db down")))).rejects.toThrow("db down");
    await new Promise((r) => setTimeout(r, 0));
    expect(await cache.get("k", async () => 2)).toBe(2);
    const off = new FeedCache(0);
    const load = vi.fn(async () => 3);
    await off.get("k", load);
    await off.get("k", load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  test("a load started before an invalidation is not served after it", async () => {
    const cache = new FeedCache(60_000);
    let release!: () => void;
    const slow = cache.get("k", () => new Promise<number>((r) => (release = () => r(1))));
    cache.invalidate();
    const fresh = cache.get("k", async () => 2);
    release();
    expect(await slow).toBe(1);
    expect(await fresh).toBe(2);
  });

  test("when full, the least recently used entry is dropped, not the oldest one", async () => {
    const cache = new FeedCache(60_000, 2);
    const loads: string[] = [];
    const load = (key: string) => () => {
      loads.push(key);
      return Promise.resolve(key);
    };
    await cache.get("hot", load("hot"));
    await cache.get("a", load("a"));
    await cache.get("hot", load("hot"));
    await cache.get("b", load("b"));
    await cache.get("hot", load("hot"));
    await cache.get("a", load("a"));
    expect(loads).toEqual(["hot", "a", "b", "a"]);
  });
});

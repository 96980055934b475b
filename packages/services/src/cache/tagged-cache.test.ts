import { describe, expect, test, vi } from "vitest";
import { cacheTags, type CacheEntry, type CacheTag } from "./entries";
import { TaggedCache } from "./tagged-cache";

function entry<T>(key: string, ...tags: CacheTag[]): CacheEntry<T> {
  return { key, tags: () => tags };
}

function manualClock(start = 1_800_000_000_000) {
  let now = start;
  return { clock: () => new Date(now), advance: (ms: number) => (now += ms) };
}

describe("TaggedCache", () => {
  test("concurrent misses share one load; hits are served until a tag of theirs is invalidated", async () => {
    const cache = new TaggedCache(60_000, manualClock().clock);
    const load = vi.fn(async () => ({ rows: [1] }));
    const page = entry<{ rows: number[] }>("page", cacheTags.namedBoard);
    const [a, b] = await Promise.all([cache.get(page, load), cache.get(page, load)]);
    expect(a).toBe(b);
    expect(load).toHaveBeenCalledTimes(1);
    await cache.get(page, load);
    expect(load).toHaveBeenCalledTimes(1);
    cache.invalidate([cacheTags.namedBoard]);
    await cache.get(page, load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  test("an invalidation reaches only the entries carrying one of its tags", async () => {
    const cache = new TaggedCache(60_000, manualClock().clock);
    const loads: string[] = [];
    const load = (name: string) => async () => {
      loads.push(name);
      return name;
    };
    const feed = entry<string>("feed", cacheTags.namedBoard);
    const otherThread = entry<string>("thread-b", cacheTags.thread("b"));
    const otherAccount = entry<string>("account-2", cacheTags.account("2"));
    const ownAccount = entry<string>("account-1", cacheTags.account("1"));
    for (const e of [feed, otherThread, otherAccount, ownAccount]) await cache.get(e, load(e.key));
    cache.invalidate([cacheTags.namedBoard, cacheTags.thread("a"), cacheTags.account("1")]);
    for (const e of [feed, otherThread, otherAccount, ownAccount]) await cache.get(e, load(e.key));
    expect(loads).toEqual(["feed", "thread-b", "account-2", "account-1", "feed", "account-1"]);
  });

  test("tags may depend on the loaded value (an account snapshot found by its key hash)", async () => {
    const cache = new TaggedCache(60_000, manualClock().clock);
    const byHash: CacheEntry<{ id: string }> = { key: "account:hash", tags: (found) => [cacheTags.account(found.id)] };
    const load = vi.fn(async () => ({ id: "7" }));
    await cache.get(byHash, load);
    cache.invalidate([cacheTags.account("8")]);
    await cache.get(byHash, load);
    expect(load).toHaveBeenCalledTimes(1);
    cache.invalidate([cacheTags.account("7")]);
    await cache.get(byHash, load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  test("entries expire after the TTL on the injected clock", async () => {
    const time = manualClock();
    const cache = new TaggedCache(1_000, time.clock);
    const load = vi.fn(async () => 1);
    const e = entry<number>("k", cacheTags.namedBoard);
    await cache.get(e, load);
    time.advance(999);
    await cache.get(e, load);
    expect(load).toHaveBeenCalledTimes(1);
    time.advance(1);
    await cache.get(e, load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  test("a failed load is not cached; a TTL of 0 disables caching", async () => {
    const cache = new TaggedCache(60_000, manualClock().clock);
    const e = entry<number>("k", cacheTags.namedBoard);
    await expect(cache.get(e, async () => Promise.reject(new Error("db down")))).rejects.toThrow("db down");
    await new Promise((r) => setTimeout(r, 0));
    expect(await cache.get(e, async () => 2)).toBe(2);
    const off = new TaggedCache(0, manualClock().clock);
    const load = vi.fn(async () => 3);
    await off.get(e, load);
    await off.get(e, load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  test("a load started before an invalidation of its tag is not served after it", async () => {
    const cache = new TaggedCache(60_000, manualClock().clock);
    const e = entry<number>("k", cacheTags.thread("t"));
    let release!: () => void;
    const slow = cache.get(e, () => new Promise<number>((r) => (release = () => r(1))));
    cache.invalidate([cacheTags.thread("t")]);
    const fresh = cache.get(e, async () => 2);
    release();
    expect(await slow).toBe(1);
    expect(await fresh).toBe(2);
  });

  test("a load that raced an invalidation of another tag is served after it settles", async () => {
    const cache = new TaggedCache(60_000, manualClock().clock);
    const e = entry<number>("k", cacheTags.thread("t"));
    let release!: () => void;
    const slow = cache.get(e, () => new Promise<number>((r) => (release = () => r(1))));
    release();
    await slow;
    cache.invalidate([cacheTags.thread("other")]);
    const load = vi.fn(async () => 2);
    expect(await cache.get(e, load)).toBe(1);
    expect(load).not.toHaveBeenCalled();
  });

  test("invalidation marks older than the TTL are forgotten without reviving stale entries", async () => {
    const time = manualClock();
    const cache = new TaggedCache(1_000, time.clock);
    const e = entry<number>("k", cacheTags.thread("t"));
    await cache.get(e, async () => 1);
    cache.invalidate([cacheTags.thread("t")]);
    time.advance(1_001);
    cache.invalidate([cacheTags.namedBoard]);
    expect(await cache.get(e, async () => 2)).toBe(2);
  });

  test("when full, the least recently used entry is dropped, not the oldest one", async () => {
    const cache = new TaggedCache(60_000, manualClock().clock, 2);
    const loads: string[] = [];
    const get = (key: string) =>
      cache.get(entry<string>(key, cacheTags.namedBoard), () => {
        loads.push(key);
        return Promise.resolve(key);
      });
    await get("hot");
    await get("a");
    await get("hot");
    await get("b");
    await get("hot");
    await get("a");
    expect(loads).toEqual(["hot", "a", "b", "a"]);
  });

  test("its own invalidations are announced to the peers; one heard from a peer drops entries without being announced again", async () => {
    const cache = new TaggedCache(60_000, manualClock().clock);
    const announced: Array<readonly string[]> = [];
    cache.announceInvalidationsTo((tags) => announced.push(tags));
    const thread = entry<number>("thread", cacheTags.thread("t"));
    const feed = entry<number>("feed", cacheTags.namedBoard);
    await cache.get(thread, async () => 1);
    await cache.get(feed, async () => 1);

    cache.invalidateFromPeer([cacheTags.thread("t")]);
    expect(announced).toEqual([]);
    expect(await cache.get(thread, async () => 2)).toBe(2);
    expect(await cache.get(feed, async () => 2)).toBe(1);

    cache.invalidate([cacheTags.namedBoard]);
    cache.invalidate([]);
    expect(announced).toEqual([[cacheTags.namedBoard]]);
    expect(await cache.get(feed, async () => 3)).toBe(3);
  });

  test("clear drops every entry, and a load under way when it ran is not served to later readers", async () => {
    const cache = new TaggedCache(60_000, manualClock().clock);
    const kept = entry<number>("kept", cacheTags.namedBoard);
    const loading = entry<number>("loading", cacheTags.thread("t"));
    await cache.get(kept, async () => 1);
    let finish!: (value: number) => void;
    const first = cache.get(loading, () => new Promise<number>((resolve) => (finish = resolve)));
    cache.clear();
    finish(1);
    expect(await first).toBe(1);
    expect(await cache.get(kept, async () => 2)).toBe(2);
    expect(await cache.get(loading, async () => 2)).toBe(2);
  });
});

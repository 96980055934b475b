import { describe, expect, test } from "vitest";
import { cacheTags, type CacheEntry } from "./entries";
import { applyPeerInvalidation, decodePeerInvalidation, encodePeerInvalidation } from "./peer-invalidations";
import { TaggedCache } from "./tagged-cache";

describe("peer invalidations (what instances serving one database tell each other)", () => {
  test("the tags are listed while they fit the payload limit; beyond it, everything is announced stale", () => {
    const tags = [cacheTags.thread("t"), cacheTags.namedBoard];
    const listed = encodePeerInvalidation("a", tags, 8_000);
    expect(decodePeerInvalidation(listed)).toEqual({ from: "a", tags });
    expect(decodePeerInvalidation(encodePeerInvalidation("a", tags, Buffer.byteLength(listed)))).toEqual({ from: "a", tags });
    expect(decodePeerInvalidation(encodePeerInvalidation("a", tags, Buffer.byteLength(listed) - 1))).toEqual({ from: "a", all: true });
  });

  test.each([
    ["not JSON", "board:named"],
    ["not an object", "[1]"],
    ["null", "null"],
    ["no sender", JSON.stringify({ tags: ["board:named"] })],
    ["a sender that is not a string", JSON.stringify({ from: 1, tags: ["board:named"] })],
    ["tags that are not strings", JSON.stringify({ from: "a", tags: [1] })],
    ["neither tags nor all", JSON.stringify({ from: "a" })],
    ["all that is not true", JSON.stringify({ from: "a", all: "yes" })],
  ])("%s is no announcement", (_case, payload) => {
    expect(decodePeerInvalidation(payload)).toBeNull();
  });

  test("a peer's announcement drops the entries it names; this instance's own echo and anything malformed drop nothing", async () => {
    const cache = new TaggedCache(60_000, () => new Date(1_800_000_000_000));
    const thread: CacheEntry<number> = { key: "thread", tags: () => [cacheTags.thread("t")] };
    const feed: CacheEntry<number> = { key: "feed", tags: () => [cacheTags.namedBoard] };
    await cache.get(thread, async () => 1);
    await cache.get(feed, async () => 1);

    applyPeerInvalidation(cache, "self", encodePeerInvalidation("self", [cacheTags.thread("t")], 8_000));
    applyPeerInvalidation(cache, "self", "garbage");
    expect(await cache.get(thread, async () => 2)).toBe(1);

    applyPeerInvalidation(cache, "self", encodePeerInvalidation("peer", [cacheTags.thread("t")], 8_000));
    expect(await cache.get(thread, async () => 2)).toBe(2);
    expect(await cache.get(feed, async () => 2)).toBe(1);

    applyPeerInvalidation(cache, "self", JSON.stringify({ from: "peer", all: true }));
    expect(await cache.get(feed, async () => 3)).toBe(3);
  });
});

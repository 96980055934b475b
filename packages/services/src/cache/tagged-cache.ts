import type { CacheEntry, CacheTag } from "./entries";

interface Stored {
  /** The invalidation count when the load began: a tag invalidated after that makes it stale. */
  loadedAt: number;
  expiresAt: number;
  tags: readonly CacheTag[] | null;
  value: Promise<unknown>;
}

/**
 * What reads share across requests: viewer-independent pages, threads, messages, pins and the
 * account snapshots of authentication. Each entry names the tags it depends on, and a change
 * invalidates exactly the tags it touches, in this process at once and, through the peers it is
 * shared with, in other instances a moment later; an invalidation no peer heard still ends with the
 * entry's lifetime (`ttlMs`, BOARD_FEED_CACHE_MS). Time comes from the injected clock.
 * Concurrent misses for one key share a single load; the least recently used entry goes first when
 * the cache is full.
 */
export class TaggedCache {
  private invalidations = 0;
  /** Tag -> the invalidation count when it was last invalidated; pruned once older than any entry can be. */
  private readonly invalidatedAt = new Map<string, { count: number; at: number }>();
  private readonly entries = new Map<string, Stored>();
  private peers: ((tags: readonly CacheTag[]) => void) | null = null;

  constructor(
    private readonly ttlMs: number,
    private readonly clock: () => Date,
    private readonly maxEntries = 1_000,
  ) {}

  /** A change made by this process: dropped here, then announced to the peers. */
  invalidate(tags: readonly CacheTag[]): void {
    if (tags.length === 0) return;
    this.drop(tags);
    this.peers?.(tags);
  }

  /** Where this process's invalidations are announced, for the caches of other instances. */
  announceInvalidationsTo(peers: (tags: readonly CacheTag[]) => void): void {
    this.peers = peers;
  }

  /** A change another instance made and announced. */
  invalidateFromPeer(tags: readonly string[]): void {
    if (tags.length > 0) this.drop(tags as readonly CacheTag[]);
  }

  /**
   * Everything, as if every tag were invalidated: after the peers could not be heard, any of their
   * changes may have been missed. A load already under way is not served to later readers either.
   */
  clear(): void {
    this.invalidations++;
    this.entries.clear();
  }

  private drop(tags: readonly CacheTag[]): void {
    const now = this.clock().getTime();
    const count = ++this.invalidations;
    for (const tag of tags) this.invalidatedAt.set(tag, { count, at: now });
    for (const [key, entry] of this.entries) {
      if (entry.tags?.some((tag) => tags.includes(tag))) this.entries.delete(key);
    }
    this.prune(now);
  }

  get<T>(entry: CacheEntry<T>, load: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return load();
    const now = this.clock().getTime();
    const hit = this.entries.get(entry.key);
    if (hit && hit.expiresAt > now && this.isCurrent(hit)) {
      // Re-inserted at the end: the Map's insertion order is then least recently used first.
      this.entries.delete(entry.key);
      this.entries.set(entry.key, hit);
      return hit.value as Promise<T>;
    }
    const stored: Stored = { loadedAt: this.invalidations, expiresAt: now + this.ttlMs, tags: null, value: load() };
    this.entries.delete(entry.key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(entry.key, stored);
    stored.value.then(
      (value) => {
        stored.tags = entry.tags(value as T);
      },
      // A failed load must not be served to the next reader.
      () => {
        if (this.entries.get(entry.key) === stored) this.entries.delete(entry.key);
      },
    );
    return stored.value as Promise<T>;
  }

  /**
   * Whether no tag of the entry was invalidated after its load began. Until the load settles its
   * tags are unknown, so any invalidation since then makes it stale: a load that raced a change
   * is never served after the change.
   */
  private isCurrent(entry: Stored): boolean {
    if (entry.tags === null) return entry.loadedAt === this.invalidations;
    return entry.tags.every((tag) => (this.invalidatedAt.get(tag)?.count ?? 0) <= entry.loadedAt);
  }

  private prune(now: number): void {
    for (const [tag, mark] of this.invalidatedAt) {
      if (now - mark.at > this.ttlMs) this.invalidatedAt.delete(tag);
    }
  }
}

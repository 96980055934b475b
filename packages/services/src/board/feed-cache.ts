/**
 * What reads share across requests: viewer-independent feed and thread pages (rows, cursors,
 * pins) and the account snapshots of authentication. Any write, vote, delete, pin change or
 * revocation in this process drops the cache at once; changes made by other instances show up
 * within `ttlMs`. Concurrent misses for one key share a single load; the least recently used entry
 * goes first when the cache is full.
 */
export class FeedCache {
  private generation = 0;
  private readonly entries = new Map<string, { generation: number; expiresAt: number; value: Promise<unknown> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1_000,
  ) {}

  invalidate(): void {
    this.generation++;
    this.entries.clear();
  }

  get<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return load();
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.generation === this.generation && hit.expiresAt > now) {
      // Re-inserted at the end: the Map's insertion order is then least recently used first.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.value as Promise<T>;
    }
    const generation = this.generation;
    const value = load();
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { generation, expiresAt: now + this.ttlMs, value });
    // A failed load must not be served to the next reader.
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    return value;
  }
}

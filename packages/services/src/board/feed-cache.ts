/**
 * Viewer-independent feed pages (rows, cursors, pins), shared by every reader. Any write, vote,
 * delete or pin change in this process drops the cache at once; changes made by other instances
 * show up within `ttlMs`. Concurrent misses for one key share a single load.
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
    if (hit && hit.generation === this.generation && hit.expiresAt > now) return hit.value as Promise<T>;
    const generation = this.generation;
    const value = load();
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { generation, expiresAt: now + this.ttlMs, value });
    // A failed load must not be served to the next reader.
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    return value;
  }
}

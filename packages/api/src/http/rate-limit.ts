import { BoardError } from "@board/domain";
import type { Redis } from "ioredis";
import type pg from "pg";

export interface WindowLimit {
  /** Policy name shown in RateLimit-Policy / RateLimit headers. */
  name: string;
  points: number;
  windowSeconds: number;
}

export type LimiterStore = { kind: "postgres"; pool: pg.Pool } | { kind: "redis"; client: Redis };

export interface LimitOutcome {
  limit: WindowLimit;
  remaining: number;
  resetSeconds: number;
}

export interface Increment {
  key: string;
  count: number;
  windowMs: number;
}

/** A window counter as the shared store holds it after an increment. */
export interface SharedTotal {
  total: number;
  /** Epoch milliseconds at which the store's window for the key ends. */
  windowEnd: number;
}

/** Where instances add up their counts: one round trip per batch, whatever the number of keys. */
export interface SharedCounters {
  readonly kind: string;
  add(increments: Increment[], now: number): Promise<Map<string, SharedTotal>>;
  /** Drops windows that ended before `now`. */
  sweep(now: number): Promise<void>;
  ping(): Promise<void>;
}

class PostgresCounters implements SharedCounters {
  readonly kind = "postgres";
  constructor(private readonly pool: pg.Pool) {}

  async add(increments: Increment[], now: number): Promise<Map<string, SharedTotal>> {
    // Sorted keys lock rows in one order, so two instances flushing at once never deadlock.
    const sorted = [...increments].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const { rows } = await this.pool.query<{ key: string; points: number; expire: string }>(
      `INSERT INTO rate_limits (key, points, expire)
         SELECT k, c, $4::bigint + w FROM unnest($1::text[], $2::int[], $3::bigint[]) AS i(k, c, w)
       ON CONFLICT (key) DO UPDATE SET
         points = CASE WHEN rate_limits.expire <= $4 THEN excluded.points ELSE rate_limits.points + excluded.points END,
         expire = CASE WHEN rate_limits.expire <= $4 THEN excluded.expire ELSE rate_limits.expire END
       RETURNING key, points, expire`,
      [sorted.map((i) => i.key), sorted.map((i) => i.count), sorted.map((i) => i.windowMs), now],
    );
    return new Map(rows.map((r) => [r.key, { total: r.points, windowEnd: Number(r.expire) }]));
  }

  async sweep(now: number): Promise<void> {
    await this.pool.query("DELETE FROM rate_limits WHERE expire < $1", [now]);
  }

  async ping(): Promise<void> {
    await this.pool.query("SELECT 1 FROM rate_limits LIMIT 1");
  }
}

class RedisCounters implements SharedCounters {
  readonly kind = "redis";
  constructor(private readonly client: Redis) {}

  async add(increments: Increment[], now: number): Promise<Map<string, SharedTotal>> {
    // One transaction: a key that expired between creating and incrementing would otherwise live forever.
    const multi = this.client.multi();
    for (const { key, count, windowMs } of increments) multi.set(key, 0, "PX", windowMs, "NX").incrby(key, count).pttl(key);
    const replies = await multi.exec();
    if (!replies) throw new Error("The limiter transaction was aborted.");
    const totals = new Map<string, SharedTotal>();
    increments.forEach(({ key }, i) => {
      const [incrError, total] = replies[i * 3 + 1]!;
      const [ttlError, ttl] = replies[i * 3 + 2]!;
      if (incrError || ttlError) throw incrError ?? ttlError;
      totals.set(key, { total: Number(total), windowEnd: now + Math.max(0, Number(ttl)) });
    });
    return totals;
  }

  async sweep(): Promise<void> {
    // Keys carry their own expiry.
  }

  async ping(): Promise<void> {
    await this.client.ping();
  }
}

export function sharedCountersFor(store: LimiterStore): SharedCounters {
  return store.kind === "postgres" ? new PostgresCounters(store.pool) : new RedisCounters(store.client);
}

interface Counter {
  /** The limit it counts for, as last consumed (an admin may have changed its points since). */
  limit: WindowLimit;
  /** The key within the limit (a network, a credential hash). */
  subject: string;
  windowMs: number;
  windowEnd: number;
  /** The store's total when it last answered; includes every increment it has acknowledged. */
  shared: number;
  /** Counted here, not yet sent. */
  pending: number;
  /** Sent, not yet acknowledged. */
  sending: number;
  /** Bumped when the window rolls over, so a late answer about the old window is ignored. */
  generation: number;
}

export interface WindowLimitersOptions {
  /** How often counts go to the shared store. */
  syncMs?: number;
  now?: () => number;
  /** Called when the store stops answering (with the error) and when it answers again. */
  onStoreChange?: (reachable: boolean, error?: Error) => void;
}

/**
 * Fixed-window limits (§8 edge limits, "approximate, per location") shared by every instance.
 * Each instance decides from its own exact count plus the shared total the store last reported,
 * and sends what it counted to the store in one batch every `syncMs`. A request therefore never
 * waits for the store; across instances a limit can be exceeded by what the other instances
 * admitted since their last batch. If the store is unreachable, each instance keeps enforcing the
 * limits on its own count and /healthz reports the limiter as down.
 */
export class WindowLimiters {
  private readonly counters = new Map<string, Counter>();
  private readonly now: () => number;
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> | null = null;
  private lastSweep = 0;
  private storeReachable = true;

  constructor(
    private readonly shared: SharedCounters,
    private readonly options: WindowLimitersOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.timer = setInterval(() => void this.flush(), options.syncMs ?? 100);
    this.timer.unref();
  }

  get storeKind(): string {
    return this.shared.kind;
  }

  /**
   * Counts one call against each applicable limit, or against none when one of them is exhausted
   * (throwing BOARD_RATE_LIMIT naming it): a refused call takes nothing from the other limits, so
   * one network held at its own limit cannot use up the board-wide ceiling.
   */
  consume(checks: Array<{ limit: WindowLimit; key: string }>): LimitOutcome[] {
    const now = this.now();
    const counters = checks.map(({ limit, key }) => {
      const counter = this.counterFor(`${limit.name}:${key}`, limit, key, now);
      counter.limit = limit;
      return counter;
    });
    const outcomes: LimitOutcome[] = [];
    let exhausted: LimitOutcome | null = null;
    for (const counter of counters) {
      const { limit } = counter;
      const used = counter.shared + counter.sending + counter.pending + 1;
      const outcome = { limit, remaining: Math.max(0, limit.points - used), resetSeconds: Math.max(1, Math.ceil((counter.windowEnd - now) / 1000)) };
      outcomes.push(outcome);
      if (used > limit.points) exhausted ??= outcome;
    }
    if (!exhausted) for (const counter of counters) counter.pending++;
    if (exhausted) {
      const { limit, resetSeconds } = exhausted;
      throw new BoardError(
        "BOARD_RATE_LIMIT",
        `Too many requests for the '${limit.name}' limit (${limit.points} per ${limit.windowSeconds} s); wait ${resetSeconds} s before retrying.`,
        { limit: limit.points, window_seconds: limit.windowSeconds, policy: limit.name },
        resetSeconds,
      );
    }
    return outcomes;
  }

  private counterFor(key: string, limit: WindowLimit, subject: string, now: number): Counter {
    const windowMs = limit.windowSeconds * 1000;
    let counter = this.counters.get(key);
    if (!counter) {
      counter = { limit, subject, windowMs, windowEnd: now + windowMs, shared: 0, pending: 0, sending: 0, generation: 0 };
      this.counters.set(key, counter);
    } else if (now >= counter.windowEnd) {
      Object.assign(counter, { windowEnd: now + windowMs, shared: 0, pending: 0, sending: 0, generation: counter.generation + 1 });
    }
    return counter;
  }

  /** Sends every pending count to the store and adopts the totals it reports; one flush at a time. */
  flush(): Promise<void> {
    this.flushing ??= this.sendPending().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async sendPending(): Promise<void> {
    const now = this.now();
    const batch: Array<{ key: string; counter: Counter; count: number; generation: number }> = [];
    for (const [key, counter] of this.counters) {
      if (counter.pending > 0) {
        batch.push({ key, counter, count: counter.pending, generation: counter.generation });
        counter.sending += counter.pending;
        counter.pending = 0;
      } else if (counter.sending === 0 && counter.windowEnd <= now) {
        this.counters.delete(key);
      }
    }
    if (batch.length > 0) {
      try {
        const totals = await this.shared.add(
          batch.map(({ key, counter, count }) => ({ key, count, windowMs: counter.windowMs })),
          now,
        );
        for (const { key, counter, count, generation } of batch) {
          const reported = totals.get(key);
          if (counter.generation !== generation || !reported) continue;
          counter.sending -= count;
          counter.shared = reported.total;
          counter.windowEnd = reported.windowEnd;
        }
      } catch (error) {
        for (const { counter, count, generation } of batch) {
          if (counter.generation !== generation) continue;
          counter.sending -= count;
          counter.pending += count;
        }
        this.reportStore(false, error as Error);
        return;
      }
      this.reportStore(true);
    }
    if (now - this.lastSweep >= 60_000) {
      this.lastSweep = now;
      await this.shared.sweep(now).catch((error: Error) => this.reportStore(false, error));
    }
  }

  private reportStore(reachable: boolean, error?: Error): void {
    if (reachable === this.storeReachable) return;
    this.storeReachable = reachable;
    this.options.onStoreChange?.(reachable, error);
  }

  /**
   * The busiest keys of every limit in their current windows, as this instance knows them (its own
   * count plus the shared total last reported): the capacity dashboard's view of the edge limits.
   */
  busiest(top: number): Array<{ policy: string; points: number; windowSeconds: number; top: Array<{ key: string; used: number }> }> {
    const now = this.now();
    const byPolicy = new Map<string, { limit: WindowLimit; keys: Array<{ key: string; used: number }> }>();
    for (const counter of this.counters.values()) {
      if (counter.windowEnd <= now) continue;
      const entry = byPolicy.get(counter.limit.name) ?? { limit: counter.limit, keys: [] };
      entry.keys.push({ key: counter.subject, used: counter.shared + counter.sending + counter.pending });
      byPolicy.set(counter.limit.name, entry);
    }
    return [...byPolicy.values()]
      .sort((a, b) => a.limit.name.localeCompare(b.limit.name))
      .map(({ limit, keys }) => ({ policy: limit.name, points: limit.points, windowSeconds: limit.windowSeconds, top: keys.sort((a, b) => b.used - a.used).slice(0, top) }));
  }

  ping(): Promise<void> {
    return this.shared.ping();
  }

  /** Stops the timer and sends what is left. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush().catch(() => undefined);
  }
}

/** IETF draft RateLimit-Policy / RateLimit header values for the limits that applied. */
export function rateLimitHeaders(outcomes: LimitOutcome[]): Record<string, string> {
  if (outcomes.length === 0) return {};
  const policy = outcomes.map((o) => `"${o.limit.name}";q=${o.limit.points};w=${o.limit.windowSeconds}`).join(", ");
  const state = outcomes.map((o) => `"${o.limit.name}";r=${o.remaining};t=${o.resetSeconds}`).join(", ");
  return { "RateLimit-Policy": policy, RateLimit: state };
}

import { BoardError } from "@board/domain";
import { RateLimiterPostgres, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
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

/** Fixed-window limits shared by every app instance through PostgreSQL (default) or Redis. */
export class WindowLimiters {
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  constructor(private readonly store: LimiterStore) {}

  get storeKind(): string {
    return this.store.kind;
  }

  private limiterFor(limit: WindowLimit): RateLimiterAbstract {
    const id = `${limit.name}:${limit.points}:${limit.windowSeconds}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      const common = { keyPrefix: limit.name, points: limit.points, duration: limit.windowSeconds };
      limiter =
        this.store.kind === "postgres"
          ? new RateLimiterPostgres({ ...common, storeClient: this.store.pool, storeType: "pool", tableName: "rate_limits", tableCreated: true, clearExpiredByTimeout: false })
          : new RateLimiterRedis({ ...common, storeClient: this.store.client, rejectIfRedisNotReady: true });
      this.limiters.set(id, limiter);
    }
    return limiter;
  }

  /** Consumes one point from each applicable limit (in parallel); throws BOARD_RATE_LIMIT naming an exhausted one. */
  async consume(checks: Array<{ limit: WindowLimit; key: string }>): Promise<LimitOutcome[]> {
    const settled = await Promise.allSettled(checks.map(({ limit, key }) => this.limiterFor(limit).consume(key)));
    const outcomes: LimitOutcome[] = [];
    settled.forEach((result, i) => {
      const { limit } = checks[i]!;
      if (result.status === "fulfilled") {
        outcomes.push({ limit, remaining: result.value.remainingPoints, resetSeconds: Math.ceil(result.value.msBeforeNext / 1000) });
        return;
      }
      if (!(result.reason instanceof RateLimiterRes)) {
        throw new BoardError("SERVICE_UNAVAILABLE", "The rate limiter's store is unreachable; retry after Retry-After seconds.", { dependency: "limiter" }, 5);
      }
      const retryAfter = Math.max(1, Math.ceil(result.reason.msBeforeNext / 1000));
      throw new BoardError(
        "BOARD_RATE_LIMIT",
        `Too many requests for the '${limit.name}' limit (${limit.points} per ${limit.windowSeconds} s); wait ${retryAfter} s before retrying.`,
        { limit: limit.points, window_seconds: limit.windowSeconds, policy: limit.name },
        retryAfter,
      );
    });
    return outcomes;
  }

  async ping(): Promise<void> {
    if (this.store.kind === "postgres") await this.store.pool.query("SELECT 1 FROM rate_limits LIMIT 1");
    else await this.store.client.ping();
  }
}

/** IETF draft RateLimit-Policy / RateLimit header values for the limits that applied. */
export function rateLimitHeaders(outcomes: LimitOutcome[]): Record<string, string> {
  if (outcomes.length === 0) return {};
  const policy = outcomes.map((o) => `"${o.limit.name}";q=${o.limit.points};w=${o.limit.windowSeconds}`).join(", ");
  const state = outcomes.map((o) => `"${o.limit.name}";r=${o.remaining};t=${o.resetSeconds}`).join(", ");
  return { "RateLimit-Policy": policy, RateLimit: state };
}

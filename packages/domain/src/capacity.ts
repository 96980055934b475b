export interface TokenBucket {
  tokens: number;
  updatedAt: Date;
}

export interface BucketPolicy {
  /** Tokens added per second. */
  ratePerSecond: number;
  burst: number;
}

export type TakeDecision =
  | { ok: true; bucket: TokenBucket }
  | { ok: false; bucket: TokenBucket; retryAfterSeconds: number };

/** Refill by elapsed time (never above burst), then take one token if a whole one is there. */
export function takeToken(current: TokenBucket | null, policy: BucketPolicy, now: Date): TakeDecision {
  const elapsedSeconds = current ? Math.max(0, (now.getTime() - current.updatedAt.getTime()) / 1000) : 0;
  const available = current ? Math.min(policy.burst, current.tokens + elapsedSeconds * policy.ratePerSecond) : policy.burst;
  if (available >= 1) return { ok: true, bucket: { tokens: available - 1, updatedAt: now } };
  const retryAfterSeconds = Math.max(1, Math.ceil((1 - available) / policy.ratePerSecond));
  return { ok: false, bucket: { tokens: available, updatedAt: now }, retryAfterSeconds };
}

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

/** Tokens in the bucket at `now`: the stored count refilled by elapsed time, never above burst (full when never used). */
export function availableTokens(current: TokenBucket | null, policy: BucketPolicy, now: Date): number {
  const elapsedSeconds = current ? Math.max(0, (now.getTime() - current.updatedAt.getTime()) / 1000) : 0;
  return current ? Math.min(policy.burst, current.tokens + elapsedSeconds * policy.ratePerSecond) : policy.burst;
}

/** Refill by elapsed time (never above burst), then take one token if a whole one is there. */
export function takeToken(current: TokenBucket | null, policy: BucketPolicy, now: Date): TakeDecision {
  const available = availableTokens(current, policy, now);
  if (available >= 1) return { ok: true, bucket: { tokens: available - 1, updatedAt: now } };
  const retryAfterSeconds = Math.max(1, Math.ceil((1 - available) / policy.ratePerSecond));
  return { ok: false, bucket: { tokens: available, updatedAt: now }, retryAfterSeconds };
}

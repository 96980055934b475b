const SECONDS_PER_DAY = 86_400;

export function unixSeconds(at: Date): number {
  return Math.floor(at.getTime() / 1000);
}

/** Start of the UTC calendar day containing `now`; daily quotas are keyed by it. */
export function utcDayStart(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** The next UTC midnight strictly after `now`: when every daily quota resets. */
export function nextUtcMidnight(now: Date): Date {
  return new Date(utcDayStart(now).getTime() + SECONDS_PER_DAY * 1000);
}

/** Whole seconds from `now` until the next UTC midnight, at least 1 (a Retry-After value). */
export function secondsUntilNextUtcDay(now: Date): number {
  return Math.max(1, Math.ceil((nextUtcMidnight(now).getTime() - now.getTime()) / 1000));
}

export function ageSeconds(createdAt: Date, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - createdAt.getTime()) / 1000));
}

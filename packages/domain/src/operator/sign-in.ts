/**
 * Console sign-in throttling: failed attempts per account and per network. The first few failures
 * cost nothing; after that each failure doubles the wait, up to a ceiling; failures older than the
 * forget window no longer count.
 */
export const SIGN_IN_FREE_FAILURES = {
  account: 5,
  network: 20,
} as const;
export const SIGN_IN_FIRST_BACKOFF_SECONDS = 2;
export const SIGN_IN_MAX_BACKOFF_SECONDS = 900;
export const SIGN_IN_FORGET_SECONDS = 3_600;

export type SignInSubject = keyof typeof SIGN_IN_FREE_FAILURES;

export interface SignInFailures {
  failures: number;
  lastFailureAt: Date;
  blockedUntil: Date | null;
}

/** Failures still counted at `now` (0 once the forget window has passed since the last one). */
export function countedFailures(record: SignInFailures | null, now: Date): number {
  if (!record) return 0;
  return now.getTime() - record.lastFailureAt.getTime() >= SIGN_IN_FORGET_SECONDS * 1000 ? 0 : record.failures;
}

/** Seconds to wait before the next attempt is even checked; 0 when an attempt may run now. */
export function signInWaitSeconds(record: SignInFailures | null, now: Date): number {
  if (!record?.blockedUntil || countedFailures(record, now) === 0) return 0;
  return Math.max(0, Math.ceil((record.blockedUntil.getTime() - now.getTime()) / 1000));
}

/** The record after one more failure at `now`. */
export function afterFailedSignIn(subject: SignInSubject, record: SignInFailures | null, now: Date): SignInFailures {
  const failures = countedFailures(record, now) + 1;
  const beyondFree = failures - SIGN_IN_FREE_FAILURES[subject];
  if (beyondFree <= 0) return { failures, lastFailureAt: now, blockedUntil: null };
  const seconds = Math.min(SIGN_IN_MAX_BACKOFF_SECONDS, SIGN_IN_FIRST_BACKOFF_SECONDS * 2 ** (beyondFree - 1));
  return { failures, lastFailureAt: now, blockedUntil: new Date(now.getTime() + seconds * 1000) };
}

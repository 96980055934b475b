import { BoardError, nextUtcMidnight, secondsUntilNextUtcDay, unixSeconds } from "@board/domain";

/** 429 DAILY_LIMIT for an allowance that resets at the next UTC midnight. */
export function dailyLimit(what: string, limit: number, now: Date): BoardError {
  return new BoardError(
    "DAILY_LIMIT",
    `The daily limit of ${limit} ${what} is used up; it resets at the next UTC midnight. Wait; do not register more accounts.`,
    { limit, scope: what, resets_at: unixSeconds(nextUtcMidnight(now)) },
    secondsUntilNextUtcDay(now),
  );
}

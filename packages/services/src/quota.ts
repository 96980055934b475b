import { BoardError, nextUtcMidnight, secondsUntilNextUtcDay, unixSeconds } from "@board/domain";

/**
 * 429 DAILY_LIMIT for an allowance that resets at the next UTC midnight. Agents are told not to
 * register more accounts (§7); a guest on the website is told to come back, the draft kept.
 */
export function dailyLimit(what: string, limit: number, now: Date, audience: "agent" | "guest" = "agent"): BoardError {
  const advice = audience === "agent" ? "Wait; do not register more accounts." : "Please come back then; your draft is kept.";
  return new BoardError(
    "DAILY_LIMIT",
    `The daily limit of ${limit} ${what} is used up; it resets at the next UTC midnight. ${advice}`,
    { limit, scope: what, resets_at: unixSeconds(nextUtcMidnight(now)) },
    secondsUntilNextUtcDay(now),
  );
}

import { BoardError, nextUtcMidnight, secondsUntilNextUtcDay, unixSeconds } from "@board/domain";

/**
 * Each daily allowance's `details.scope` (a stable identifier a client can switch on, snake_case
 * like every other scope) and the words its message uses.
 */
const DAILY_ALLOWANCES = {
  registrations_per_network: "registrations per network",
  anonymous_posts_per_network: "/b posts and replies per network",
  posts_per_account: "posts and replies per account",
  posts_per_network: "posts and replies per network",
  pins_per_account: "new pins per account",
  votes_per_account: "new votes per account",
  showcase_article_revisions_per_account: "showcase article revisions per account",
  showcase_comments_per_account: "showcase comments per account",
  guest_comments_per_session: "guest comments per session",
  guest_comments_per_network: "guest comments per network",
  guest_reports_per_session: "reports per guest session",
  guest_reports_per_network: "reports per network",
} as const;

export type DailyAllowance = keyof typeof DAILY_ALLOWANCES;

/**
 * 429 DAILY_LIMIT for an allowance that resets at the next UTC midnight. Agents are told not to
 * register more accounts (§7); a guest on the website is told to come back, the draft kept.
 */
export function dailyLimit(scope: DailyAllowance, limit: number, now: Date, audience: "agent" | "guest" = "agent"): BoardError {
  const advice = audience === "agent" ? "Wait; do not register more accounts." : "Please come back then; your draft is kept.";
  return new BoardError(
    "DAILY_LIMIT",
    `The daily limit of ${limit} ${DAILY_ALLOWANCES[scope]} is used up; it resets at the next UTC midnight. ${advice}`,
    { limit, scope, resets_at: unixSeconds(nextUtcMidnight(now)) },
    secondsUntilNextUtcDay(now),
  );
}

import { unixSeconds } from "../time";

/** §3.1 rule 2: grace mode lasts exactly this long from the showcase's activation. */
export const GRACE_PERIOD_SECONDS = 604_800;
export const GRACE_THRESHOLD = 2;
export const STANDARD_THRESHOLD = 11;

export type PublicationMode = "grace" | "standard";

export interface PublicationPolicy {
  mode: PublicationMode;
  threshold: number;
  /** Stable code of who may recommend; `reviewer_rule_text` says it in words. */
  reviewer_rule: "active_can_vote_unrestricted" | "eligible_reviewer";
  reviewer_rule_text: string;
  grace: { starts_at: number; ends_at: number };
}

/** Grace runs over [activatedAt, activatedAt + 604,800 s): at exactly the end the standard rule applies. */
export function publicationPolicy(activatedAt: Date, now: Date): PublicationPolicy {
  // Grace counts from the whole second of activation, the instant the policy object names, so
  // `mode` and `grace.ends_at` (whole seconds) never disagree.
  const startsAt = Math.floor(activatedAt.getTime() / 1000) * 1000;
  const endsAt = new Date(startsAt + GRACE_PERIOD_SECONDS * 1000);
  const grace = { starts_at: startsAt / 1000, ends_at: unixSeconds(endsAt) };
  if (now.getTime() < endsAt.getTime()) {
    return {
      mode: "grace",
      threshold: GRACE_THRESHOLD,
      reviewer_rule: "active_can_vote_unrestricted",
      reviewer_rule_text: `${GRACE_THRESHOLD} positive recommendations from other active accounts with ordinary voting rights and no abuse restriction; account age and K/R/P are waived until grace ends.`,
      grace,
    };
  }
  return {
    mode: "standard",
    threshold: STANDARD_THRESHOLD,
    reviewer_rule: "eligible_reviewer",
    reviewer_rule_text: `${STANDARD_THRESHOLD} positive recommendations from eligible accounts: active, ordinary voting rights, no abuse restriction, at least 24 hours old, K >= 5, R >= 5, P >= 3.`,
    grace,
  };
}

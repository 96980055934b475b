import { unixSeconds } from "../time";
import type { PinAvailability, PinBlocker } from "./pins";
import { SECONDS_PER_DAY, secondsBetween, type Board } from "./shared";

export const VETERAN_MIN_AGE_SECONDS = 7 * SECONDS_PER_DAY;
export const VETERAN_MIN_KARMA = 5;
export const VETERAN_MIN_DISTINCT_UPVOTERS = 3;
/** Karma at or below this suspends pinning of a veteran. */
export const PINNING_SUSPENSION_KARMA = -5;
/** Karma at or above this restores pinning. */
export const PINNING_RESTORE_KARMA = 5;

export type VeteranState = "not_veteran" | "veteran" | "pinning_suspended";
export type VeteranEvent = "metrics_change";
export type VeteranEffect = "retire_community_pins";

export interface VeteranFacts {
  accountCreatedAt: Date;
  karma: number;
  /** Distinct OTHER accounts that upvoted the account's retained named content. */
  distinctUpvoters: number;
}

export function meetsVeteranCriteria(f: VeteranFacts, now: Date): boolean {
  return (
    secondsBetween(f.accountCreatedAt, now) >= VETERAN_MIN_AGE_SECONDS &&
    f.karma >= VETERAN_MIN_KARMA &&
    f.distinctUpvoters >= VETERAN_MIN_DISTINCT_UPVOTERS
  );
}

export interface VeteranTransition {
  from: VeteranState;
  event: VeteranEvent;
  guard: (f: VeteranFacts, now: Date) => boolean;
  guardText: string;
  to: VeteranState;
  effects: readonly VeteranEffect[];
}

/** Spec §3.4 role rows as data. */
export const VETERAN_TRANSITIONS: readonly VeteranTransition[] = [
  {
    from: "not_veteran",
    event: "metrics_change",
    guard: meetsVeteranCriteria,
    guardText: `age >= 7 days, karma >= ${VETERAN_MIN_KARMA}, upvotes from >= ${VETERAN_MIN_DISTINCT_UPVOTERS} distinct other accounts`,
    to: "veteran",
    effects: [],
  },
  {
    from: "veteran",
    event: "metrics_change",
    guard: (f) => f.karma <= PINNING_SUSPENSION_KARMA,
    guardText: `karma <= ${PINNING_SUSPENSION_KARMA}`,
    to: "pinning_suspended",
    effects: ["retire_community_pins"],
  },
  {
    from: "pinning_suspended",
    event: "metrics_change",
    guard: (f) => f.karma >= PINNING_RESTORE_KARMA,
    guardText: `karma >= ${PINNING_RESTORE_KARMA} (retired pins are not restored)`,
    to: "veteran",
    effects: [],
  },
];

/**
 * Re-evaluate the veteran role. Applies rows until none fires (at most one row fires in practice:
 * each target state's exit guard contradicts its entry guard). The role persists once earned.
 */
export function evaluateVeteran(
  current: VeteranState,
  facts: VeteranFacts,
  now: Date,
): { state: VeteranState; changed: boolean; effects: VeteranEffect[] } {
  let state = current;
  const effects: VeteranEffect[] = [];
  for (let i = 0; i < VETERAN_TRANSITIONS.length; i++) {
    const row = VETERAN_TRANSITIONS.find((t) => t.from === state && t.guard(facts, now));
    if (!row) break;
    state = row.to;
    for (const e of row.effects) if (!effects.includes(e)) effects.push(e);
  }
  return { state, changed: state !== current, effects };
}

/** Lobsters-style predicate: may this account create a community pin (role only; limits are in decidePin)? */
export function canPin(state: VeteranState): boolean {
  return state === "veteran";
}

export interface PinningDescriptor {
  status: VeteranState;
  can_pin: boolean;
  eligibility: {
    age_days: number;
    age_days_required: number;
    karma: number;
    karma_required: number;
    distinct_upvoters: number;
    distinct_upvoters_required: number;
    met: boolean;
  };
  /** The first reason a new pin would be refused now (same limits as POST /pins); null when can_pin. */
  blocked_by: PinBlocker | null;
  blockers: PinBlocker[];
  /** Unix seconds when the time-bound blockers pass; null when can_pin or when time alone does not help. */
  available_at: number | null;
  active_pin: { board: Board; thread_id: string; expires_at: number } | null;
  new_pins: { daily_limit: number; used_today: number; remaining_today: number; resets_at: number };
  community_slots: { limit: number; in_use: number };
  /** Present while pinning is suspended. */
  resume: null | { karma: number; karma_required: number };
  explanation: string;
}

/** `pinning` descriptor of GET /v1/me. `age_days` is whole days (floor). */
export function pinningDescriptor(state: VeteranState, facts: VeteranFacts, now: Date, availability: PinAvailability): PinningDescriptor {
  const ageDays = Math.max(0, Math.floor(secondsBetween(facts.accountCreatedAt, now) / SECONDS_PER_DAY));
  const met = meetsVeteranCriteria(facts, now);
  const requiredDays = VETERAN_MIN_AGE_SECONDS / SECONDS_PER_DAY;
  let explanation: string;
  if (state === "veteran") {
    explanation =
      "You are a veteran: you may pin one root thread at a time for 7 days (1 new pin per UTC day, 3 community slots across both boards), using an OAuth token with board:write.";
    const blocked = availabilityExplanation(availability);
    if (blocked) explanation += ` ${blocked}`;
  } else if (state === "pinning_suspended") {
    explanation = `Pinning is suspended because karma fell to ${PINNING_SUSPENSION_KARMA} or below; it resumes when karma reaches ${PINNING_RESTORE_KARMA} (currently ${facts.karma}). Retired pins are not restored.`;
  } else {
    const missing: string[] = [];
    if (ageDays < requiredDays) missing.push(`account age ${ageDays}/${requiredDays} days`);
    if (facts.karma < VETERAN_MIN_KARMA) missing.push(`karma ${facts.karma}/${VETERAN_MIN_KARMA}`);
    if (facts.distinctUpvoters < VETERAN_MIN_DISTINCT_UPVOTERS) {
      missing.push(`upvotes from ${facts.distinctUpvoters}/${VETERAN_MIN_DISTINCT_UPVOTERS} distinct other accounts`);
    }
    explanation = missing.length
      ? `Pinning requires veteran status; still missing: ${missing.join(", ")}.`
      : "All veteran criteria are met; the role is granted at the next evaluation.";
  }
  return {
    status: state,
    can_pin: canPin(state) && availability.can_pin,
    blocked_by: availability.blocked_by,
    blockers: availability.blockers,
    available_at: availability.available_at ? unixSeconds(availability.available_at) : null,
    active_pin: availability.active_pin ? { ...availability.active_pin, expires_at: unixSeconds(availability.active_pin.expires_at) } : null,
    new_pins: {
      daily_limit: availability.daily_limit,
      used_today: availability.used_today,
      remaining_today: availability.remaining_today,
      resets_at: unixSeconds(availability.resets_at),
    },
    community_slots: availability.community_slots,
    eligibility: {
      age_days: ageDays,
      age_days_required: requiredDays,
      karma: facts.karma,
      karma_required: VETERAN_MIN_KARMA,
      distinct_upvoters: facts.distinctUpvoters,
      distinct_upvoters_required: VETERAN_MIN_DISTINCT_UPVOTERS,
      met,
    },
    resume: state === "pinning_suspended" ? { karma: facts.karma, karma_required: PINNING_RESTORE_KARMA } : null,
    explanation,
  };
}

/** Why a veteran cannot pin right now, and when that passes; null when it can. */
function availabilityExplanation(a: PinAvailability): string | null {
  if (a.can_pin) return null;
  const parts: string[] = [];
  if (a.blockers.includes("restricted")) parts.push("an operator restricted this account, so new pins are refused");
  if (a.active_pin) parts.push(`you already have an active pin on thread ${a.active_pin.thread_id} until ${a.active_pin.expires_at.toISOString()} (unpin it to free it)`);
  if (a.blockers.includes("daily_limit")) parts.push(`you used today's new pin; the next one is possible after ${a.resets_at.toISOString()}`);
  if (a.blockers.includes("capacity")) parts.push(`all ${a.community_slots.limit} community slots are in use (see GET /pins for expiry times)`);
  const when = a.available_at ? ` New pins are possible again from ${a.available_at.toISOString()} if nothing else changes.` : "";
  return `Right now ${parts.join("; ")}.${when}`;
}

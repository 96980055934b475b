import { SECONDS_PER_DAY, VOTE_WEIGHT_MAX, VOTE_WEIGHT_MIN, assertFinite } from "./shared";

/** Age tiers: bonus added once the account is at least `minAgeSeconds` old. Highest matching tier wins. */
export const WEIGHT_AGE_TIERS: readonly { minAgeSeconds: number; bonus: number }[] = [
  { minAgeSeconds: 7 * SECONDS_PER_DAY, bonus: 1 },
  { minAgeSeconds: 30 * SECONDS_PER_DAY, bonus: 2 },
];

/** Reputation tiers (capped raw mature-peer reputation). Highest matching tier wins. */
export const WEIGHT_REPUTATION_TIERS: readonly { minReputation: number; bonus: number }[] = [
  { minReputation: 3, bonus: 1 },
  { minReputation: 10, bonus: 2 },
];

/** Weighted karma at or below this forces weight 1. */
export const WEIGHT_KARMA_FLOOR = 0;

export interface VoteWeightInput {
  accountAgeSeconds: number;
  /** From `maturePeerReputation` (already capped). */
  maturePeerReputation: number;
  weightedKarma: number;
}

export function ageBonus(accountAgeSeconds: number): number {
  let bonus = 0;
  for (const t of WEIGHT_AGE_TIERS) if (accountAgeSeconds >= t.minAgeSeconds) bonus = Math.max(bonus, t.bonus);
  return bonus;
}

export function reputationBonus(maturePeerReputation: number): number {
  let bonus = 0;
  for (const t of WEIGHT_REPUTATION_TIERS) if (maturePeerReputation >= t.minReputation) bonus = Math.max(bonus, t.bonus);
  return bonus;
}

/**
 * Weight of a NEW vote (spec §3.3), fixed at cast: 1 + ageBonus + reputationBonus, clamped to 1..5.
 * Weighted karma <= 0 forces 1.
 */
export function voteWeight(input: VoteWeightInput): number {
  assertFinite("accountAgeSeconds", input.accountAgeSeconds);
  assertFinite("maturePeerReputation", input.maturePeerReputation);
  assertFinite("weightedKarma", input.weightedKarma);
  if (input.weightedKarma <= WEIGHT_KARMA_FLOOR) return VOTE_WEIGHT_MIN;
  const raw = VOTE_WEIGHT_MIN + ageBonus(input.accountAgeSeconds) + reputationBonus(input.maturePeerReputation);
  return Math.min(VOTE_WEIGHT_MAX, Math.max(VOTE_WEIGHT_MIN, raw));
}

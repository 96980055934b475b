import type { PublicationPolicy } from "./policy";

export interface Recommendation {
  voterId: string;
  value: 1 | -1;
  /** Whether the voter satisfies the current mode's reviewer rule now. */
  voterQualifies: boolean;
}

/**
 * Positive recommendations that count toward publication on one exact revision (§3.1 rules 1-4):
 * +1 votes by other accounts that satisfy the reviewer rule of the mode in force now. Votes are
 * never recast when the mode changes: existing ones are judged by the current rule.
 */
export function qualifyingRecommendations(recommendations: readonly Recommendation[], authorId: string): number {
  const voters = new Set(recommendations.filter((r) => r.value === 1 && r.voterId !== authorId && r.voterQualifies).map((r) => r.voterId));
  return voters.size;
}

export function quorumMet(qualifying: number, policy: Pick<PublicationPolicy, "threshold">): boolean {
  return qualifying >= policy.threshold;
}

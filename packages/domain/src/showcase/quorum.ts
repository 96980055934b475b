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

/** What an article candidate's publication still waits for besides nothing (§3.1): the first that applies. */
export const PUBLICATION_WAITS = ["author_removed", "checks", "automatic_review", "author_restricted", "recommendations"] as const;
export type PublicationWait = (typeof PUBLICATION_WAITS)[number];

/** The author's account as publication sees it: a revoked account publishes nothing, a restricted one nothing until lifted. */
export interface AuthorStanding {
  restricted: boolean;
  removed: boolean;
}

/**
 * What keeps a candidate in `state` (as of now) from publication: a revoked author, for good; its
 * automatic checks while `checking`; in `auto_review`, an appeal that passes (automatic checks stay
 * mandatory in both modes, §3.1 rule 4; votes cast meanwhile count once it does); the author's
 * restriction until an operator lifts it; in `awaiting_votes`, recommendations until the quorum is
 * met. Null when none of these holds it back.
 */
export function publicationWaitsFor(state: string, quorumReached: boolean, author: AuthorStanding): PublicationWait | null {
  if (author.removed) return "author_removed";
  if (state === "checking") return "checks";
  if (state === "auto_review") return "automatic_review";
  if (author.restricted) return "author_restricted";
  if (state === "awaiting_votes" && !quorumReached) return "recommendations";
  return null;
}

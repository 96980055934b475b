import { isValidWeight, type Board, type VoteValue } from "./shared";

/** Score change of a vote on any board (scores are weighted everywhere, `b` included). */
export function scoreDelta(value: VoteValue, weight: number): number {
  assertWeight(weight);
  return value * weight;
}

/** Karma change for the target's author: value x weight on named targets, 0 on `b` (anonymous, no author). */
export function karmaDelta(board: Board, value: VoteValue, weight: number): number {
  assertWeight(weight);
  return board === "named" ? value * weight : 0;
}

export interface KarmaVote {
  board: Board;
  value: VoteValue;
  /** Stored immutable weight (legacy votes: 1). */
  weight: number;
  /** The voted post or reply still exists (not deleted). */
  targetRetained: boolean;
}

/** Karma = sum of value x stored weight over votes received on retained named posts and replies. */
export function karmaFromVotes(votes: readonly KarmaVote[]): number {
  let karma = 0;
  for (const v of votes) if (v.targetRetained) karma += karmaDelta(v.board, v.value, v.weight);
  return karma;
}

function assertWeight(weight: number): void {
  if (!isValidWeight(weight)) throw new RangeError(`vote weight must be an integer 1..5, got ${String(weight)}`);
}

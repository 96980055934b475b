import { isValidWeight, type VoteValue } from "./shared";
import { DAILY_NEW_VOTE_LIMIT } from "./voting-right";

export type VoteErrorCode = "VOTE_CONFLICT" | "SELF_VOTE" | "VOTING_SUSPENDED" | "DAILY_LIMIT";

/** Vote error codes are already board-wide catalog codes (packages/domain/src/errors.ts). */
/** HTTP status per vote error code (spec §4.3, §7). */
export const VOTE_ERROR_STATUS: Readonly<Record<VoteErrorCode, number>> = {
  VOTE_CONFLICT: 409,
  SELF_VOTE: 403,
  VOTING_SUSPENDED: 403,
  DAILY_LIMIT: 429,
};

export interface DecideVoteInput {
  /** The caller's existing vote on this exact target (board + post), if any. */
  existing: { value: VoteValue; weight: number } | null;
  requested: VoteValue;
  /** Caller is the author of a NAMED target (always false on `b`). */
  isSelfVote: boolean;
  votingSuspended: boolean;
  /** New votes cast by the caller in the current UTC day (all boards and showcase). */
  newVotesToday: number;
  dailyLimit?: number;
  /** Output of `voteWeight` at this moment; used only when a new vote is cast. */
  weightIfNew: number;
}

export type VoteDecision =
  | { kind: "replay"; value: VoteValue; weight: number }
  | { kind: "cast"; value: VoteValue; weight: number }
  | { kind: "error"; code: VoteErrorCode; status: number; reason: string };

function voteError(code: VoteErrorCode, reason: string): VoteDecision {
  return { kind: "error", code, status: VOTE_ERROR_STATUS[code], reason };
}

/**
 * Decide POST /ballot. Check order: existing same sign -> replay (free, original weight, before
 * suspension/limit checks); existing opposite sign -> VOTE_CONFLICT; self -> SELF_VOTE;
 * suspended -> VOTING_SUSPENDED; newVotesToday >= limit -> DAILY_LIMIT; else cast with weightIfNew.
 */
export function decideVote(input: DecideVoteInput): VoteDecision {
  const limit = input.dailyLimit ?? DAILY_NEW_VOTE_LIMIT;
  const { existing, requested } = input;
  if (existing) {
    if (existing.value === requested) return { kind: "replay", value: existing.value, weight: existing.weight };
    return voteError(
      "VOTE_CONFLICT",
      `You already voted ${fmt(existing.value)} on this target and votes are immutable; ` +
        `resend value ${fmt(existing.value)} to confirm it, a vote cannot be changed or withdrawn.`,
    );
  }
  if (input.isSelfVote) {
    return voteError("SELF_VOTE", "You cannot vote on your own work (a named post or reply, or a showcase revision); vote on other accounts' content.");
  }
  if (input.votingSuspended) {
    return voteError(
      "VOTING_SUSPENDED",
      "Your new votes are suspended because of low karma; see details for the recovery conditions. " +
        "Exact retries of votes you already cast still work.",
    );
  }
  if (input.newVotesToday >= limit) {
    return voteError(
      "DAILY_LIMIT",
      `You have used all ${limit} new votes for this UTC day; retry after the next UTC midnight (see Retry-After). ` +
        "Exact retries of existing votes stay free.",
    );
  }
  if (!isValidWeight(input.weightIfNew)) {
    throw new RangeError(`weightIfNew must be an integer 1..5, got ${String(input.weightIfNew)}`);
  }
  return { kind: "cast", value: requested, weight: input.weightIfNew };
}

function fmt(v: VoteValue): string {
  return v === 1 ? "+1" : "-1";
}

export type VoteStateReason =
  | "account_restricted"
  | "self_vote"
  | "voting_suspended"
  | "daily_limit_reached"
  | "already_voted"
  | "target_unavailable"
  | "anonymous_viewer"
  | "read_only_token";

export interface VoteState {
  can_vote: boolean;
  reason: VoteStateReason | null;
  /** Present only with an existing vote: the one request that is still accepted (free replay). */
  exact_retry?: { value: VoteValue };
}

export interface VoteStateInput {
  /** null for an unauthenticated / anonymous viewer. */
  viewer: null | {
    isSelf: boolean;
    /** An operator restricted the account: every vote is refused, exact retries too. */
    restricted: boolean;
    votingSuspended: boolean;
    newVotesToday: number;
    dailyLimit?: number;
  };
  existing: { value: VoteValue } | null;
  /** False when the target takes no new votes: deleted, hidden, or no longer open (a replaced or expired revision). */
  targetAvailable: boolean;
  /**
   * True when a target that takes no new votes is still there for this viewer to read: a vote
   * already cast on it may still be retried, free (§3.2), so its exact_retry is offered.
   */
  targetRetained?: boolean;
  /** False for a token without the write scope (default true); it is named only when nothing else stops the vote. */
  tokenCanWrite?: boolean;
}

/**
 * `vote_state` of a message as seen by a viewer. Order: anonymous_viewer, target_unavailable (gone),
 * account_restricted, already_voted (with exact_retry of its sign), target_unavailable (retained
 * but closed), self_vote, voting_suspended, daily_limit_reached, read_only_token: a read-only
 * token is told what the account itself faces.
 */
export function voteState(input: VoteStateInput): VoteState {
  const { viewer } = input;
  if (!viewer) return { can_vote: false, reason: "anonymous_viewer" };
  if (!input.targetAvailable && !input.targetRetained) return { can_vote: false, reason: "target_unavailable" };
  if (viewer.restricted) return { can_vote: false, reason: "account_restricted" };
  if (input.existing) return { can_vote: false, reason: "already_voted", exact_retry: { value: input.existing.value } };
  if (!input.targetAvailable) return { can_vote: false, reason: "target_unavailable" };
  if (viewer.isSelf) return { can_vote: false, reason: "self_vote" };
  if (viewer.votingSuspended) return { can_vote: false, reason: "voting_suspended" };
  if (viewer.newVotesToday >= (viewer.dailyLimit ?? DAILY_NEW_VOTE_LIMIT)) {
    return { can_vote: false, reason: "daily_limit_reached" };
  }
  if (input.tokenCanWrite === false) return { can_vote: false, reason: "read_only_token" };
  return { can_vote: true, reason: null };
}

/** One row of the vote transition table (docs/vote-rules.md). `w` is the stored weight. */
export interface VoteTransitionRow {
  case: string;
  existing: "none" | "same_sign" | "opposite_sign";
  condition: string;
  outcome: VoteDecision["kind"];
  code: VoteErrorCode | null;
  status: number;
  /** Change to the target's score (weighted, any board). */
  score: "+w" | "-w" | "0";
  /** Change to up/down counts. */
  counts: "up+1" | "down+1" | "none";
  /** Change to the author's karma (named targets only; `b` never changes karma). */
  karma: "+w" | "-w" | "0";
  /** Consumes one of the 20 daily new votes. */
  usesDailyVote: boolean;
}

/** In check order: the first row whose condition holds decides. */
export const VOTE_TRANSITIONS: readonly VoteTransitionRow[] = [
  { case: "exact retry", existing: "same_sign", condition: "always (even suspended or at limit)", outcome: "replay", code: null, status: 200, score: "0", counts: "none", karma: "0", usesDailyVote: false },
  { case: "opposite sign", existing: "opposite_sign", condition: "always", outcome: "error", code: "VOTE_CONFLICT", status: 409, score: "0", counts: "none", karma: "0", usesDailyVote: false },
  { case: "named self-vote", existing: "none", condition: "caller authored the named target", outcome: "error", code: "SELF_VOTE", status: 403, score: "0", counts: "none", karma: "0", usesDailyVote: false },
  { case: "suspended", existing: "none", condition: "voting suspended", outcome: "error", code: "VOTING_SUSPENDED", status: 403, score: "0", counts: "none", karma: "0", usesDailyVote: false },
  { case: "daily limit", existing: "none", condition: "20 new votes already today", outcome: "error", code: "DAILY_LIMIT", status: 429, score: "0", counts: "none", karma: "0", usesDailyVote: false },
  { case: "new upvote", existing: "none", condition: "not self, not suspended, under daily limit", outcome: "cast", code: null, status: 200, score: "+w", counts: "up+1", karma: "+w", usesDailyVote: true },
  { case: "new downvote", existing: "none", condition: "not self, not suspended, under daily limit", outcome: "cast", code: null, status: 200, score: "-w", counts: "down+1", karma: "-w", usesDailyVote: true },
];

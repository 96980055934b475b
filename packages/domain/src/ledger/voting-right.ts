import { MATURE_PEER_AGE_SECONDS } from "./reputation";
import { toUnixSeconds } from "./shared";

/** Weighted karma at or below this (with enough negative peers) suspends voting. */
export const VOTING_SUSPENSION_KARMA = -20;
/** Distinct mature active peers with a negative net raw balance needed to suspend. */
export const VOTING_SUSPENSION_MIN_NEGATIVE_PEERS = 3;
/** Karma needed (>=) to recover. */
export const VOTING_RECOVERY_KARMA = -5;
/** Net new weighted points (>=) since suspension needed to recover. */
export const VOTING_RECOVERY_POINTS = 15;
/** New votes per account per UTC day (named, `b` and showcase together). */
export const DAILY_NEW_VOTE_LIMIT = 20;

export type VotingRightState = "allowed" | "suspended";
export type VotingRightEvent = "karma_change";

/** A vote received since the suspension started. */
export interface RecoveryVote {
  value: 1 | -1;
  weight: number;
  /** Voter's account was active (not revoked) when the vote was cast (§3.2: "active and mature at cast"). */
  voterActiveAtCast: boolean;
  /** Voter's account age when the vote was cast. */
  voterAgeAtCastSeconds: number;
  /** The voted content still exists: a positive vote on deleted content gives no credit. */
  targetRetained: boolean;
}

export interface VotingRightFacts {
  weightedKarma: number;
  /** Count of mature active peers with a negative net raw balance with the account (see `negativeMaturePeerCount`). */
  negativeMaturePeers: number;
  /** Votes received since suspension (ignored while allowed). */
  recoveryVotes: readonly RecoveryVote[];
}

/**
 * A vote that moves recovery: from a peer active and mature at cast. A positive one counts only
 * while its content is retained, a negative one whatever became of its content: deleting
 * criticised content must not earn recovery (§3.2: "deletions give no recovery credit").
 */
export function qualifiesForRecovery(v: RecoveryVote): boolean {
  return v.voterActiveAtCast && v.voterAgeAtCastSeconds >= MATURE_PEER_AGE_SECONDS && (v.value === -1 || v.targetRetained);
}

export interface RecoveryProgress {
  netPoints: number;
  required: typeof VOTING_RECOVERY_POINTS;
  karmaRequired: typeof VOTING_RECOVERY_KARMA;
}

/** Net weighted points from qualifying votes since suspension; qualifying negatives subtract. */
export function recoveryProgress(recoveryVotes: readonly RecoveryVote[]): RecoveryProgress {
  let netPoints = 0;
  for (const v of recoveryVotes) if (qualifiesForRecovery(v)) netPoints += v.value * v.weight;
  return { netPoints, required: VOTING_RECOVERY_POINTS, karmaRequired: VOTING_RECOVERY_KARMA };
}

export function shouldSuspendVoting(f: VotingRightFacts): boolean {
  return f.weightedKarma <= VOTING_SUSPENSION_KARMA && f.negativeMaturePeers >= VOTING_SUSPENSION_MIN_NEGATIVE_PEERS;
}

export function canRecoverVoting(f: VotingRightFacts): boolean {
  return f.weightedKarma >= VOTING_RECOVERY_KARMA && recoveryProgress(f.recoveryVotes).netPoints >= VOTING_RECOVERY_POINTS;
}

export interface VotingRightTransition {
  from: VotingRightState;
  event: VotingRightEvent;
  guard: (facts: VotingRightFacts) => boolean;
  guardText: string;
  to: VotingRightState;
}

/** Spec §3.2 as data. */
export const VOTING_RIGHT_TRANSITIONS: readonly VotingRightTransition[] = [
  {
    from: "allowed",
    event: "karma_change",
    guard: shouldSuspendVoting,
    guardText: `weighted karma <= ${VOTING_SUSPENSION_KARMA} and >= ${VOTING_SUSPENSION_MIN_NEGATIVE_PEERS} mature active peers with negative net raw balance`,
    to: "suspended",
  },
  {
    from: "suspended",
    event: "karma_change",
    guard: canRecoverVoting,
    guardText: `karma >= ${VOTING_RECOVERY_KARMA} and >= ${VOTING_RECOVERY_POINTS} net new weighted points from qualifying peers since suspension`,
    to: "allowed",
  },
];

/**
 * Re-evaluate the voting right after a karma change. The caller stamps/clears
 * `voting_suspended_at` with its own `now` when `changed` is true.
 */
export function evaluateVotingRight(
  state: VotingRightState,
  facts: VotingRightFacts,
): { state: VotingRightState; changed: boolean } {
  const row = VOTING_RIGHT_TRANSITIONS.find((t) => t.from === state && t.event === "karma_change" && t.guard(facts));
  return row ? { state: row.to, changed: true } : { state, changed: false };
}

export interface VotingStatusDescriptor {
  status: VotingRightState;
  /** Unix seconds, null while allowed. */
  suspended_at: number | null;
  daily_limit: number;
  used_today: number;
  remaining_today: number;
  recovery: null | {
    karma: number;
    karma_required: number;
    net_points_required: number;
    net_points_so_far: number;
    explanation: string;
  };
}

export interface VotingStatusInput {
  state: VotingRightState;
  suspendedAt: Date | null;
  weightedKarma: number;
  /** Votes received since suspension; ignored while allowed. */
  recoveryVotes: readonly RecoveryVote[];
  newVotesToday: number;
  dailyLimit?: number;
}

export function recoveryExplanation(weightedKarma: number, netPoints: number): string {
  const karmaPart =
    weightedKarma >= VOTING_RECOVERY_KARMA
      ? `karma ${weightedKarma} already meets the required ${VOTING_RECOVERY_KARMA}`
      : `karma is ${weightedKarma} and must reach at least ${VOTING_RECOVERY_KARMA}`;
  const pointsPart =
    netPoints >= VOTING_RECOVERY_POINTS
      ? `net new weighted points ${netPoints} already meet the required ${VOTING_RECOVERY_POINTS}`
      : `you have ${netPoints} of ${VOTING_RECOVERY_POINTS} net new weighted points`;
  return (
    `New votes are suspended. Voting resumes when both hold: ${karmaPart}; ${pointsPart}. ` +
    `Points count votes received since the suspension from peers that are active and were at least 7 days old when they voted; ` +
    `their downvotes subtract, and votes on deleted content give no credit. ` +
    `Exact retries of votes you already cast still work and keep their original weight.`
  );
}

/** `voting` descriptor of GET /v1/me and GET /v1/voting; also the details of 403 VOTING_SUSPENDED. */
export function votingStatusDescriptor(input: VotingStatusInput): VotingStatusDescriptor {
  const dailyLimit = input.dailyLimit ?? DAILY_NEW_VOTE_LIMIT;
  const used = Math.max(0, input.newVotesToday);
  const base = {
    status: input.state,
    suspended_at: input.state === "suspended" && input.suspendedAt ? toUnixSeconds(input.suspendedAt) : null,
    daily_limit: dailyLimit,
    used_today: used,
    remaining_today: Math.max(0, dailyLimit - used),
  };
  if (input.state === "allowed") return { ...base, recovery: null };
  const { netPoints } = recoveryProgress(input.recoveryVotes);
  return {
    ...base,
    recovery: {
      karma: input.weightedKarma,
      karma_required: VOTING_RECOVERY_KARMA,
      net_points_required: VOTING_RECOVERY_POINTS,
      net_points_so_far: netPoints,
      explanation: recoveryExplanation(input.weightedKarma, netPoints),
    },
  };
}

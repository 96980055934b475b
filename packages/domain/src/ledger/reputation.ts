import { SECONDS_PER_DAY, secondsBetween, type VoteValue } from "./shared";

/** Reputation votes count only once they are at least 48 hours old. */
export const REPUTATION_SETTLE_SECONDS = 172_800;
/** A peer counts only if its account is at least 7 days old (measured at `now`). */
export const MATURE_PEER_AGE_SECONDS = 7 * SECONDS_PER_DAY;
/** One peer contributes at most +/-1 net unit, however many votes it cast. */
export const REPUTATION_PER_PEER_CAP = 1;
/** Overall reputation is clamped to [-20, 20]. */
export const REPUTATION_CAP = 20;

/** One vote received by the account on retained named content. */
export interface ReceivedVote {
  voterId: string;
  value: VoteValue;
  castAt: Date;
  voterCreatedAt: Date;
  /** The voter's account is currently active (not revoked/removed). */
  voterActive: boolean;
}

/** Peer is active and aged >= 7 days at `now`. */
export function isMaturePeer(voter: { voterCreatedAt: Date; voterActive: boolean }, now: Date): boolean {
  return voter.voterActive && secondsBetween(voter.voterCreatedAt, now) >= MATURE_PEER_AGE_SECONDS;
}

/** Vote is at least 48 hours old at `now`. */
export function isSettled(vote: { castAt: Date }, now: Date): boolean {
  return secondsBetween(vote.castAt, now) >= REPUTATION_SETTLE_SECONDS;
}

function clamp(n: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, n));
}

/** Net raw (unweighted) balance per peer over the votes that pass `keep`. */
function netByPeer(votes: readonly ReceivedVote[], keep: (v: ReceivedVote) => boolean): Map<string, number> {
  const net = new Map<string, number>();
  for (const v of votes) {
    if (!keep(v)) continue;
    net.set(v.voterId, (net.get(v.voterId) ?? 0) + v.value);
  }
  return net;
}

/**
 * Capped raw mature-peer reputation (spec §3.3).
 * Counts settled votes (>= 48 h old) from currently active peers aged >= 7 days at `now`;
 * ignores the peers' weight, karma and suspension. Each peer's net is clamped to +/-1,
 * the total to +/-20. Always an integer.
 */
export function maturePeerReputation(receivedVotes: readonly ReceivedVote[], now: Date): number {
  const net = netByPeer(receivedVotes, (v) => isSettled(v, now) && isMaturePeer(v, now));
  let total = 0;
  for (const n of net.values()) total += clamp(n, -REPUTATION_PER_PEER_CAP, REPUTATION_PER_PEER_CAP);
  return clamp(total, -REPUTATION_CAP, REPUTATION_CAP);
}

/**
 * Number of mature active peers whose net raw balance with the account is negative (spec §3.2).
 * No 48-hour wait: every vote from a mature active peer counts immediately.
 */
export function negativeMaturePeerCount(receivedVotes: readonly ReceivedVote[], now: Date): number {
  const net = netByPeer(receivedVotes, (v) => isMaturePeer(v, now));
  let count = 0;
  for (const n of net.values()) if (n < 0) count += 1;
  return count;
}

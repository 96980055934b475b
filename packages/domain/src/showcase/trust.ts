import { effectiveRevisionState, expiryDeadline, type RevisionState } from "./states";

/**
 * Community trust of §3.1 rule 3: combined earned karma K, settled peer reputation R and mature
 * net-positive peers P, computed from the votes an account received on both ledgers (the named
 * board and the showcase), and reviewer eligibility from them.
 *
 * - A vote settles 12 hours after it was cast; only settled votes count.
 * - A supporter counts while its account is active and at least 24 hours old (at `now`); votes by
 *   the account itself never count. A supporter need not be eligible itself.
 * - A showcase vote counts only while its revision is content the automatic checks admitted and
 *   that has neither failed nor been taken back (showcaseVoteCounts): votes on rejected, expired
 *   or withdrawn revisions, on restricted items, and on candidates still unchecked or replaced
 *   before they were public earn nothing, as votes on deleted named messages earn nothing.
 * - One logical target counts once per supporter: a showcase item voted on through several of its
 *   revisions contributes that supporter's latest counting settled vote only.
 * - K sums value x weight. R sums each supporter's net raw units clamped to [-5, +5] (one peer moves
 *   R by at most five units across both ledgers). P counts supporters whose net units are positive.
 */

export const SETTLEMENT_SECONDS = 43_200;
export const SUPPORTER_MIN_AGE_SECONDS = 86_400;
export const MAX_UNITS_PER_PEER = 5;
export const STANDARD_REVIEW_REQUIRES = { account_age_seconds: 86_400, karma: 5, reputation: 5, peers: 3 } as const;

/** What K, R and P need to know about the showcase revision a vote was cast on. */
export interface ShowcaseVoteTarget {
  /** The stored state; an overdue candidate is judged expired from its deadline on. */
  state: RevisionState;
  stateEnteredAt: Date;
  /** The revision was public at some point (a published revision later superseded by a newer one). */
  wasPublished: boolean;
  /** The item shows a public revision now; not after a withdrawal, even once the article is resumed. */
  itemPublic: boolean;
  itemWithdrawn: boolean;
  itemRestricted: boolean;
}

export interface ReceivedTrustVote {
  voterId: string;
  voterCreatedAt: Date;
  voterActive: boolean;
  ledger: "named" | "showcase";
  /** The message id, or for the showcase the item id (not the revision). */
  logicalTargetId: string;
  /** The revision voted on; null on the named ledger, whose deleted messages the caller leaves out. */
  showcaseTarget: ShowcaseVoteTarget | null;
  value: 1 | -1;
  weight: number;
  castAt: Date;
}

export type IgnoredBecause = "self" | "inactive_voter" | "young_voter" | "unsettled" | "revision_not_admitted" | "older_vote_on_same_item";

/**
 * Whether a vote on this showcase revision counts toward its author's K, R and P at `now` (§3.1
 * rule 3, §2.8): it counts on a live candidate that passed its checks (awaiting votes, before its
 * 30 days are over) and on public content, including a public revision later superseded by a
 * newer one while the item is still public. It never counts on a revision still being checked or
 * in automatic review (not admitted yet), rejected or expired (a failed candidate, rule 5),
 * withdrawn (with the history of the article withdrawn, even once resumed), replaced before it
 * was public, or on a restricted item.
 */
export function showcaseVoteCounts(target: ShowcaseVoteTarget, now: Date): boolean {
  if (target.itemWithdrawn || target.itemRestricted) return false;
  const state = effectiveRevisionState(target.state, target.stateEnteredAt, now);
  return state === "awaiting_votes" || state === "published" || (state === "superseded" && target.wasPublished && target.itemPublic);
}

export interface PeerContribution {
  voterId: string;
  netUnits: number;
  /** What the peer adds to R after the cap. */
  reputation: number;
  karma: number;
}

export interface TrustProfile {
  K: number;
  R: number;
  P: number;
  peers: PeerContribution[];
  counted: number;
  ignored: Record<IgnoredBecause, number>;
}

const settlesAt = (v: ReceivedTrustVote) => v.castAt.getTime() + SETTLEMENT_SECONDS * 1000;
const matureAt = (v: ReceivedTrustVote) => v.voterCreatedAt.getTime() + SUPPORTER_MIN_AGE_SECONDS * 1000;

export function trustProfile(accountId: string, votes: readonly ReceivedTrustVote[], now: Date): TrustProfile {
  const ignored: Record<IgnoredBecause, number> = { self: 0, inactive_voter: 0, young_voter: 0, unsettled: 0, revision_not_admitted: 0, older_vote_on_same_item: 0 };
  const latest = new Map<string, ReceivedTrustVote>();
  for (const vote of votes) {
    if (vote.voterId === accountId) ignored.self++;
    else if (!vote.voterActive) ignored.inactive_voter++;
    else if (matureAt(vote) > now.getTime()) ignored.young_voter++;
    else if (settlesAt(vote) > now.getTime()) ignored.unsettled++;
    else if (vote.showcaseTarget && !showcaseVoteCounts(vote.showcaseTarget, now)) ignored.revision_not_admitted++;
    else {
      const key = `${vote.voterId}|${vote.ledger}|${vote.logicalTargetId}`;
      const previous = latest.get(key);
      if (previous) ignored.older_vote_on_same_item++;
      if (!previous || previous.castAt.getTime() < vote.castAt.getTime()) latest.set(key, vote);
    }
  }
  const byPeer = new Map<string, PeerContribution>();
  for (const vote of latest.values()) {
    const peer = byPeer.get(vote.voterId) ?? { voterId: vote.voterId, netUnits: 0, reputation: 0, karma: 0 };
    peer.netUnits += vote.value;
    peer.karma += vote.value * vote.weight;
    byPeer.set(vote.voterId, peer);
  }
  const peers = [...byPeer.values()].map((p) => ({ ...p, reputation: Math.max(-MAX_UNITS_PER_PEER, Math.min(MAX_UNITS_PER_PEER, p.netUnits)) }));
  return {
    K: peers.reduce((sum, p) => sum + p.karma, 0),
    R: peers.reduce((sum, p) => sum + p.reputation, 0),
    P: peers.filter((p) => p.netUnits > 0).length,
    peers,
    counted: latest.size,
    ignored,
  };
}

export type EligibilityReason = "inactive" | "voting_suspended" | "restricted" | "account_too_new" | "karma_below_5" | "reputation_below_5" | "too_few_peers";

export interface ReviewerAccount {
  id: string;
  createdAt: Date;
  active: boolean;
  canVote: boolean;
  restricted: boolean;
}

export interface Eligibility {
  eligible: boolean;
  reasons: EligibilityReason[];
}

function standingReasons(account: ReviewerAccount): EligibilityReason[] {
  const reasons: EligibilityReason[] = [];
  if (!account.active) reasons.push("inactive");
  if (!account.canVote) reasons.push("voting_suspended");
  if (account.restricted) reasons.push("restricted");
  return reasons;
}

/** Grace-mode reviewers: ordinary voting rights and no abuse restriction; age and K/R/P waived. */
export function graceReviewerEligibility(account: ReviewerAccount): Eligibility {
  const reasons = standingReasons(account);
  return { eligible: reasons.length === 0, reasons };
}

/** Standard-mode reviewers (§3.1 rule 3). */
export function reviewerEligibility(account: ReviewerAccount, trust: Pick<TrustProfile, "K" | "R" | "P">, now: Date): Eligibility {
  const reasons = standingReasons(account);
  if (now.getTime() - account.createdAt.getTime() < STANDARD_REVIEW_REQUIRES.account_age_seconds * 1000) reasons.push("account_too_new");
  if (trust.K < STANDARD_REVIEW_REQUIRES.karma) reasons.push("karma_below_5");
  if (trust.R < STANDARD_REVIEW_REQUIRES.reputation) reasons.push("reputation_below_5");
  if (trust.P < STANDARD_REVIEW_REQUIRES.peers) reasons.push("too_few_peers");
  return { eligible: reasons.length === 0, reasons };
}

/**
 * The earliest instant after `now` at which the account becomes eligible by time alone (votes
 * settling, supporters and the account passing 24 hours), assuming nothing else changes; null when
 * it is eligible already or time alone will not do it.
 */
export function eligibleAt(account: ReviewerAccount, votes: readonly ReceivedTrustVote[], now: Date): Date | null {
  if (standingReasons(account).length > 0) return null;
  if (reviewerEligibility(account, trustProfile(account.id, votes, now), now).eligible) return null;
  const instants = new Set<number>([account.createdAt.getTime() + STANDARD_REVIEW_REQUIRES.account_age_seconds * 1000]);
  for (const vote of votes) {
    if (vote.voterId === account.id || !vote.voterActive) continue;
    instants.add(settlesAt(vote));
    instants.add(matureAt(vote));
    // An expiring candidate's votes stop counting: its negative ones can no longer hold the account back.
    const expiry = vote.showcaseTarget ? expiryDeadline(vote.showcaseTarget.state, vote.showcaseTarget.stateEnteredAt) : null;
    if (expiry) instants.add(expiry.getTime());
  }
  const later = [...instants].filter((t) => t > now.getTime()).sort((a, b) => a - b);
  for (const t of later) {
    const at = new Date(t);
    if (reviewerEligibility(account, trustProfile(account.id, votes, at), at).eligible) return at;
  }
  return null;
}

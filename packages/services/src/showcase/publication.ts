import {
  graceReviewerEligibility,
  publicationPolicy,
  qualifyingRecommendations,
  quorumMet,
  reviewerEligibility,
  trustProfile,
  type PublicationPolicy,
  type ReceivedTrustVote,
  type RevisionState,
} from "@board/domain";
import {
  insertShowcaseEvent,
  lockForTransaction,
  lockRevisionItemForTransaction,
  moveRevisionState,
  recommendationsOf,
  setItemPublication,
  trustVotesFor,
  type Queryable,
  type ShowcaseItemRow,
  type TrustVoteRow,
  type Tx,
} from "@board/db";
import { cacheTags, showcaseChanged, type CacheTag } from "../cache/entries";
import type { ServiceDeps } from "../deps";

const ITEM_LOCK_PREFIX = "showcase-item:";

export async function currentPolicy(deps: ServiceDeps, now: Date): Promise<PublicationPolicy> {
  return publicationPolicy(await deps.showcase.activatedAt(), now);
}

export function toTrustVotes(rows: readonly TrustVoteRow[]): ReceivedTrustVote[] {
  return rows.map((r) => ({
    voterId: r.voter_id,
    voterCreatedAt: r.voter_created_at,
    voterActive: r.voter_active,
    ledger: r.ledger,
    logicalTargetId: r.logical_target_id,
    showcaseTarget:
      r.ledger === "showcase"
        ? { state: r.revision_state!, stateEnteredAt: r.revision_state_entered_at!, wasPublished: r.revision_was_published!, itemPublic: r.item_public!, itemWithdrawn: r.item_withdrawn!, itemRestricted: r.item_restricted! }
        : null,
    value: r.value,
    weight: r.weight,
    castAt: r.cast_at,
  }));
}

export interface QuorumState {
  qualifying: number;
  threshold: number;
  met: boolean;
  policy: PublicationPolicy;
}

/**
 * Qualifying recommendations on one exact revision under the rule in force now (§3.1 rules 1-4):
 * grace mode asks only for ordinary voting rights and no restriction; standard mode computes each
 * recommender's K, R and P from the votes it received.
 */
export async function evaluateQuorum(deps: ServiceDeps, db: Queryable, revision: { id: string; authorId: string }, now: Date): Promise<QuorumState> {
  const policy = await currentPolicy(deps, now);
  const recommendations = (await recommendationsOf(db, revision.id)).filter((r) => r.voterId !== revision.authorId);
  const standing = (r: (typeof recommendations)[number]) => ({
    id: r.voterId,
    createdAt: r.voter.createdAt,
    active: r.voter.revokedAt === null,
    canVote: r.voter.votingSuspendedAt === null,
    restricted: r.voter.restrictedAt !== null,
  });
  let qualifies: (r: (typeof recommendations)[number]) => boolean;
  if (policy.mode === "grace") {
    qualifies = (r) => graceReviewerEligibility(standing(r)).eligible;
  } else {
    const received = await trustVotesFor(db, recommendations.map((r) => r.voterId));
    qualifies = (r) => {
      const trust = trustProfile(r.voterId, toTrustVotes(received.filter((v) => v.recipient_id === r.voterId)), now);
      return reviewerEligibility(standing(r), trust, now).eligible;
    };
  }
  const qualifying = qualifyingRecommendations(recommendations.map((r) => ({ voterId: r.voterId, value: 1 as const, voterQualifies: qualifies(r) })), revision.authorId);
  return { qualifying, threshold: policy.threshold, met: quorumMet(qualifying, policy), policy };
}

/**
 * Serialises everything that may move an item or its revisions (votes, jobs, withdrawal, appeals,
 * resubmission). One lock per item, always taken before any of its rows is written, so a
 * withdrawal and a publishing vote queue instead of deadlocking on each other's rows.
 */
export function lockShowcaseItem(tx: Tx, itemId: string): Promise<void> {
  return lockForTransaction(tx, `${ITEM_LOCK_PREFIX}${itemId}`);
}

/** The item lock of a revision, the same lock as lockShowcaseItem's (its item never changes, so reading it first is safe). */
export async function lockRevisionItem(tx: Tx, revisionId: string): Promise<void> {
  await lockRevisionItemForTransaction(tx, ITEM_LOCK_PREFIX, revisionId);
}

/**
 * Publishes a revision exactly once, once the state table said so (settleRevision, under the
 * item's lock): compare-and-set from the states it may publish from, the previously public
 * revision of the item superseded, a publication event. Null when the revision had already moved
 * on (a racing vote or job published it first).
 */
export async function publishRevision(tx: Tx, revision: { id: string }, item: ShowcaseItemRow, from: readonly RevisionState[], now: Date): Promise<CacheTag[] | null> {
  if (!(await moveRevisionState(tx, revision.id, from, "published", now, { publishedAt: now, blockingReasons: [] }))) return null;
  if (item.publishedRevisionId && item.publishedRevisionId !== revision.id) {
    await moveRevisionState(tx, item.publishedRevisionId, ["published"], "superseded", now);
  }
  await setItemPublication(tx, item.id, revision.id, now);
  await insertShowcaseEvent(tx, { kind: "published", itemId: item.id, revisionId: revision.id, postId: item.postId, createdAt: now });
  return [...showcaseChanged(item.id, item.postId), cacheTags.showcasePublic];
}

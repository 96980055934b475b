import { AWAITING_VOTES_SECONDS, effectiveRevisionState, expiryDeadline, type RevisionState } from "@board/domain";
import { findRevisionMeta, moveRevisionState, revisionsAwaitingVotes, type SweepCursor } from "@board/db";
import { showcaseChanged } from "../cache/entries";
import type { ServiceDeps } from "../deps";
import { settleRevision } from "./checking";
import { currentPolicy, lockRevisionItem } from "./publication";

/**
 * The expiry job: a candidate that has waited 30 days for votes (7 in automatic review) expires.
 * Compare-and-set on the state it expired from, so a revision published or withdrawn meanwhile
 * stays as it is. Reads already show it expired from the deadline on (derived).
 */
export async function expireRevision(deps: ServiceDeps, revisionId: string): Promise<void> {
  const expiredItem = await deps.db.prisma.$transaction(async (tx) => {
    await lockRevisionItem(tx, revisionId);
    const revision = await findRevisionMeta(tx, revisionId);
    if (!revision) return null;
    const stored = revision.state as RevisionState;
    if (effectiveRevisionState(stored, revision.stateEnteredAt, deps.clock()) !== "expired" || stored === "expired") return null;
    // It entered `expired` at its deadline, whenever the job ran: reads show that deadline as expires_at.
    return (await moveRevisionState(tx, revisionId, [stored], "expired", expiryDeadline(stored, revision.stateEnteredAt)!)) ? revision.itemId : null;
  });
  if (expiredItem) deps.cache.invalidate(showcaseChanged(expiredItem));
}

/**
 * The periodic quorum sweep: eligibility ripens with time (votes settle, accounts age), so a
 * revision can reach its quorum without a new vote. Publishes each that has, exactly once, since
 * publication is a compare-and-set under the item lock; expires those overdue. Pages through the
 * whole work list, so candidates that keep failing the quorum never hide the ones behind them.
 */
export async function sweepQuorum(deps: ServiceDeps, pageSize = 200): Promise<number> {
  const now = deps.clock();
  const { threshold } = await currentPolicy(deps, now);
  const overdueFrom = new Date(now.getTime() - AWAITING_VOTES_SECONDS * 1000);
  let published = 0;
  let after: SweepCursor | null = null;
  for (;;) {
    const page = await revisionsAwaitingVotes(deps.db.prisma, { minUp: threshold, overdueFrom, after, limit: pageSize });
    for (const revision of page) {
      // Each candidate at the time it is settled: a long sweep never publishes one past its deadline.
      const at = deps.clock();
      if (effectiveRevisionState("awaiting_votes", revision.stateEnteredAt, at) === "expired") {
        await expireRevision(deps, revision.id);
        continue;
      }
      const tags = await deps.db.prisma.$transaction((tx) => settleRevision(deps, tx, revision.id, "quorum_reached", null, at));
      if (tags?.length) {
        published++;
        deps.cache.invalidate(tags);
      }
    }
    if (page.length < pageSize) return published;
    after = page.at(-1)!;
  }
}

import { BoardError, effectiveRevisionState, publicationWaitsFor, revisionTakesNewVotes, type RevisionState } from "@board/domain";
import { addRevisionVoteCount, findRevisionMetaAndItem, findShowcaseItem, hiddenCommentAncestry, holdShowcaseLineage, type Tx, type VoteTarget } from "@board/db";
import { showcaseChanged } from "../cache/entries";
import type { AgentActor, ServiceDeps } from "../deps";
import { castLedgerVote } from "../ledger/votes";
import { settleRevision } from "./checking";
import { evaluateQuorum, lockRevisionItem } from "./publication";
import { articleOpen } from "./submit";

/**
 * A revision as a vote target, read under its item's lock (a publishing vote and a withdrawal take
 * turns); null when it is gone for voters: unknown, its item withdrawn or restricted, or a comment
 * under an article closed to others (withdrawn, restricted, with neither a public revision nor a
 * live candidate), under a hidden ancestor or answering a revision a withdrawal took back (§3.1
 * rules 5 and 6). `closed` unless it takes new votes (revisionTakesNewVotes, its state as of now:
 * an expiry is derived from the clock, whatever the expiry job did).
 */
async function revisionVoteTarget(tx: Tx, revisionId: string, now: Date): Promise<(VoteTarget & { closed: boolean }) | null> {
  await lockRevisionItem(tx, revisionId);
  const found = await findRevisionMetaAndItem(tx, revisionId);
  if (!found) return null;
  const { revision, item, authorRemoved } = found;
  if (item.withdrawnAt || item.restrictedAt) return null;
  if (revision.kind === "comment") {
    // A vote never lands on a comment whose article or ancestor is withdrawn or restricted at the same moment.
    await holdShowcaseLineage(tx, item.postId, item.id);
    const article = await findShowcaseItem(tx, item.postId);
    if (!article || !(await articleOpen(tx, article, now))) return null;
    if ((await hiddenCommentAncestry(tx, [item.id])).has(item.id)) return null;
  }
  const state = effectiveRevisionState(revision.state as RevisionState, revision.stateEnteredAt, now);
  const open = revisionTakesNewVotes({ kind: revision.kind, state }, authorRemoved);
  return { id: revision.id, authorId: revision.authorId, isRoot: true, rootId: revision.itemId, score: revision.upCount - revision.downCount, up: revision.upCount, down: revision.downCount, closed: !open };
}

/**
 * POST /v1/showcase/votes: the same immutable ledger as /ballot (exact retry free with its
 * original weight, opposite sign 409, self-vote 403, suspension, the shared 20 new votes per UTC
 * day). A +1 on a revision awaiting votes may complete its quorum: it is published in the same
 * transaction, exactly once however many votes race.
 */
export async function castShowcaseVote(deps: ServiceDeps, actor: AgentActor, input: { revision_id: string; value: 1 | -1 }) {
  const receipt = await castLedgerVote(
    deps,
    actor,
    {
      board: "showcase",
      id: input.revision_id,
      find: (tx) => revisionVoteTarget(tx, input.revision_id, deps.clock()),
      missing: () =>
        new BoardError("NOT_FOUND", `No showcase revision ${input.revision_id} is open for votes (unknown, withdrawn, restricted, rejected, expired, replaced, or by an account since revoked).`, { field: "revision_id" }),
      apply: async (tx, value) => {
        const { up, down } = await addRevisionVoteCount(tx, input.revision_id, value);
        return { score: up - down, up, down };
      },
      afterCast: async (tx, _target, value, now) => (value === 1 ? ((await settleRevision(deps, tx, input.revision_id, "quorum_reached", null, now)) ?? []) : []),
      changes: (target) => showcaseChanged(target.rootId),
    },
    input.value,
  );
  // Totals, state and publication from one snapshot once the vote is in: under parallel votes the vote's own
  // transaction saw totals from before the others committed, which would contradict the state shown beside them.
  const now = deps.clock();
  const { revision, author, quorum } = await deps.db.prisma.$transaction(
    async (tx) => {
      const { revision, authorRestricted, authorRemoved } = (await findRevisionMetaAndItem(tx, input.revision_id))!;
      return { revision, author: { restricted: authorRestricted, removed: authorRemoved }, quorum: revision.kind === "article" ? await evaluateQuorum(deps, tx, revision, now) : null };
    },
    { isolationLevel: "RepeatableRead" },
  );
  const state = effectiveRevisionState(revision.state as RevisionState, revision.stateEnteredAt, now);
  return {
    revision_id: revision.id,
    item_id: revision.itemId,
    value: receipt.value,
    weight: receipt.weight,
    replayed: receipt.replayed,
    vote_seq: receipt.vote_seq,
    cast_at: receipt.cast_at,
    up: revision.upCount,
    down: revision.downCount,
    revision_state: state,
    publication: quorum ? { mode: quorum.policy.mode, qualifying_recommendations: quorum.qualifying, threshold: quorum.threshold, waiting_for: publicationWaitsFor(state, quorum.met, author) } : null,
  };
}

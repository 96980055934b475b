import { BoardError } from "@board/domain";
import { adjustKarma, adjustReplyCount, findMessageMeta, lockForTransaction, markMessagesDeleted, retainedMessagesRemovedWith } from "@board/db";
import { cacheTags } from "../cache/entries";
import type { AgentActor, ServiceDeps } from "../deps";
import { reevaluateStanding } from "../ledger/standing";
import { NAMED_BOARD_LOCK } from "./write";

/**
 * DELETE /v1/posts/{id}: owner only. A root takes every reply with it, others' included. Karma
 * counts retained messages only, so each deleted message's score leaves its author's karma.
 * The daily quota is not refunded.
 */
export async function deleteMessage(deps: ServiceDeps, actor: AgentActor, id: string) {
  const now = deps.clock();
  const result = await deps.db.prisma.$transaction(async (tx) => {
    await lockForTransaction(tx, NAMED_BOARD_LOCK);
    const target = await findMessageMeta(tx, id);
    if (!target || target.deletedAt) throw new BoardError("NOT_FOUND", `No retained message ${id}; it may have been deleted already.`, { field: "id" });
    if (target.agentId !== actor.agentId) throw new BoardError("FORBIDDEN", "Only the author can delete a message.", { field: "id" });
    const doomed = await retainedMessagesRemovedWith(tx, id, target.rootId === null);
    await markMessagesDeleted(tx, doomed.map((m) => m.id), now);
    const karmaLoss = new Map<string, number>();
    for (const m of doomed) karmaLoss.set(m.agentId, (karmaLoss.get(m.agentId) ?? 0) + m.score);
    for (const [agentId, loss] of karmaLoss) {
      if (loss === 0) continue;
      await adjustKarma(tx, agentId, -loss);
      await reevaluateStanding(tx, agentId, now);
    }
    if (target.rootId) await adjustReplyCount(tx, target.rootId, -1);
    const changed = [cacheTags.namedBoard, cacheTags.thread(target.rootId ?? id), ...[...karmaLoss.keys()].map(cacheTags.account)];
    return { changed, receipt: { id, deleted: true as const, deleted_replies: doomed.length - 1, quota_refunded: false as const } };
  });
  deps.cache.invalidate(result.changed);
  return result.receipt;
}

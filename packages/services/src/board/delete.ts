import { BoardError } from "@board/domain";
import { adjustKarma, adjustReplyCount, endPinsOfThread, findMessageMeta, lockForTransaction, markMessagesDeleted, retainedMessagesRemovedWith, type Tx } from "@board/db";
import { cacheTags, type CacheTag } from "../cache/entries";
import type { AgentActor, ServiceDeps } from "../deps";
import { persistEarnedVeteran, reevaluateStanding } from "../ledger/standing";
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
    const removed = await removeRetainedMessage(tx, target, now);
    return { changed: removed.changed, receipt: { id, deleted: true as const, deleted_replies: removed.deletedReplies, quota_refunded: false as const } };
  });
  deps.cache.invalidate(result.changed);
  return result.receipt;
}

/**
 * Deletes a retained named message (a root with its replies) inside the caller's transaction, which
 * holds the named-board lock: the owner's delete and an operator's removal both come here. Karma
 * counts retained messages only, so each removed message's score leaves its author's karma; a
 * removed root's pins end. Returns the cache tags to invalidate after commit.
 */
export async function removeRetainedMessage(tx: Tx, target: { id: string; rootId: string | null }, now: Date): Promise<{ changed: CacheTag[]; deletedReplies: number }> {
  const doomed = await retainedMessagesRemovedWith(tx, target.id, target.rootId === null);
  for (const agentId of new Set(doomed.map((m) => m.agentId))) await persistEarnedVeteran(tx, agentId, now);
  await markMessagesDeleted(tx, doomed.map((m) => m.id), now);
  const karmaLoss = new Map<string, number>();
  for (const m of doomed) karmaLoss.set(m.agentId, (karmaLoss.get(m.agentId) ?? 0) + m.score);
  for (const [agentId, loss] of karmaLoss) {
    if (loss === 0) continue;
    await adjustKarma(tx, agentId, -loss);
    await reevaluateStanding(tx, agentId, now);
  }
  if (target.rootId) await adjustReplyCount(tx, target.rootId, -1);
  const pinsEnded = target.rootId === null ? await endPinsOfThread(tx, "named", target.id, now, "thread_removed") : 0;
  const changed: CacheTag[] = [cacheTags.namedBoard, cacheTags.thread(target.rootId ?? target.id), ...[...karmaLoss.keys()].map(cacheTags.account), ...(pinsEnded > 0 ? [cacheTags.pins("named")] : [])];
  return { changed, deletedReplies: doomed.length - 1 };
}

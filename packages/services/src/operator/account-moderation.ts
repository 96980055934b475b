import { BoardError } from "@board/domain";
import {
  addJob,
  checkingRevisionIdsOfAuthor,
  deleteOidcPayloadsOfAccount,
  deleteOperatorAgentLink,
  endCommunityPinsOf,
  hasRetainedContent,
  liveShowcaseItemIdsOf,
  lockAgent,
  lockForTransaction,
  markAgentRevoked,
  retainedMessageIdsOf,
  setAgentRestricted,
  setItemRemoved,
  type PrismaNamespace,
  type Tx,
} from "@board/db";
import { authorizeOperator } from "./authorize";
import { removeRetainedMessage } from "../board/delete";
import { NAMED_BOARD_LOCK } from "../board/write";
import { cacheTags, showcaseChanged, type CacheTag } from "../cache/entries";
import type { OperatorActor, ServiceDeps } from "../deps";
import { withdrawItemRows } from "../showcase/author-actions";
import { QUORUM_SWEEP_TASK } from "../showcase/jobs";
import { lockShowcaseItem } from "../showcase/publication";
import { lockShowcaseAuthor, revisionCheckJob } from "../showcase/submit";
import { moderate, moderationConflict, type ModerationResult } from "./moderate";
import type { TargetState } from "./targets";

export interface AccountModerationInput {
  agentId: string;
  reason: string;
  requestId?: string | null;
}

type AccountState = Extract<TargetState, { kind: "account" }>;
const account = (state: TargetState) => state as AccountState;

/** A removed account's restriction is moot: its key is dead for good, so changing it would only log noise. */
function notRemoved(state: TargetState): AccountState {
  if (account(state).removed) throw moderationConflict("removed", "This account was removed: its key is revoked for good, so its restriction can no longer change.");
  return account(state);
}

/**
 * Restricts an agent account: no new writes, votes, submissions or pins (403 ACCOUNT_RESTRICTED),
 * and no place in showcase review quorums (§3.1 rules 2-3). Reading still works. Idempotent.
 */
export async function restrictAccount(deps: ServiceDeps, actor: OperatorActor, input: AccountModerationInput): Promise<ModerationResult> {
  return moderate(deps, actor, { target: { kind: "account", id: input.agentId }, reason: input.reason, requestId: input.requestId }, {
    action: "account.restrict",
    auditAction: "account.restrict",
    lock: (tx) => lockAgent(tx, input.agentId),
    alreadyDone: (state) => notRemoved(state).restricted,
    apply: async (tx, _state, now) => {
      await setAgentRestricted(tx, input.agentId, now);
      return [cacheTags.account(input.agentId), cacheTags.showcaseListing];
    },
  });
}

/**
 * Lifts an operator's restriction (and any automatic abuse restriction recorded the same way).
 * Idempotent. A comment whose checks passed while its author was restricted stayed `checking`
 * (restricted content never becomes public), so the author's revisions still checking are checked
 * again, and an article whose quorum was met meanwhile is published by a quorum sweep queued now.
 */
export async function unrestrictAccount(deps: ServiceDeps, actor: OperatorActor, input: AccountModerationInput): Promise<ModerationResult> {
  return moderate(deps, actor, { target: { kind: "account", id: input.agentId }, reason: input.reason, requestId: input.requestId }, {
    action: "account.restrict",
    auditAction: "account.unrestrict",
    lock: (tx) => lockAgent(tx, input.agentId),
    alreadyDone: (state) => !notRemoved(state).restricted,
    apply: async (tx) => {
      await setAgentRestricted(tx, input.agentId, null);
      for (const revisionId of await checkingRevisionIdsOfAuthor(tx, input.agentId)) await addJob(tx, deps.showcase.jobQueue, revisionCheckJob(revisionId));
      // Its held articles whose quorum is met, and candidates its votes count for again, publish now, not at the next 10-minute sweep.
      await addJob(tx, deps.showcase.jobQueue, { task: QUORUM_SWEEP_TASK, payload: {}, jobKey: "quorum-sweep-after-unrestrict" });
      return [cacheTags.account(input.agentId), cacheTags.showcaseListing];
    },
  });
}

/** Removes every retained named message (roots with their replies) and every showcase item of the account. */
async function removeAllContentOf(tx: Tx, agentId: string, now: Date): Promise<{ tags: CacheTag[]; messages: string[]; showcaseItems: string[] }> {
  const tags: CacheTag[] = [];
  const messages: string[] = [];
  const mine = await retainedMessageIdsOf(tx, agentId);
  const removedRoots = new Set<string>();
  // Roots first: a root takes its replies (others' included, as an owner delete does).
  for (const m of [...mine.filter((m) => m.rootId === null), ...mine.filter((m) => m.rootId !== null)]) {
    if (m.rootId && removedRoots.has(m.rootId)) continue;
    const removed = await removeRetainedMessage(tx, m, now);
    if (m.rootId === null) removedRoots.add(m.id);
    tags.push(...removed.changed);
    messages.push(m.id);
  }
  const items = await liveShowcaseItemIdsOf(tx, agentId);
  for (const item of items) {
    await lockShowcaseItem(tx, item.id);
    await withdrawItemRows(tx, item.id, now);
    await setItemRemoved(tx, item.id, now);
    tags.push(...showcaseChanged(item.id), cacheTags.showcasePublic);
  }
  return { tags, messages, showcaseItems: items.map((item) => item.id) };
}

/**
 * Removes an agent account: its key is revoked (401 from now on), its OAuth grants and tokens die,
 * its community pins and operator link end. `removeContent` must say explicitly whether its
 * messages and showcase items go too (each as an operator removal would take it).
 */
export async function removeAccount(
  deps: ServiceDeps,
  actor: OperatorActor,
  input: AccountModerationInput & { removeContent: boolean },
): Promise<ModerationResult & { content_removed: { messages: number; showcase_items: number } }> {
  await authorizeOperator(deps.db.prisma, actor, "account.remove");
  if (typeof input.removeContent !== "boolean") {
    throw new BoardError("VALIDATION_FAILED", "Say whether the account's content goes too: keep its content or remove its content too (remove_content false or true).", { issues: [{ field: "remove_content", message: "required boolean" }] });
  }
  let contentRemoved: { messages: string[]; showcaseItems: string[] } = { messages: [], showcaseItems: [] };
  let contentLeft = false;
  return moderate(deps, actor, { target: { kind: "account", id: input.agentId }, reason: input.reason, requestId: input.requestId }, {
    action: "account.remove",
    auditAction: input.removeContent ? "account.remove_with_content" : "account.remove",
    // The named board's and the author's showcase locks before the account's row, in the order
    // writers take them: a post or submission in flight then sees the account removed.
    lock: async (tx) => {
      if (input.removeContent) {
        await lockForTransaction(tx, NAMED_BOARD_LOCK);
        await lockShowcaseAuthor(tx, input.agentId);
      }
      await lockAgent(tx, input.agentId);
      contentLeft = input.removeContent && (await hasRetainedContent(tx, input.agentId));
    },
    alreadyDone: (state) => account(state).removed && !contentLeft,
    // What went with the account, so the log (and a search for one of these ids) shows why it is gone.
    auditAfter: (): Record<string, PrismaNamespace.InputJsonValue> => (input.removeContent ? { removed_content: { messages: contentRemoved.messages, showcase_items: contentRemoved.showcaseItems } } : {}),
    apply: async (tx, state, now) => {
      // A removed author's candidates leave the review queue and the public awaiting-review count.
      const tags: CacheTag[] = [cacheTags.account(input.agentId), cacheTags.pins("named"), cacheTags.pins("b"), cacheTags.showcaseListing];
      if (!account(state).removed) {
        await markAgentRevoked(tx, input.agentId, now);
        await endCommunityPinsOf(tx, input.agentId, now, "account_removed");
        await deleteOidcPayloadsOfAccount(tx, input.agentId);
        await deleteOperatorAgentLink(tx, input.agentId);
      }
      if (input.removeContent) {
        const removed = await removeAllContentOf(tx, input.agentId, now);
        contentRemoved = { messages: removed.messages, showcaseItems: removed.showcaseItems };
        tags.push(...removed.tags);
      }
      return tags;
    },
  }).then((result) => ({ ...result, content_removed: { messages: contentRemoved.messages.length, showcase_items: contentRemoved.showcaseItems.length } }));
}

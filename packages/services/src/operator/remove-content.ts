import { BoardError } from "@board/domain";
import {
  adjustAnonReplyCount,
  endPinsOfThread,
  lockForTransaction,
  markAnonMessagesDeleted,
  markGuestCommentDeleted,
  moveRevisionState,
  retainedAnonMessagesRemovedWith,
  setItemRemoved,
  type RevisionState,
  type Tx,
} from "@board/db";
import { ANON_LOCK } from "../anon/board";
import { removeRetainedMessage } from "../board/delete";
import { NAMED_BOARD_LOCK } from "../board/write";
import { cacheTags, showcaseChanged, type CacheTag } from "../cache/entries";
import type { OperatorActor, ServiceDeps } from "../deps";
import { withdrawItemRows } from "../showcase/author-actions";
import { lockRevisionItem, lockShowcaseItem } from "../showcase/publication";
import { recordOperatorAction } from "./audit";
import { authorizeOperator, requireReason } from "./authorize";
import { auditSummary, checkTarget, loadTargetState, targetNotFound, type ModerationTarget, type TargetState } from "./targets";

export interface ModerationInput {
  target: ModerationTarget;
  reason: string;
  requestId?: string | null;
}

/** What every moderation action answers: the state before and after, and whether this call changed it. */
export interface ModerationResult {
  target: ModerationTarget;
  changed: boolean;
  before: TargetState;
  after: TargetState;
}

export function moderationConflict(reason: string, message: string): BoardError {
  return new BoardError("MODERATION_CONFLICT", message, { reason });
}

/** The lock a target's writers take, so an operator's action and the owner's serialise. */
async function lockTarget(tx: Tx, target: ModerationTarget): Promise<void> {
  if (target.kind === "named_message") await lockForTransaction(tx, NAMED_BOARD_LOCK);
  else if (target.kind === "b_message") await lockForTransaction(tx, ANON_LOCK);
  else if (target.kind === "showcase_item") await lockShowcaseItem(tx, target.id);
  else if (target.kind === "showcase_revision") await lockRevisionItem(tx, target.id);
}

export interface ModerationSpec {
  action: Parameters<typeof authorizeOperator>[2];
  auditAction: string;
  lock?: (tx: Tx) => Promise<void>;
  alreadyDone: (state: TargetState) => boolean;
  apply: (tx: Tx, state: TargetState, now: Date) => Promise<CacheTag[]>;
}

/**
 * One moderation action inside the caller's transaction: authorize, lock the target, read its
 * state, act unless it is already in the wanted state (then nothing is written: the action is
 * idempotent), and audit it unless the caller writes the entry itself (`audit: false`). Returns
 * the cache tags to invalidate after commit.
 */
export async function moderateInTransaction(tx: Tx, deps: ServiceDeps, actor: OperatorActor, input: ModerationInput, spec: ModerationSpec, options: { audit: boolean } = { audit: true }) {
  const target = checkTarget(input.target);
  const reason = requireReason(input.reason);
  await authorizeOperator(tx, actor, spec.action);
  await (spec.lock ?? ((t: Tx) => lockTarget(t, target)))(tx);
  const before = await loadTargetState(tx, target);
  if (!before) throw targetNotFound(target);
  if (spec.alreadyDone(before)) return { target, changed: false, before, after: before, tags: [] as CacheTag[] };
  const now = deps.clock();
  const tags = await spec.apply(tx, before, now);
  const after = (await loadTargetState(tx, target))!;
  if (options.audit) {
    await recordOperatorAction(tx, actor, { action: spec.auditAction, target, reason, before: auditSummary(before), after: auditSummary(after), requestId: input.requestId, at: now });
  }
  return { target, changed: true, before, after, tags };
}

/** One moderation action in its own transaction; caches are invalidated after commit. */
export async function moderate(deps: ServiceDeps, actor: OperatorActor, input: ModerationInput, spec: ModerationSpec): Promise<ModerationResult> {
  const result = await deps.db.prisma.$transaction((tx) => moderateInTransaction(tx, deps, actor, input, spec));
  if (result.tags.length > 0) deps.cache.invalidate(result.tags);
  return { target: result.target, changed: result.changed, before: result.before, after: result.after };
}

async function removeNamed(tx: Tx, state: Extract<TargetState, { kind: "named_message" }>, now: Date): Promise<CacheTag[]> {
  return (await removeRetainedMessage(tx, { id: state.id, rootId: state.root_id }, now)).changed;
}

async function removeAnon(tx: Tx, state: Extract<TargetState, { kind: "b_message" }>, now: Date): Promise<CacheTag[]> {
  const doomed = await retainedAnonMessagesRemovedWith(tx, state.id, state.is_root);
  await markAnonMessagesDeleted(tx, doomed.map((m) => m.id), now);
  if (state.root_id) await adjustAnonReplyCount(tx, state.root_id, -1);
  const pinsEnded = state.is_root ? await endPinsOfThread(tx, "b", state.id, now, "thread_removed") : 0;
  return pinsEnded > 0 ? [cacheTags.pins("b")] : [];
}

async function removeShowcaseItem(tx: Tx, state: Extract<TargetState, { kind: "showcase_item" }>, now: Date): Promise<CacheTag[]> {
  if (state.withdrawn_at === null) await withdrawItemRows(tx, state.id, now);
  await setItemRemoved(tx, state.id, now);
  return [...showcaseChanged(state.id, state.post_id), cacheTags.showcasePublic, cacheTags.account(state.author_id)];
}

async function removeRevision(tx: Tx, state: Extract<TargetState, { kind: "showcase_revision" }>, now: Date): Promise<CacheTag[]> {
  if (state.is_public_revision) {
    throw moderationConflict("public_revision", "This is the item's public revision; remove or restrict the whole item (target kind showcase_item) instead.");
  }
  await moveRevisionState(tx, state.id, [state.state as RevisionState], "withdrawn", now);
  return [...showcaseChanged(state.item_id), cacheTags.showcasePublic, cacheTags.account(state.author_id)];
}

async function removeGuestComment(tx: Tx, state: Extract<TargetState, { kind: "guest_comment" }>, now: Date): Promise<CacheTag[]> {
  await markGuestCommentDeleted(tx, state.id, now);
  return [...showcaseChanged(state.post_id), cacheTags.showcasePublic];
}

/**
 * Removes content for everyone: named roots and replies (a root takes its replies, as an owner
 * delete does; karma per §2.1; no quota refund; its pins end), /b messages likewise, a showcase
 * item (withdrawn and restricted for good) or one non-public revision, a guest comment.
 * Accounts are removed with removeAccount.
 */
export const removeContentSpec: ModerationSpec = {
  action: "content.remove",
  auditAction: "content.remove",
  alreadyDone: (state) => state.removed,
  apply: (tx, state, now) => {
    switch (state.kind) {
      case "named_message":
        return removeNamed(tx, state, now);
      case "b_message":
        return removeAnon(tx, state, now);
      case "showcase_item":
        return removeShowcaseItem(tx, state, now);
      case "showcase_revision":
        return removeRevision(tx, state, now);
      case "guest_comment":
        return removeGuestComment(tx, state, now);
      case "account":
        throw new BoardError("VALIDATION_FAILED", "Accounts are removed with the account removal action, which also says whether their content goes too.", { issues: [{ field: "target.kind", message: "content kinds only" }] });
    }
  },
};

export async function removeContent(deps: ServiceDeps, actor: OperatorActor, input: ModerationInput): Promise<ModerationResult> {
  return moderate(deps, actor, input, removeContentSpec);
}

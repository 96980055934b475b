import { BoardError } from "@board/domain";
import { lockForTransaction, lockGuestComment, type PrismaNamespace, type Tx } from "@board/db";
import { ANON_LOCK } from "../anon/board";
import { NAMED_BOARD_LOCK } from "../board/write";
import type { CacheTag } from "../cache/entries";
import type { OperatorActor, ServiceDeps } from "../deps";
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
  else if (target.kind === "guest_comment") await lockGuestComment(tx, target.id);
}

export interface ModerationSpec {
  action: Parameters<typeof authorizeOperator>[2];
  auditAction: string;
  lock?: (tx: Tx) => Promise<void>;
  /** Refuses a well-formed target of a kind this action does not take, before any lookup. */
  acceptsKind?: (target: ModerationTarget) => void;
  alreadyDone: (state: TargetState) => boolean;
  apply: (tx: Tx, state: TargetState, now: Date) => Promise<CacheTag[]>;
  /** More of what `apply` did for the audit entry's `after`, beyond the target's own state. */
  auditAfter?: () => Record<string, PrismaNamespace.InputJsonValue>;
}

/**
 * One moderation action inside the caller's transaction: authorize, lock the target, read its
 * state, act unless it is already in the wanted state (then nothing is written: the action is
 * idempotent), and audit it unless the caller writes the entry itself (`audit: false`). Returns
 * the cache tags to invalidate after commit.
 */
export async function moderateInTransaction(tx: Tx, deps: ServiceDeps, actor: OperatorActor, input: ModerationInput, spec: ModerationSpec, options: { audit: boolean } = { audit: true }) {
  // The role first: an operator who may not act is told so, not asked to fix a form it cannot send.
  await authorizeOperator(tx, actor, spec.action);
  const target = checkTarget(input.target);
  spec.acceptsKind?.(target);
  const reason = requireReason(input.reason);
  await (spec.lock ?? ((t: Tx) => lockTarget(t, target)))(tx);
  const before = await loadTargetState(tx, target);
  if (!before) throw targetNotFound(target);
  if (spec.alreadyDone(before)) return { target, changed: false, before, after: before, tags: [] as CacheTag[] };
  const now = deps.clock();
  const tags = await spec.apply(tx, before, now);
  const after = (await loadTargetState(tx, target))!;
  if (options.audit) {
    await recordOperatorAction(tx, actor, { action: spec.auditAction, target, reason, before: auditSummary(before), after: { ...auditSummary(after), ...spec.auditAfter?.() }, requestId: input.requestId, at: now });
  }
  return { target, changed: true, before, after, tags };
}

/** One moderation action in its own transaction; caches are invalidated after commit. */
export async function moderate(deps: ServiceDeps, actor: OperatorActor, input: ModerationInput, spec: ModerationSpec): Promise<ModerationResult> {
  const result = await deps.db.prisma.$transaction((tx) => moderateInTransaction(tx, deps, actor, input, spec));
  if (result.tags.length > 0) deps.cache.invalidate(result.tags);
  return { target: result.target, changed: result.changed, before: result.before, after: result.after };
}


import { BoardError } from "@board/domain";
import {
  adjustAnonReplyCount,
  endPinsOfThread,
  markAnonMessagesDeleted,
  markGuestCommentDeleted,
  moveRevisionState,
  retainedAnonMessagesRemovedWith,
  setItemRemoved,
  type RevisionState,
  type Tx,
} from "@board/db";
import { removeRetainedMessage } from "../board/delete";
import { cacheTags, showcaseChanged, type CacheTag } from "../cache/entries";
import type { OperatorActor, ServiceDeps } from "../deps";
import { withdrawItemRows } from "../showcase/author-actions";
import { moderate, moderationConflict, type ModerationInput, type ModerationResult, type ModerationSpec } from "./moderate";
import type { TargetState } from "./targets";

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

const accountsElsewhere = () =>
  new BoardError("VALIDATION_FAILED", "Accounts are removed with the account removal action, which also says whether their content goes too.", { issues: [{ field: "target.kind", message: "content kinds only" }] });

/**
 * Removes content for everyone: named roots and replies (a root takes its replies, as an owner
 * delete does; karma per §2.1; no quota refund; its pins end), /b messages likewise, a showcase
 * item (withdrawn and restricted for good) or one non-public revision, a guest comment.
 * Accounts are removed with removeAccount.
 */
export const removeContentSpec: ModerationSpec = {
  action: "content.remove",
  auditAction: "content.remove",
  // Before the lookup: a removed account would otherwise answer "already done", an unknown one 404.
  acceptsKind: (target) => {
    if (target.kind === "account") throw accountsElsewhere();
  },
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
        throw accountsElsewhere();
    }
  },
};

export async function removeContent(deps: ServiceDeps, actor: OperatorActor, input: ModerationInput): Promise<ModerationResult> {
  return moderate(deps, actor, input, removeContentSpec);
}

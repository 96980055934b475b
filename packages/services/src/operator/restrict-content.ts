import { BoardError } from "@board/domain";
import { addJob, revisionsOfItem, revokePreviewSessions, setItemRestricted } from "@board/db";
import { revisionCheckJob } from "../showcase/submit";
import { cacheTags, showcaseChanged } from "../cache/entries";
import type { OperatorActor, ServiceDeps } from "../deps";
import { moderate, moderationConflict, type ModerationInput, type ModerationResult, type ModerationSpec } from "./moderate";
import { authorizeOperator } from "./authorize";
import type { TargetState } from "./targets";

function showcaseItemOnly(input: ModerationInput): void {
  if (input.target.kind !== "showcase_item") {
    throw new BoardError("VALIDATION_FAILED", "Restriction applies to showcase items (articles and agent comments); remove other content instead.", { issues: [{ field: "target.kind", message: "showcase_item" }] });
  }
}

function item(state: TargetState) {
  return state as Extract<TargetState, { kind: "showcase_item" }>;
}

/**
 * Restricts a showcase article or agent comment (§3.1 rules 5-7): hidden from humans and from the
 * agents' fallback, its descendants hidden with it, out of the review queue and
 * `awaiting_review_posts`; a later appeal never undoes it. Preview links die. Idempotent.
 */
export async function restrictContent(deps: ServiceDeps, actor: OperatorActor, input: ModerationInput): Promise<ModerationResult> {
  await authorizeOperator(deps.db.prisma, actor, restrictContentSpec.action);
  showcaseItemOnly(input);
  return moderate(deps, actor, input, restrictContentSpec);
}

export const restrictContentSpec: ModerationSpec = {
  action: "content.restrict",
  auditAction: "content.restrict",
  alreadyDone: (state) => {
    if (state.kind !== "showcase_item") throw new BoardError("VALIDATION_FAILED", "Only showcase items can be restricted.", { issues: [{ field: "target.kind", message: "showcase_item" }] });
    return item(state).restricted;
  },
  apply: async (tx, state, now) => {
    await setItemRestricted(tx, state.id, now);
    await revokePreviewSessions(tx, state.id, now);
    return [...showcaseChanged(state.id, item(state).post_id), cacheTags.showcasePublic, cacheTags.account(item(state).author_id)];
  },
};

/**
 * Lifts a restriction: the item is shown again as its revisions' states allow. A revision still in
 * `checking` had its checks' verdict dropped while restricted, so it is checked again. Removed
 * items stay removed.
 */
export async function unrestrictContent(deps: ServiceDeps, actor: OperatorActor, input: ModerationInput): Promise<ModerationResult> {
  await authorizeOperator(deps.db.prisma, actor, restrictContentSpec.action);
  showcaseItemOnly(input);
  return moderate(deps, actor, input, {
    action: "content.restrict",
    auditAction: "content.unrestrict",
    alreadyDone: (state) => {
      if (item(state).removed) throw moderationConflict("removed", "An operator removed this item; removal is permanent and cannot be lifted.");
      return !item(state).restricted;
    },
    apply: async (tx, state) => {
      await setItemRestricted(tx, state.id, null);
      for (const revision of await revisionsOfItem(tx, state.id)) {
        if (revision.state === "checking") await addJob(tx, deps.showcase.jobQueue, revisionCheckJob(revision.id));
      }
      return [...showcaseChanged(state.id, item(state).post_id), cacheTags.showcasePublic, cacheTags.account(item(state).author_id)];
    },
  });
}

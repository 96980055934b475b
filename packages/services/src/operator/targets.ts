import { BoardError, bodyPreview, isUuid, unixSeconds } from "@board/domain";
import {
  findAgentById,
  findAnonMessageForOperator,
  findGuestCommentForOperator,
  findNamedMessageForOperator,
  findRevision,
  findRevisionMeta,
  findShowcaseItem,
  revisionsOfItem,
  type Queryable,
} from "@board/db";
import type { OperatorActor, ServiceDeps } from "../deps";
import { authorizeOperator } from "./authorize";

/** What an operator can act on. A showcase item is an article or an agent comment; a revision is one of its versions. */
export const MODERATION_TARGET_KINDS = ["named_message", "b_message", "showcase_item", "showcase_revision", "guest_comment", "account"] as const;
export type ModerationTargetKind = (typeof MODERATION_TARGET_KINDS)[number];
export interface ModerationTarget {
  kind: ModerationTargetKind;
  id: string;
}

const at = (date: Date | null) => (date ? unixSeconds(date) : null);

export function targetNotFound(target: ModerationTarget): BoardError {
  return new BoardError("NOT_FOUND", `No ${target.kind.replace("_", " ")} ${target.id}; find targets with the console's search.`, { target_kind: target.kind, target_id: target.id });
}

/** Every target the console names is a UUID: anything else is a typo, refused before any lookup. */
export function checkTargetId(id: string): void {
  if (!isUuid(id)) throw new BoardError("VALIDATION_FAILED", "The target id must be a UUID, as the console shows ids; check it for a typo.", { issues: [{ field: "target.id", message: "a uuid" }] });
}

export function checkTarget(target: ModerationTarget): ModerationTarget {
  if (!(MODERATION_TARGET_KINDS as readonly string[]).includes(target.kind)) {
    throw new BoardError("VALIDATION_FAILED", `target.kind must be one of ${MODERATION_TARGET_KINDS.join(", ")}.`, { issues: [{ field: "target.kind", message: "unknown kind" }] });
  }
  checkTargetId(target.id);
  return target;
}

/** What named and /b messages share in an operator's view. */
function messageState(m: { id: string; rootId: string | null; title: string | null; body: string; score: number; replyCount: number; createdAt: Date; deletedAt: Date | null }) {
  return {
    id: m.id,
    is_root: m.rootId === null,
    root_id: m.rootId,
    title: m.title,
    ...bodyPreview(m.body),
    score: m.score,
    reply_count: m.rootId === null ? m.replyCount : null,
    created_at: unixSeconds(m.createdAt),
    removed: m.deletedAt !== null,
    deleted_at: at(m.deletedAt),
  };
}

/**
 * The target's current state as an operator sees it (withdrawn, restricted and deleted content
 * included), or null when it does not exist. Read inside an action's transaction it is also the
 * audit entry's `before`.
 */
export async function loadTargetState(db: Queryable, target: ModerationTarget) {
  switch (target.kind) {
    case "named_message": {
      const m = await findNamedMessageForOperator(db, target.id);
      if (!m) return null;
      return { kind: target.kind, board: "named" as const, author: { id: m.agentId, name: m.agent.name }, topic: m.topic, ...messageState(m) };
    }
    case "b_message": {
      const m = await findAnonMessageForOperator(db, target.id);
      if (!m) return null;
      return { kind: target.kind, board: "b" as const, ...messageState(m) };
    }
    case "showcase_item": {
      const item = await findShowcaseItem(db, target.id);
      if (!item) return null;
      const revisions = await revisionsOfItem(db, item.id);
      const latest = revisions[revisions.length - 1];
      return {
        kind: target.kind,
        id: item.id,
        item_kind: item.kind,
        post_id: item.postId,
        parent_id: item.parentId,
        author_id: item.authorId,
        title: latest?.title ?? null,
        published_revision_id: item.publishedRevisionId,
        revisions: revisions.map((r) => ({ id: r.id, number: r.number, state: r.state, title: r.title })),
        created_at: unixSeconds(item.createdAt),
        withdrawn_at: at(item.withdrawnAt),
        restricted: item.restrictedAt !== null,
        restricted_at: at(item.restrictedAt),
        removed: item.removedAt !== null,
        removed_at: at(item.removedAt),
      };
    }
    case "showcase_revision": {
      const revision = await findRevisionMeta(db, target.id);
      if (!revision) return null;
      const item = (await findShowcaseItem(db, revision.itemId))!;
      return {
        kind: target.kind,
        id: revision.id,
        item_id: revision.itemId,
        item_kind: revision.kind,
        number: revision.number,
        state: revision.state,
        title: revision.title,
        author_id: revision.authorId,
        is_public_revision: item.publishedRevisionId === revision.id,
        created_at: unixSeconds(revision.createdAt),
        removed: revision.state === "withdrawn",
        item_restricted: item.restrictedAt !== null,
        item_removed: item.removedAt !== null,
      };
    }
    case "guest_comment": {
      const c = await findGuestCommentForOperator(db, target.id);
      if (!c) return null;
      return {
        kind: target.kind,
        id: c.id,
        post_id: c.postId,
        parent_id: c.parentId,
        nickname: c.nickname,
        ...bodyPreview(c.text),
        state: c.state,
        created_at: unixSeconds(c.createdAt),
        removed: c.deletedAt !== null,
        deleted_at: at(c.deletedAt),
      };
    }
    case "account": {
      const a = await findAgentById(db, target.id);
      if (!a) return null;
      return {
        kind: target.kind,
        id: a.id,
        name: a.name,
        role: a.role,
        karma: a.karma,
        created_at: unixSeconds(a.createdAt),
        removed: a.revokedAt !== null,
        revoked_at: at(a.revokedAt),
        restricted: a.restrictedAt !== null,
        restricted_at: at(a.restrictedAt),
        voting_suspended_at: at(a.votingSuspendedAt),
        pinning_suspended_at: at(a.pinningSuspendedAt),
      };
    }
  }
}

export type TargetState = NonNullable<Awaited<ReturnType<typeof loadTargetState>>>;

/** The flags an audit entry records about a target before and after an action (no content bodies). */
export function auditSummary(state: TargetState) {
  const { kind, id } = state;
  const flags: Record<string, string | number | boolean | null> = { kind, id };
  for (const key of ["removed", "restricted", "state", "is_root", "root_id", "post_id", "item_id", "name", "published_revision_id"] as const) {
    if (key in state) flags[key] = (state as Record<string, unknown>)[key] as string | number | boolean | null;
  }
  return flags;
}

/** GET the target's current state: the console shows it before any action on it. */
export async function describeModerationTarget(deps: ServiceDeps, actor: OperatorActor, target: ModerationTarget) {
  await authorizeOperator(deps.db.prisma, actor, "moderation.read");
  const state = await loadTargetState(deps.db.prisma, checkTarget(target));
  if (!state) throw targetNotFound(target);
  return { ...state, content: await targetContent(deps, state) };
}

/** Blocks as stored (§2.8): an SVG block's source is text here, never run. */
type ContentBlocks = Array<Record<string, unknown>>;

/**
 * What the target says, whole, for the operator to read before deciding (withdrawn, restricted
 * and deleted content included): a message's or guest comment's text, a revision's blocks (an
 * item's: its public revision's, else its newest). Never in the audit log, which keeps flags.
 */
async function targetContent(deps: ServiceDeps, state: TargetState): Promise<{ text: string } | { blocks: ContentBlocks } | null> {
  switch (state.kind) {
    case "named_message": {
      const m = await findNamedMessageForOperator(deps.db.prisma, state.id);
      return m ? { text: m.body } : null;
    }
    case "b_message": {
      const m = await findAnonMessageForOperator(deps.db.prisma, state.id);
      return m ? { text: m.body } : null;
    }
    case "guest_comment": {
      const c = await findGuestCommentForOperator(deps.db.prisma, state.id);
      return c ? { text: c.text } : null;
    }
    case "showcase_item":
    case "showcase_revision": {
      const revisionId = state.kind === "showcase_revision" ? state.id : (state.published_revision_id ?? state.revisions.at(-1)?.id);
      const revision = revisionId ? await findRevision(deps.db.pool, revisionId) : null;
      const blocks = (revision?.content as { blocks?: ContentBlocks } | undefined)?.blocks;
      return blocks ? { blocks } : null;
    }
    case "account":
      return null;
  }
}

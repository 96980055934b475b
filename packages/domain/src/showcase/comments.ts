import { BoardError } from "../errors";

/** A direct comment is level 1; a reply one deeper than its parent; nothing deeper than 32 (§8). */
export const MAX_COMMENT_DEPTH = 32;

const tooDeep = (depth: number) => `Comments nest at most ${MAX_COMMENT_DEPTH} levels; this reply would be level ${depth}. Reply to a shallower comment or comment on the article.`;

/** The refusal of a reply below level 32, to agents and guests alike; `field` is the parent's name in the route's body. */
export function commentTooDeep(depth: number, field: "parent_id" | "parent_comment_id"): BoardError {
  return new BoardError("COMMENT_TOO_DEEP", tooDeep(depth), { field, comment_state: { reason: "max_depth", max_depth: MAX_COMMENT_DEPTH, depth } });
}

export interface CommentPlacementInput {
  /** The parent comment when replying: its level and the article revision it answered. */
  parent: { depth: number; articleRevisionId: string } | null;
  /** `article_revision_id` as sent. */
  explicitRevisionId: string | null;
  publicRevisionId: string | null;
  activeCandidateRevisionId: string | null;
}

export type CommentPlacement =
  | { ok: true; depth: number; articleRevisionId: string }
  | { ok: false; reason: "max_depth"; depth: number; message: string }
  | { ok: false; reason: "revision_mismatch" | "nothing_to_answer"; message: string };

export function placeComment(input: CommentPlacementInput): CommentPlacement {
  if (input.parent) {
    const depth = input.parent.depth + 1;
    if (depth > MAX_COMMENT_DEPTH) {
      return { ok: false, reason: "max_depth", depth, message: tooDeep(depth) };
    }
    if (input.explicitRevisionId && input.explicitRevisionId !== input.parent.articleRevisionId) {
      return { ok: false, reason: "revision_mismatch", message: `A reply answers the revision its parent answered (${input.parent.articleRevisionId}); omit article_revision_id or send that one.` };
    }
    return { ok: true, depth, articleRevisionId: input.parent.articleRevisionId };
  }
  const answered = input.explicitRevisionId ?? input.publicRevisionId ?? input.activeCandidateRevisionId;
  if (!answered) return { ok: false, reason: "nothing_to_answer", message: "The article has no public revision and no active candidate to comment on." };
  return { ok: true, depth: 1, articleRevisionId: answered };
}

/** Why a reply to a comment would not be taken, in the order commentState checks them. */
export const COMMENT_STATE_REASONS = ["max_depth", "human_guest", "account_restricted", "read_only_token", "comments_used_today"] as const;
export type CommentStateReason = (typeof COMMENT_STATE_REASONS)[number];

export interface CommentState {
  can_reply: boolean;
  reason: CommentStateReason | null;
}

/**
 * `comment_state` of a comment as a viewer sees it (§4.5 rule 4): whether a reply to it would be
 * taken, and if not why. Order: max_depth (level 32 takes no replies), human_guest (agents do not
 * reply to guests), account_restricted, read_only_token, comments_used_today (the day's comments, §8).
 */
export function commentState(input: { depth: number; byGuest: boolean; viewerRestricted: boolean; tokenCanWrite: boolean; commentsLeftToday: number }): CommentState {
  if (input.depth >= MAX_COMMENT_DEPTH) return { can_reply: false, reason: "max_depth" };
  if (input.byGuest) return { can_reply: false, reason: "human_guest" };
  if (input.viewerRestricted) return { can_reply: false, reason: "account_restricted" };
  if (!input.tokenCanWrite) return { can_reply: false, reason: "read_only_token" };
  if (input.commentsLeftToday <= 0) return { can_reply: false, reason: "comments_used_today" };
  return { can_reply: true, reason: null };
}

/** `parent_id` and its alias `parent_comment_id` name one parent; two different ids are a mistake. */
export function resolveParentId(parentId: string | undefined, parentCommentId: string | undefined): { ok: true; parentId: string | null } | { ok: false; message: string } {
  if (parentId && parentCommentId && parentId !== parentCommentId) {
    return { ok: false, message: "parent_id and parent_comment_id name the same field; send one, or both with the same id." };
  }
  return { ok: true, parentId: parentId ?? parentCommentId ?? null };
}

import type { Prisma as P } from "../generated/prisma/client";
import type { Queryable } from "../client";
import { answersTakenBackRevision } from "./showcase";

const sessionSelect = { id: true, nickname: true, createdAt: true, updatedAt: true } satisfies P.ShowcaseGuestSessionSelect;
export type GuestSessionRow = P.ShowcaseGuestSessionGetPayload<{ select: typeof sessionSelect }>;

export function insertGuestSession(db: Queryable, session: { tokenHash: string; nickname: string; at: Date }): Promise<GuestSessionRow> {
  return db.showcaseGuestSession.create({ data: { tokenHash: session.tokenHash, nickname: session.nickname, createdAt: session.at, updatedAt: session.at }, select: sessionSelect });
}

export function findGuestSessionByToken(db: Queryable, tokenHash: string): Promise<GuestSessionRow | null> {
  return db.showcaseGuestSession.findUnique({ where: { tokenHash }, select: sessionSelect });
}

export function renameGuestSession(db: Queryable, id: string, nickname: string, at: Date): Promise<GuestSessionRow> {
  return db.showcaseGuestSession.update({ where: { id }, data: { nickname, updatedAt: at }, select: sessionSelect });
}

const commentSelect = {
  id: true,
  seq: true,
  sessionId: true,
  postId: true,
  parentId: true,
  articleRevisionId: true,
  depth: true,
  nickname: true,
  text: true,
  requestId: true,
  payloadHash: true,
  state: true,
  network: true,
  reasons: true,
  createdAt: true,
  deletedAt: true,
} satisfies P.ShowcaseGuestCommentSelect;
export type GuestCommentRow = P.ShowcaseGuestCommentGetPayload<{ select: typeof commentSelect }>;

export async function insertGuestComment(
  db: Queryable,
  comment: { sessionId: string; network: string; postId: string; parentId: string | null; articleRevisionId: string; depth: number; nickname: string; text: string; requestId: string; payloadHash: string; state: string; reasons: Array<{ code: string; message: string }>; createdAt: Date },
): Promise<GuestCommentRow> {
  const [drawn] = await db.$queryRaw<Array<{ seq: number }>>`SELECT nextval('showcase_items_seq_seq')::int AS seq`;
  return db.showcaseGuestComment.create({ data: { ...comment, seq: drawn!.seq, reasons: comment.reasons as P.InputJsonValue }, select: commentSelect });
}

export function findGuestComment(db: Queryable, id: string): Promise<GuestCommentRow | null> {
  return db.showcaseGuestComment.findUnique({ where: { id }, select: commentSelect });
}

export function findGuestCommentByRequest(db: Queryable, sessionId: string, requestId: string): Promise<GuestCommentRow | null> {
  return db.showcaseGuestComment.findUnique({ where: { sessionId_requestId: { sessionId, requestId } }, select: commentSelect });
}

/**
 * When the `limit` newest guest comments of a session or a network were sent within the window
 * after `since`, deleted ones too: every comment sent counts against the minute's allowance.
 */
export async function recentGuestCommentTimes(db: Queryable, sender: { sessionId: string } | { network: string }, since: Date, limit: number): Promise<Date[]> {
  const rows = await db.showcaseGuestComment.findMany({ where: { ...sender, createdAt: { gt: since } }, orderBy: { createdAt: "desc" }, take: limit, select: { createdAt: true } });
  return rows.map((row) => row.createdAt);
}

/** Stores the outcome of a comment's safety check, once: false when it is no longer `checking`. */
export async function settleGuestCommentState(db: Queryable, id: string, state: string, reasons: Array<{ code: string; message: string }>): Promise<boolean> {
  const settled = await db.showcaseGuestComment.updateMany({ where: { id, state: "checking" }, data: { state, reasons: reasons as P.InputJsonValue } });
  return settled.count === 1;
}

/** Removes a comment that was never shown (its article or parent went away during its check). */
export async function forgetGuestComment(db: Queryable, id: string): Promise<void> {
  await db.showcaseGuestComment.deleteMany({ where: { id, state: "checking" } });
}

/** A guest comment as a thread lists it: with whether it answers an article revision a withdrawal took back (answersTakenBackRevision). */
export type ThreadGuestCommentRow = GuestCommentRow & { answersTakenBack: boolean };

/** Every guest comment of a post in thread order; the caller decides what is visible. */
export async function guestCommentsOfPost(db: Queryable, postId: string): Promise<ThreadGuestCommentRow[]> {
  const rows = await db.showcaseGuestComment.findMany({ where: { postId }, orderBy: { seq: "asc" }, select: commentSelect });
  if (rows.length === 0) return [];
  const takenBack = await db.$queryRaw<Array<{ id: string }>>`SELECT g.id FROM showcase_guest_comments g WHERE g.post_id = ${postId}::uuid AND ${answersTakenBackRevision("g")}`;
  const hidden = new Set(takenBack.map((row) => row.id));
  return rows.map((row) => ({ ...row, answersTakenBack: hidden.has(row.id) }));
}

/** Locks a guest comment's row until the transaction ends: its deletions (the guest's, an operator's) take turns. */
export async function lockGuestComment(db: Queryable, id: string): Promise<void> {
  await db.$queryRaw`SELECT 1 FROM showcase_guest_comments WHERE id = ${id}::uuid FOR UPDATE`;
}

export async function markGuestCommentDeleted(db: Queryable, id: string, at: Date): Promise<void> {
  await db.showcaseGuestComment.updateMany({ where: { id, deletedAt: null }, data: { deletedAt: at } });
}

/** Records a spent CAPTCHA answer; false when it was spent before. */
export async function spendCaptchaToken(db: Queryable, tokenHash: string, at: Date): Promise<boolean> {
  const inserted = await db.showcaseCaptchaToken.createMany({ data: [{ tokenHash, usedAt: at }], skipDuplicates: true });
  return inserted.count === 1;
}

import { createHash } from "node:crypto";
import { BoardError, checkGuestText, checkNickname, guestCommentState, judgeCaptcha, unixSeconds, utcDayStart } from "@board/domain";
import {
  commentsOfPost,
  findGuestComment,
  findGuestCommentByRequest,
  findRevisionMeta,
  findShowcaseItem,
  holdShowcaseLineage,
  guestCommentsOfPost,
  incrementDailyCounter,
  insertGuestComment,
  insertShowcaseEvent,
  lockForTransaction,
  markGuestCommentDeleted,
  readDailyCounter,
  spendCaptchaToken,
  type GuestCommentRow,
  type Queryable,
  type Tx,
} from "@board/db";
import { cacheTags, showcaseChanged } from "../../cache/entries";
import type { GuestActor, ServiceDeps } from "../../deps";
import { dailyLimit } from "../../quota";
import { serviceUrl } from "../../urls";
import { canonicalHash } from "../content";
import { publicRevisionId } from "../submit";
import { visibleThread } from "./thread";

const MAX_DEPTH = 32;

export interface GuestCommentInput {
  post_id: string;
  text: string;
  nickname: string;
  article_revision_id: string;
  parent_comment_id?: string;
  request_id: string;
  captcha_token: string;
}

/** The private receipt: only the owning session reads it, and it carries the text back (the draft is never lost). */
function receipt(deps: ServiceDeps, row: GuestCommentRow, replayed: boolean) {
  return {
    comment_id: row.id,
    request_id: row.requestId,
    post_id: row.postId,
    parent_comment_id: row.parentId,
    article_revision_id: row.articleRevisionId,
    reply_depth: row.depth,
    state: row.state as "published" | "rejected" | "uncertain" | "unavailable" | "capacity",
    published: row.state === "published" && row.deletedAt === null,
    deleted: row.deletedAt !== null,
    reasons: row.reasons as Array<{ code: string; message: string }>,
    nickname: row.nickname,
    text: row.text,
    created_at: unixSeconds(row.createdAt),
    receipt_url: serviceUrl(deps.publicUrl, `/api/showcase/human-comments/${row.id}`),
    replayed,
  };
}

export type GuestCommentReceipt = ReturnType<typeof receipt>;

const articleNotPublic = (postId: string) => new BoardError("NOT_FOUND", `No public showcase article ${postId} to comment on.`, { field: "post_id" });

const parentNotPublic = (parentId: string) => new BoardError("NOT_FOUND", `No public comment ${parentId} in this article to reply to.`, { field: "parent_comment_id" });

/** Whether the parent is still shown, read under a hold that its withdrawal, restriction or deletion waits for. */
async function isVisibleParent(tx: Tx, postId: string, parentId: string): Promise<boolean> {
  await holdShowcaseLineage(tx, postId, parentId);
  const thread = visibleThread(await commentsOfPost(tx, postId), await guestCommentsOfPost(tx, postId), null);
  return thread.some((entry) => entry.row.id === parentId);
}

/** Whether the article is public, read under a hold that a withdrawal or restriction waits for. */
async function isPublicArticle(tx: Tx, postId: string): Promise<boolean> {
  await holdShowcaseLineage(tx, postId, null);
  const article = await findShowcaseItem(tx, postId);
  return article !== null && article.kind === "article" && (await publicRevisionId(tx, article)) !== null;
}

const invalid = (field: string, message: string) => new BoardError("VALIDATION_FAILED", message, { issues: [{ field, message }] });

/**
 * Where the comment goes: a public article; the revision it answers, its public one or an earlier
 * public version (a reply keeps its parent's, §4.5 rule 3); an optional visible parent in it.
 */
async function placement(db: Queryable, input: GuestCommentInput): Promise<{ parentId: string | null; depth: number; articleRevisionId: string }> {
  const article = await findShowcaseItem(db, input.post_id);
  if (!article || article.kind !== "article" || !(await publicRevisionId(db, article))) throw articleNotPublic(input.post_id);
  const revision = await findRevisionMeta(db, input.article_revision_id);
  if (!revision || revision.itemId !== article.id || revision.publishedAt === null || (revision.state !== "published" && revision.state !== "superseded")) {
    throw invalid("article_revision_id", "article_revision_id must be a public revision of this article (the one the page shows).");
  }
  if (!input.parent_comment_id) return { parentId: null, depth: 1, articleRevisionId: revision.id };
  const thread = visibleThread(await commentsOfPost(db, article.id), await guestCommentsOfPost(db, article.id), null);
  const parent = thread.find((entry) => entry.row.id === input.parent_comment_id);
  if (!parent) throw parentNotPublic(input.parent_comment_id);
  const depth = parent.row.depth + 1;
  if (depth > MAX_DEPTH) throw new BoardError("COMMENT_TOO_DEEP", `Comments nest at most ${MAX_DEPTH} levels; reply to a shallower comment.`, { comment_state: { reason: "max_depth", max_depth: MAX_DEPTH } });
  const parentRevisionId = parent.by === "agent" ? parent.row.article_revision_id : parent.row.articleRevisionId;
  return { parentId: parent.row.id, depth, articleRevisionId: parentRevisionId };
}

const minuteOf = (now: Date) => Math.floor(now.getTime() / 60_000);

/** The §8 guest allowances, as counters keyed by day and by minute; each refusal says how long to wait. */
function allowances(deps: ServiceDeps, guest: GuestActor, now: Date) {
  const { limits } = deps;
  const minute = minuteOf(now);
  const waitMinute = 60 - now.getUTCSeconds();
  return [
    { scope: "guest_comments_session", subject: guest.sessionId, limit: limits.guestCommentsPerSessionPerDay, refuse: () => dailyLimit("guest comments per session", limits.guestCommentsPerSessionPerDay, now) },
    { scope: "guest_comments_network", subject: guest.network, limit: limits.guestCommentsPerNetworkPerDay, refuse: () => dailyLimit("guest comments per network", limits.guestCommentsPerNetworkPerDay, now) },
    {
      scope: "guest_comments_session_minute",
      subject: `${guest.sessionId}:${minute}`,
      limit: limits.guestCommentsPerSessionPerMinute,
      refuse: () => new BoardError("BOARD_RATE_LIMIT", `At most ${limits.guestCommentsPerSessionPerMinute} comments a minute; wait ${waitMinute} seconds. Your draft is kept.`, { scope: "guest_session_minute", limit: limits.guestCommentsPerSessionPerMinute }, waitMinute),
    },
    {
      scope: "guest_comments_network_minute",
      subject: `${guest.network}:${minute}`,
      limit: limits.guestCommentsPerNetworkPerMinute,
      refuse: () => new BoardError("BOARD_RATE_LIMIT", `At most ${limits.guestCommentsPerNetworkPerMinute} comments a minute from one network; wait ${waitMinute} seconds. Your draft is kept.`, { scope: "guest_network_minute", limit: limits.guestCommentsPerNetworkPerMinute }, waitMinute),
    },
  ];
}

/** hCaptcha, bound to this route: one answer, this hostname, recently solved, never seen before. */
async function verifyCaptcha(deps: ServiceDeps, guest: GuestActor, token: string, now: Date, spend: (hash: string) => Promise<boolean>): Promise<void> {
  const captcha = deps.showcase.captcha!;
  const hash = createHash("sha256").update(`human_comment:${token}`, "utf8").digest("hex");
  const answer = await captcha.verify({ token, remoteIp: guest.address });
  if (answer === "unavailable") throw new BoardError("CAPTCHA_UNAVAILABLE", "The CAPTCHA verifier did not answer; nothing was published and your draft is kept. Try again in a moment.", {}, 30);
  const decision = judgeCaptcha(answer, { hostname: new URL(deps.publicUrl).hostname, now, maxAgeSeconds: deps.limits.captchaMaxAgeSeconds });
  if (!decision.ok) throw new BoardError(decision.code, decision.reason, { verifier_errors: answer["error-codes"] ?? [] });
  if (!(await spend(hash))) throw new BoardError("CAPTCHA_REUSED", "This CAPTCHA answer was used already; solve a new one.", {});
}

/**
 * POST /api/showcase/posts/{post_id}/human-comments: a guest's plain-text comment. The same
 * request_id with the same payload answers the existing operation; parallel identical sends make
 * one comment (they queue on the request's lock). Only a passing safety check publishes; every
 * other outcome keeps the text as the session's draft.
 */
export async function submitGuestComment(deps: ServiceDeps, guest: GuestActor, input: GuestCommentInput): Promise<{ created: boolean; receipt: GuestCommentReceipt }> {
  if (!deps.showcase.captcha) throw new BoardError("FORBIDDEN", "Guest comments are closed on this site (no CAPTCHA is configured).", {});
  const text = checkGuestText(input.text, deps.limits.guestCommentCodePoints);
  if (!text.ok) throw invalid("text", text.reason);
  const nickname = checkNickname(input.nickname, deps.limits.guestNicknameCodePoints);
  if (!nickname.ok) throw invalid("nickname", nickname.reason);
  const payloadHash = canonicalHash({ post_id: input.post_id, text: text.value, nickname: nickname.value, article_revision_id: input.article_revision_id, parent_comment_id: input.parent_comment_id ?? null }).hash;

  const outcome = await deps.db.prisma.$transaction(
    async (tx) => {
      await lockForTransaction(tx, `guest-comment:${guest.sessionId}:${input.request_id}`);
      const prior = await findGuestCommentByRequest(tx, guest.sessionId, input.request_id);
      if (prior) {
        if (prior.payloadHash !== payloadHash) {
          const lookupUrl = serviceUrl(deps.publicUrl, `/api/showcase/human-comments/lookup?request_id=${encodeURIComponent(input.request_id)}`);
          throw new BoardError("IDEMPOTENCY_CONFLICT", `This request_id was used for a different comment (see GET ${lookupUrl}); use a new request_id for new text.`, { field: "request_id", lookup_url: lookupUrl });
        }
        return { row: prior, created: false };
      }
      const where = await placement(tx, input);
      const now = deps.clock();
      const day = utcDayStart(now);
      const counters = allowances(deps, guest, now);
      for (const counter of counters) {
        if ((await readDailyCounter(tx, counter.scope, counter.subject, day)) >= counter.limit) throw counter.refuse();
      }
      await verifyCaptcha(deps, guest, input.captcha_token, now, (hash) => spendCaptchaToken(tx, hash, now));
      for (const counter of counters) {
        if ((await incrementDailyCounter(tx, counter.scope, counter.subject, day, counter.limit)) === null) throw counter.refuse();
      }
      // The check runs before the day's review is counted: counting first would hold the site-wide
      // counter's row lock while the checker answers, one guest comment at a time for the whole site.
      const capacityLeft = (await readDailyCounter(tx, "guest_reviews", "deployment", day)) < deps.limits.guestReviewsPerDay;
      const checked = capacityLeft ? await deps.showcase.checker.check({ kind: "guest_comment", texts: [nickname.value, text.value] }) : null;
      const counted = checked !== null && (await incrementDailyCounter(tx, "guest_reviews", "deployment", day, deps.limits.guestReviewsPerDay)) !== null;
      const verdict = counted ? checked : null;
      // The check may take seconds: an article or parent withdrawn, restricted or deleted meanwhile
      // takes no comment. Held from here to commit, a withdrawal at this moment waits for the insert, or is read.
      if (!(await isPublicArticle(tx, input.post_id))) throw articleNotPublic(input.post_id);
      if (where.parentId && !(await isVisibleParent(tx, input.post_id, where.parentId))) throw parentNotPublic(where.parentId);
      const state = guestCommentState(verdict ?? "capacity");
      const reasons = verdict && (verdict.outcome === "fail" || verdict.outcome === "uncertain") ? verdict.reasons : verdict?.outcome === "unavailable" ? [{ code: "checker_unavailable", message: verdict.reason }] : verdict ? [] : [{ code: "capacity", message: "Today's automatic reviews are used up; try again after midnight UTC." }];
      const row = await insertGuestComment(tx, {
        sessionId: guest.sessionId,
        postId: input.post_id,
        parentId: where.parentId,
        articleRevisionId: where.articleRevisionId,
        depth: where.depth,
        nickname: nickname.value,
        text: text.value,
        requestId: input.request_id,
        payloadHash,
        state,
        reasons,
        createdAt: now,
      });
      // Agents follow guests' comments in the showcase stream too, once they are shown.
      if (state === "published") await insertShowcaseEvent(tx, { kind: "comment_submitted", itemId: row.id, revisionId: null, postId: input.post_id, createdAt: now });
      return { row, created: true };
    },
    { timeout: 30_000 },
  );
  if (outcome.created && outcome.row.state === "published") deps.cache.invalidate([...showcaseChanged(input.post_id), cacheTags.showcasePublic]);
  return { created: outcome.created, receipt: receipt(deps, outcome.row, !outcome.created) };
}

async function ownComment(deps: ServiceDeps, sessionId: string, id: string): Promise<GuestCommentRow> {
  const row = await findGuestComment(deps.db.prisma, id);
  if (!row || row.sessionId !== sessionId) throw new BoardError("NOT_FOUND", `No comment ${id} of this session.`, { field: "id" });
  return row;
}

/** GET /api/showcase/human-comments/{id}: the private receipt, to the owning session only. */
export async function readGuestComment(deps: ServiceDeps, sessionId: string, id: string) {
  return receipt(deps, await ownComment(deps, sessionId, id), false);
}

/** GET /api/showcase/human-comments/lookup?request_id=: reconciles a send whose answer was lost. */
export async function lookupGuestComment(deps: ServiceDeps, sessionId: string, requestId: string) {
  const row = await findGuestCommentByRequest(deps.db.prisma, sessionId, requestId);
  if (!row) throw new BoardError("NOT_FOUND", `No comment with request_id ${requestId} in this session: it was not received; send it again with the same request_id.`, { field: "request_id" });
  return receipt(deps, row, false);
}

/** DELETE /api/showcase/human-comments/{id}: the owner removes it everywhere (replies under it are hidden with it); idempotent. */
export async function deleteGuestComment(deps: ServiceDeps, guest: GuestActor, id: string) {
  const row = await ownComment(deps, guest.sessionId, id);
  if (!row.deletedAt) {
    await markGuestCommentDeleted(deps.db.prisma, id, deps.clock());
    deps.cache.invalidate([...showcaseChanged(row.postId), cacheTags.showcasePublic]);
  }
  return receipt(deps, (await findGuestComment(deps.db.prisma, id))!, row.deletedAt !== null);
}

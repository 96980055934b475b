import { createHash } from "node:crypto";
import {
  BoardError,
  GUEST_COMMENT_CAPTCHA_ACTION,
  commentTooDeep,
  checkGuestText,
  checkNickname,
  guestCommentState,
  judgeCaptcha,
  placeComment,
  nextUtcMidnight,
  secondsUntilNextUtcDay,
  slidingWindowRoom,
  unixSeconds,
  utcDayStart,
  type GuestCommentState,
} from "@board/domain";
import {
  addJob,
  commentsOfPost,
  decrementDailyCounter,
  findGuestComment,
  findGuestCommentByRequest,
  findRevisionMeta,
  findShowcaseItem,
  forgetGuestComment,
  holdShowcaseLineage,
  guestCommentsOfPost,
  hiddenCommentAncestry,
  incrementDailyCounter,
  insertGuestComment,
  insertShowcaseEvent,
  lockForTransaction,
  lockGuestComment,
  markGuestCommentDeleted,
  readDailyCounter,
  recentGuestCommentTimes,
  settleGuestCommentState,
  spendCaptchaToken,
  type GuestCommentRow,
  type Queryable,
  type Tx,
} from "@board/db";
import { cacheTags, showcaseChanged } from "../../cache/entries";
import { GUEST_REVIEWS_COUNTER } from "../../counters";
import type { GuestActor, ServiceDeps } from "../../deps";
import { dailyLimit } from "../../quota";
import { serviceUrl } from "../../urls";
import { canonicalHash } from "../content";
import { publicRevisionId } from "../submit";
import { visibleThread } from "./thread";

const MINUTE_SECONDS = 60;
/** A comment still `checking` this long after it was sent lost its request: the fallback job settles it. */
const UNFINISHED_CHECK_SECONDS = 120;
export const GUEST_COMMENT_CHECK_TASK = "showcase_guest_comment_check";

export interface GuestCommentInput {
  post_id: string;
  text: string;
  nickname: string;
  article_revision_id: string;
  parent_comment_id?: string;
  request_id: string;
  captcha_token: string;
}

/**
 * Why a comment that passed its check is not shown now (§3.1 rule 6: readers see a comment only
 * while its article and every comment above it are public; rule 5: never once the revision it
 * answers was taken back by a withdrawal), or null when it is shown.
 */
async function hiddenByLineage(db: Queryable, row: GuestCommentRow): Promise<{ code: string; message: string } | null> {
  const article = await findShowcaseItem(db, row.postId);
  if (!article || (await publicRevisionId(db, article)) === null) {
    return { code: "article_not_public", message: "The article is no longer public, so readers do not see its comments." };
  }
  if ((await hiddenCommentAncestry(db, [row.id])).has(row.id)) {
    if (!row.parentId) return { code: "revision_withdrawn", message: "The author withdrew the version of the article you commented on; readers no longer see comments on it." };
    return { code: "parent_not_shown", message: "The comment you answered (or one above it) was deleted or hidden; readers no longer see yours either." };
  }
  return null;
}

/**
 * The private receipt: only the owning session reads it, and it carries the text back (the draft is
 * never lost). `published` says whether readers see it now; when they no longer do because of its
 * article or a comment above it, `reasons` says so.
 */
async function receipt(deps: ServiceDeps, row: GuestCommentRow, replayed: boolean) {
  const checked = row.state === "published" && row.deletedAt === null;
  const hidden = checked ? await hiddenByLineage(deps.db.prisma, row) : null;
  return {
    comment_id: row.id,
    request_id: row.requestId,
    post_id: row.postId,
    parent_comment_id: row.parentId,
    article_revision_id: row.articleRevisionId,
    reply_depth: row.depth,
    state: row.state as GuestCommentState,
    published: checked && hidden === null,
    deleted: row.deletedAt !== null,
    reasons: [...(row.reasons as Array<{ code: string; message: string }>), ...(hidden ? [hidden] : [])],
    nickname: row.nickname,
    text: row.text,
    created_at: unixSeconds(row.createdAt),
    receipt_url: serviceUrl(deps.publicUrl, `/api/showcase/human-comments/${row.id}`),
    replayed,
  };
}

export type GuestCommentReceipt = Awaited<ReturnType<typeof receipt>>;

/** Said to a reader whose page still shows the article: the id means nothing to them, the reason does. */
const articleNotPublic = () => new BoardError("NOT_FOUND", "This article is no longer public (its author withdrew it or an operator took it down), so it takes no comments.", { field: "post_id" });

const noPublicArticle = (postId: string) => new BoardError("NOT_FOUND", `No public article has the post_id ${postId}; guests comment on published articles only.`, { field: "post_id" });

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
  if (!article || article.kind !== "article" || !(await publicRevisionId(db, article))) throw article?.kind === "article" && article.firstPublishedAt ? articleNotPublic() : noPublicArticle(input.post_id);
  const revision = await findRevisionMeta(db, input.article_revision_id);
  if (!revision || revision.itemId !== article.id || revision.publishedAt === null || (revision.state !== "published" && revision.state !== "superseded")) {
    throw invalid("article_revision_id", "article_revision_id must be a public revision of this article (the one the page shows).");
  }
  if (!input.parent_comment_id) return { parentId: null, depth: 1, articleRevisionId: revision.id };
  const thread = visibleThread(await commentsOfPost(db, article.id), await guestCommentsOfPost(db, article.id), null);
  const parent = thread.find((entry) => entry.row.id === input.parent_comment_id);
  if (!parent) throw parentNotPublic(input.parent_comment_id);
  const parentRevisionId = parent.by === "agent" ? parent.row.article_revision_id : parent.row.articleRevisionId;
  // A guest's reply answers its parent's revision whatever article_revision_id says: no explicit revision.
  const placed = placeComment({ parent: { depth: parent.row.depth, articleRevisionId: parentRevisionId }, explicitRevisionId: null, publicRevisionId: null, activeCandidateRevisionId: null });
  if (!placed.ok) throw placed.reason === "max_depth" ? commentTooDeep(placed.depth, "parent_comment_id") : new Error(`placeComment refused a guest reply: ${placed.reason}`);
  return { parentId: parent.row.id, depth: placed.depth, articleRevisionId: placed.articleRevisionId };
}

/** The §8 daily guest allowances, as counters keyed by day; each refusal says how long to wait. */
function dailyAllowances(deps: ServiceDeps, guest: { sessionId: string; network: string }, now: Date) {
  const { limits } = deps;
  const day = utcDayStart(now);
  return [
    { scope: "guest_comments_session", subject: guest.sessionId, limit: limits.guestCommentsPerSessionPerDay, day, refuse: () => dailyLimit("guest_comments_per_session", limits.guestCommentsPerSessionPerDay, now, "guest") },
    { scope: "guest_comments_network", subject: guest.network, limit: limits.guestCommentsPerNetworkPerDay, day, refuse: () => dailyLimit("guest_comments_per_network", limits.guestCommentsPerNetworkPerDay, now, "guest") },
  ];
}

/** A send that publishes nothing and keeps nothing costs the guest none of the day's allowances. */
async function giveBackAllowances(deps: ServiceDeps, tx: Tx, pending: GuestCommentRow): Promise<void> {
  for (const counter of dailyAllowances(deps, { sessionId: pending.sessionId, network: pending.network ?? "" }, pending.createdAt)) await decrementDailyCounter(tx, counter.scope, counter.subject, counter.day);
}

/** §7: 503 for capacity. Refused before anything is spent when known early; the guest's text stays in the form. */
function reviewsUsedUp(deps: ServiceDeps): BoardError {
  const now = deps.clock();
  return new BoardError(
    "CAPACITY_EXHAUSTED",
    "Today's automatic reviews of guest comments are used up, so nothing was published or kept; your draft is kept in the form. Send it again after midnight UTC.",
    { scope: GUEST_REVIEWS_COUNTER, limit: deps.limits.guestReviewsPerDay, resets_at: unixSeconds(nextUtcMidnight(now)) },
    secondsUntilNextUtcDay(now),
  );
}

/** Whether today's automatic reviews of guest comments (deployment-wide, §8) are not used up. */
export async function guestReviewsLeftToday(deps: ServiceDeps, db: Queryable, now: Date): Promise<boolean> {
  return (await readDailyCounter(db, GUEST_REVIEWS_COUNTER, "deployment", utcDayStart(now))) < deps.limits.guestReviewsPerDay;
}

/**
 * §7: 503 for an unavailable dependency; the same request_id may be sent again, nothing of it was
 * kept but the CAPTCHA answer, which was spent (hCaptcha accepts an answer once). How the checker
 * failed is the operator's business, not the public's.
 */
const moderationUnavailable = () =>
  new BoardError(
    "MODERATION_UNAVAILABLE",
    "The automatic safety check did not answer, so nothing was published or kept; your draft is kept in the form. Send it again in a moment, with the same request_id and a new CAPTCHA answer (each answer is accepted once).",
    { dependency: "moderation", captcha: "solve_again" },
    30,
  );

/** The §8 per-minute guest allowances: sliding windows over the comments the session or network sent. */
async function refuseOverMinuteAllowance(deps: ServiceDeps, tx: Tx, guest: GuestActor, now: Date): Promise<void> {
  const since = new Date(now.getTime() - MINUTE_SECONDS * 1000);
  const windows = [
    { sender: { sessionId: guest.sessionId }, limit: deps.limits.guestCommentsPerSessionPerMinute, scope: "guest_comments_per_session_minute", who: "" },
    { sender: { network: guest.network }, limit: deps.limits.guestCommentsPerNetworkPerMinute, scope: "guest_comments_per_network_minute", who: " from one network" },
  ];
  for (const window of windows) {
    const room = slidingWindowRoom(await recentGuestCommentTimes(tx, window.sender, since, window.limit), now, window.limit, MINUTE_SECONDS);
    if (!room.ok) {
      const wait = room.retryAfterSeconds;
      throw new BoardError("BOARD_RATE_LIMIT", `At most ${window.limit} comments a minute${window.who}; wait ${wait} seconds. Your draft is kept.`, { scope: window.scope, limit: window.limit, window_seconds: MINUTE_SECONDS }, wait);
    }
  }
}

/** The CAPTCHA, bound to this route: one answer, this site key, hostname and action, recently solved, never seen before. */
async function verifyCaptcha(deps: ServiceDeps, guest: GuestActor, token: string, now: Date, spend: (hash: string) => Promise<boolean>): Promise<void> {
  const captcha = deps.showcase.captcha!;
  const hash = createHash("sha256").update(`${GUEST_COMMENT_CAPTCHA_ACTION}:${token}`, "utf8").digest("hex");
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
 *
 * The comment is stored as `checking` first and its check runs after that commit, so nothing is
 * locked while the checker answers: guests of one network are checked side by side, and a lookup
 * meanwhile finds the send. Should this process stop before the outcome is stored, a job stores it.
 */
export async function submitGuestComment(deps: ServiceDeps, guest: GuestActor, input: GuestCommentInput): Promise<{ created: boolean; receipt: GuestCommentReceipt }> {
  if (!deps.showcase.captcha) throw new BoardError("FORBIDDEN", "Guest comments are closed on this site (no CAPTCHA is configured).", {});
  const text = checkGuestText(input.text, deps.limits.guestCommentCodePoints);
  if (!text.ok) throw invalid("text", text.reason);
  const nickname = checkNickname(input.nickname, deps.limits.guestNicknameCodePoints);
  if (!nickname.ok) throw invalid("nickname", nickname.reason);
  // The comment is signed with the session's nickname, which only a CSRF-checked rename changes.
  if (nickname.value !== guest.nickname) {
    throw invalid("nickname", `This session's nickname is ${JSON.stringify(guest.nickname)}: send it as it is, or rename the session first (POST /api/showcase/human-session with X-CSRF-Token).`);
  }
  const payloadHash = canonicalHash({ post_id: input.post_id, text: text.value, nickname: nickname.value, article_revision_id: input.article_revision_id, parent_comment_id: input.parent_comment_id ?? null }).hash;

  const accepted = await deps.db.prisma.$transaction(
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
      const asked = deps.clock();
      // Refused before the CAPTCHA is spent, so a guest over an allowance keeps a usable answer.
      for (const counter of dailyAllowances(deps, guest, asked)) {
        if ((await readDailyCounter(tx, counter.scope, counter.subject, counter.day)) >= counter.limit) throw counter.refuse();
      }
      await refuseOverMinuteAllowance(deps, tx, guest, asked);
      if (!(await guestReviewsLeftToday(deps, tx, asked))) throw reviewsUsedUp(deps);
      await verifyCaptcha(deps, guest, input.captcha_token, asked, (hash) => spendCaptchaToken(tx, hash, asked));
      // From here to commit the session's and network's allowances are held; nothing slow runs until
      // then. The time is read under them: comments that committed while this one waited count.
      await lockForTransaction(tx, `guest-allowance:${guest.sessionId}`);
      await lockForTransaction(tx, `guest-allowance:${guest.network}`);
      const now = deps.clock();
      await refuseOverMinuteAllowance(deps, tx, guest, now);
      const counters = dailyAllowances(deps, guest, now);
      for (const counter of counters) {
        if ((await incrementDailyCounter(tx, counter.scope, counter.subject, counter.day, counter.limit)) === null) throw counter.refuse();
      }
      const row = await insertGuestComment(tx, {
        sessionId: guest.sessionId,
        network: guest.network,
        postId: input.post_id,
        parentId: where.parentId,
        articleRevisionId: where.articleRevisionId,
        depth: where.depth,
        nickname: nickname.value,
        text: text.value,
        requestId: input.request_id,
        payloadHash,
        state: "checking",
        reasons: [],
        createdAt: now,
      });
      await addJob(tx, deps.showcase.jobQueue, { task: GUEST_COMMENT_CHECK_TASK, payload: { commentId: row.id }, runAt: new Date(now.getTime() + UNFINISHED_CHECK_SECONDS * 1000), jobKey: `guest-check:${row.id}` });
      return { row, created: true };
    },
    { timeout: 30_000 },
  );
  if (!accepted.created) return { created: false, receipt: await receipt(deps, accepted.row, true) };
  const settled = await settleGuestComment(deps, accepted.row);
  if (settled.refused) throw settled.refused;
  return { created: true, receipt: await receipt(deps, settled.row, false) };
}

/**
 * Runs the safety check of a comment stored as `checking` and stores its outcome, once (a request
 * and the fallback job may both try). An article or parent withdrawn, restricted or deleted during
 * the check takes no comment: the comment is forgotten, its allowances given back, and the refusal
 * returned for the sender.
 */
async function settleGuestComment(deps: ServiceDeps, pending: GuestCommentRow): Promise<{ row: GuestCommentRow; refused: BoardError | null }> {
  const asked = deps.clock();
  const day = utcDayStart(asked);
  // The check runs before the day's review is counted: counting first would hold the site-wide
  // counter's row lock while the checker answers, one guest comment at a time for the whole site.
  const capacityLeft = await guestReviewsLeftToday(deps, deps.db.prisma, asked);
  const checked = capacityLeft ? await deps.showcase.checker.check({ kind: "guest_comment", texts: [pending.nickname, pending.text] }) : null;
  const outcome = await deps.db.prisma.$transaction(async (tx) => {
    // Held from here to commit, a withdrawal or deletion at this moment waits for the outcome, or is read.
    const refused = !(await isPublicArticle(tx, pending.postId)) ? articleNotPublic() : pending.parentId && !(await isVisibleParent(tx, pending.postId, pending.parentId)) ? parentNotPublic(pending.parentId) : null;
    await lockGuestComment(tx, pending.id);
    const current = await findGuestComment(tx, pending.id);
    // Settled meanwhile by the other of the request and the fallback job; forgotten, its article or parent went away.
    if (!current) return { row: pending, refused: refused ?? articleNotPublic(), published: false };
    if (current.state !== "checking") return { row: current, refused: null, published: false };
    // Nothing of a send that is refused is kept, and it costs the guest nothing.
    const forget = async (refusal: BoardError) => {
      await forgetGuestComment(tx, pending.id);
      await giveBackAllowances(deps, tx, pending);
      return { row: pending, refused: refusal, published: false };
    };
    if (refused) return forget(refused);
    // A checker that did not answer reviewed nothing, so it spends none of the day's reviews.
    if (checked?.outcome === "unavailable") return forget(moderationUnavailable());
    const counted = checked !== null && (await incrementDailyCounter(tx, GUEST_REVIEWS_COUNTER, "deployment", day, deps.limits.guestReviewsPerDay)) !== null;
    if (!checked || !counted) return forget(reviewsUsedUp(deps));
    const state = guestCommentState(checked);
    await settleGuestCommentState(tx, pending.id, state, checked.outcome === "pass" ? [] : checked.reasons);
    // Agents follow guests' comments in the showcase stream too, once they are shown; one its
    // guest deleted during the check never is.
    const shown = state === "published" && current.deletedAt === null;
    if (shown) await insertShowcaseEvent(tx, { kind: "comment_submitted", itemId: pending.id, revisionId: null, postId: pending.postId, createdAt: deps.clock() });
    return { row: (await findGuestComment(tx, pending.id))!, refused: null, published: shown };
  });
  if (outcome.published) deps.cache.invalidate([...showcaseChanged(pending.postId), cacheTags.showcasePublic]);
  return { row: outcome.row, refused: outcome.refused };
}

/**
 * The fallback job of a guest comment still `checking` this long after it was sent: the process
 * that took it stopped before storing the outcome. Runs the check then; a settled comment is left
 * as it is.
 */
export async function finishGuestCommentCheck(deps: ServiceDeps, commentId: string): Promise<void> {
  const pending = await findGuestComment(deps.db.prisma, commentId);
  if (pending?.state === "checking") await settleGuestComment(deps, pending);
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

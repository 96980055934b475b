import { randomUUID } from "node:crypto";
import { articleOpenToOthers, articleRevisionReadableByOthers, BoardError, decideResubmission, effectiveRevisionState, commentTooDeep, isCandidateState, pendingArticlesFull, placeComment, resolveParentId, unixSeconds, utcDayStart, type RevisionState } from "@board/domain";
import {
  countPendingArticles,
  contentJsonByHash,
  findRevisionMetaByKey,
  findRevisionMeta,
  findGuestComment,
  findShowcaseItem,
  holdShowcaseLineage,
  hiddenCommentAncestry,
  incrementDailyCounter,
  insertRevision,
  lockForTransaction,
  moveRevisionState,
  nextRevisionNumber,
  setItemWithdrawn,
  storeContent,
  type NewShowcaseItem,
  type PrismaNamespace,
  type Queryable,
  type RevisionMetaRow,
  type RevisionRow,
  type ShowcaseItemRow,
  type Tx,
} from "@board/db";
import type { ArticleSubmission, CommentSubmission, ContentBlock, RevisionSubmission } from "@board/contracts";
import { cacheTags, showcaseChanged } from "../cache/entries";
import { SHOWCASE_ARTICLE_REVISIONS_COUNTER, SHOWCASE_COMMENTS_COUNTER } from "../counters";
import { withJsonTextFields } from "../json-body";
import type { AgentActor, ServiceDeps } from "../deps";
import { dailyLimit } from "../quota";
import { revisionStatusUrl } from "../urls";
import { canonicalHash, type ContentBudget, type ContentKind } from "./content";
import { lockShowcaseItem } from "./publication";
import { confirmAccountStillMayWrite, requireAccountMayWrite } from "../agents/me";

export const CHECK_REVISION_TASK = "showcase_check_revision";
/** Checks retry an unavailable checker with graphile-worker's backoff this many times, then go to auto_review. */
export const CHECK_ATTEMPTS = 8;

/** Serialises an author's submissions, and an operator's removal of the author's content with them. */
export const lockShowcaseAuthor = (tx: Tx, agentId: string) => lockForTransaction(tx, `showcase-author:${agentId}`);

/** The check job of one revision, keyed by it so it is queued at most once. */
export const revisionCheckJob = (revisionId: string) => ({ task: CHECK_REVISION_TASK, payload: { revisionId }, jobKey: `check:${revisionId}`, maxAttempts: CHECK_ATTEMPTS });

export function contentBudget(deps: ServiceDeps, kind: ContentKind): ContentBudget {
  const l = deps.limits;
  return kind === "article"
    ? { textBytes: l.showcaseArticleTextBytes, svgSourceBytes: l.showcaseSvgSourceBytes, svgTotalBytes: l.showcaseSvgTotalBytes, svgCount: l.showcaseSvgsPerArticle }
    : { textBytes: l.showcaseCommentTextBytes, svgSourceBytes: l.showcaseCommentSvgBytes, svgTotalBytes: l.showcaseCommentSvgBytes, svgCount: l.showcaseSvgsPerComment };
}

/** What a 413 measured; an article's title counts toward its text with the blocks. */
const tooLargeWhat = (kind: ContentKind) =>
  ({
    text: kind === "article" ? "the text of the title and all blocks (UTF-8 bytes)" : "the text of all blocks (UTF-8 bytes)",
    svg_source: "this SVG source (UTF-8 bytes)",
    svg_total: "all SVG sources together (UTF-8 bytes)",
    svg_count: "the number of SVG blocks",
  }) as const;

interface Admitted {
  json: string;
  hash: string;
  bytes: number;
  runtimeBuild: string | null;
  preview: string;
}

/** Budgets (413 naming the block), then SVG admission (400 naming the path of each refusal), off the event loop. */
async function admit(deps: ServiceDeps, kind: ContentKind, title: string | undefined, blocks: ContentBlock[]): Promise<Admitted> {
  const result = await deps.showcase.content.admit(kind, title, blocks, contentBudget(deps, kind));
  if ("tooLarge" in result) {
    const { scope, actual, max, block_index, canonical } = result.tooLarge;
    const measured = canonical ? " in its canonical form (where characters such as >, < and \" in text and attributes are escaped)" : "";
    throw new BoardError(
      "PAYLOAD_TOO_LARGE",
      `blocks[${block_index}] takes ${tooLargeWhat(kind)[scope]} to ${actual}${measured}; ${kind === "article" ? "an article" : "a comment"} allows ${max}. Shorten or split the content.`,
      {
        scope: `showcase_${kind}_${scope}`,
        ...(scope === "svg_count" ? { actual_count: actual, max_count: max } : { actual_bytes: actual, max_bytes: max }),
        block_index,
        field: `blocks.${block_index}`,
        ...(canonical ? { measured: "canonical_form" } : {}),
      },
    );
  }
  if ("svgRefused" in result) {
    const { block_index, errors } = result.svgRefused;
    throw new BoardError("VALIDATION_FAILED", `The SVG of blocks[${block_index}] is not admitted by the showcase-svg-v1 runtime: ${errors[0]?.message ?? "refused"}`, {
      issues: errors.map((e) => ({ field: `blocks.${block_index}.source`, message: e.message, code: e.code, svg_path: e.path, line: e.line, column: e.column })),
    });
  }
  return { json: result.json, hash: result.hash, bytes: result.bytes, runtimeBuild: result.runtimeBuild, preview: result.preview };
}

export const PENDING_CHECKS = [
  { name: "structure", outcome: "pass", reasons: [] },
  { name: "svg", outcome: "pass", reasons: [] },
  { name: "language", outcome: "pending", reasons: [] },
  { name: "safety", outcome: "pending", reasons: [] },
] as const;

/**
 * What a candidate replaced by a newer revision says of itself: blocked because it was replaced,
 * and the checks it never got to, not run (its check job does nothing once it left `checking`).
 */
export function supersededCandidate(checks: unknown): { checks: PrismaNamespace.InputJsonValue; blockingReasons: string[] } {
  const recorded = checks as Array<{ name: string; outcome: string; reasons: unknown[] }>;
  return {
    checks: recorded.map((check) =>
      check.outcome === "pending" ? { ...check, outcome: "skipped", reasons: [{ code: "superseded", message: "Not run: a newer revision replaced this one first." }] } : check,
    ) as unknown as PrismaNamespace.InputJsonValue,
    blockingReasons: ["superseded"],
  };
}

type ReceiptSource = Pick<RevisionRow, "id" | "itemId" | "kind" | "number" | "state" | "contentHash" | "content" | "runtimeBuild" | "checks" | "blockingReasons" | "createdAt">;

/** Where an item sits: a comment's article revision, parent and level (§2.8); null for an article. */
export type ThreadPlace = Pick<NewShowcaseItem, "postId" | "parentId" | "depth" | "articleRevisionId">;

export function threadPlaceOf(kind: string, item: ThreadPlace) {
  const comment = kind === "comment";
  return { article_revision_id: comment ? item.articleRevisionId : null, parent_id: comment ? item.parentId : null, reply_depth: comment ? item.depth : null };
}

function presentReceipt(deps: ServiceDeps, revision: ReceiptSource, item: ThreadPlace, replayed: boolean) {
  return {
    revision_id: revision.id,
    item_id: revision.itemId,
    post_id: item.postId,
    kind: revision.kind,
    ...threadPlaceOf(revision.kind, item),
    revision_number: revision.number,
    state: revision.state as RevisionState,
    content_hash: revision.contentHash,
    canonical_content: revision.content as Record<string, unknown>,
    runtime_build: revision.runtimeBuild,
    checks: revision.checks as Array<{ name: "structure" | "svg" | "language" | "safety"; outcome: "pass" | "fail" | "uncertain" | "unavailable" | "pending"; reasons: Array<{ code: string; message: string; field?: string }> }>,
    blocking_reasons: revision.blockingReasons,
    submitted_at: unixSeconds(revision.createdAt),
    status_url: revisionStatusUrl(deps.publicUrl, revision.id),
    replayed,
  };
}

export type SubmissionReceipt = ReturnType<typeof presentReceipt>;

/**
 * A stored revision's receipt as a replay answers it: its state and checks now, not when it was
 * sent, and its canonical content as the same RFC 8785 text the first answer carried, so the retry
 * a client makes after an uncertain send can still check it against `content_hash` byte for byte.
 */
export async function replayedReceipt(deps: ServiceDeps, revision: RevisionMetaRow): Promise<SubmissionReceipt> {
  const [item, stored] = await Promise.all([findShowcaseItem(deps.db.prisma, revision.itemId), contentJsonByHash(deps.db.pool, revision.contentHash)]);
  const canonical = await deps.showcase.content.canonicalText(stored!);
  return withJsonTextFields(presentReceipt(deps, { ...revision, content: null }, item!, true), { canonical_content: canonical });
}

/** Links what the key already made (§7: a conflict links where to look the original up). */
function idempotencyConflict(deps: ServiceDeps, original: RevisionMetaRow): BoardError {
  const statusUrl = revisionStatusUrl(deps.publicUrl, original.id);
  return new BoardError(
    "IDEMPOTENCY_CONFLICT",
    `This idempotency_key was already used for a different submission, revision ${original.id} (GET ${statusUrl}). Use a new key for new content.`,
    { field: "idempotency_key", revision_id: original.id, status_url: statusUrl },
  );
}

interface Placement {
  itemId: string;
  postId: string;
  number: number;
  title: string | null;
  eventKind: "article_submitted" | "revision_submitted" | "comment_submitted";
  resumePublication: boolean;
  /** A new article or comment: the item is written with its first revision. */
  newItem?: NewShowcaseItem;
}

/**
 * One transaction per submission, serialised per author: the idempotency key is checked first (an
 * exact retry costs nothing), then the target and the quotas, then the revision, its activity
 * event and its check job are written together. No lock spans authors: the activity stream numbers
 * events when they are read (sequenceShowcaseEvents), so submissions never wait for each other.
 */
async function record(
  deps: ServiceDeps,
  actor: AgentActor,
  kind: ContentKind,
  key: string,
  requestHash: string,
  admitted: Admitted,
  place: (tx: Tx, now: Date) => Promise<Placement>,
  /** Whether a prior revision under the key whose request hash differs is still the same request (a comment's resolved target). */
  sameRequest?: (tx: Tx, prior: RevisionMetaRow, now: Date) => Promise<boolean>,
): Promise<{ created: boolean; receipt: SubmissionReceipt }> {
  await storeContent(deps.db.pool, admitted.hash, admitted.json, admitted.bytes);
  type Outcome = { kind: "replay"; prior: RevisionMetaRow } | { kind: "created"; receipt: SubmissionReceipt };
  const result = await deps.db.prisma.$transaction(
    async (tx): Promise<Outcome> => {
      await lockShowcaseAuthor(tx, actor.agentId);
      const prior = await findRevisionMetaByKey(tx, actor.agentId, key);
      if (prior) {
        if (prior.requestHash !== requestHash && !(await sameRequest?.(tx, prior, deps.clock()))) throw idempotencyConflict(deps, prior);
        return { kind: "replay", prior };
      }
      await requireAccountMayWrite(tx, actor.agentId);
      const now = deps.clock();
      const placement = await place(tx, now);
      const revisionId = randomUUID();
      await insertRevision(tx, {
        id: revisionId,
        itemId: placement.itemId,
        authorId: actor.agentId,
        kind,
        number: placement.number,
        stateEnteredAt: now,
        title: placement.title,
        preview: admitted.preview,
        contentHash: admitted.hash,
        contentBytes: admitted.bytes,
        runtimeBuild: admitted.runtimeBuild,
        checks: PENDING_CHECKS,
        blockingReasons: ["checks_pending"],
        idempotencyKey: key,
        requestHash,
        resumePublication: placement.resumePublication,
        createdAt: now,
      }, {
        event: { kind: placement.eventKind, postId: placement.postId },
        ...(placement.newItem ? { newItem: placement.newItem } : {}),
        job: { queue: deps.showcase.jobQueue, request: revisionCheckJob(revisionId) },
      });
      await confirmAccountStillMayWrite(tx, actor.agentId);
      const revision = {
        id: revisionId,
        itemId: placement.itemId,
        kind,
        number: placement.number,
        state: "checking" as const,
        contentHash: admitted.hash,
        content: null,
        runtimeBuild: admitted.runtimeBuild,
        checks: PENDING_CHECKS as unknown as PrismaNamespace.JsonValue,
        blockingReasons: ["checks_pending"],
        createdAt: now,
      };
      // The 202 carries the canonical content as the admission's JSON text, never parsed on the REST path.
      // A new revision of an article has no new item; an article sits in no thread.
      const threadPlace = placement.newItem ?? { postId: placement.postId, parentId: null, depth: 0, articleRevisionId: null };
      return { kind: "created", receipt: withJsonTextFields(presentReceipt(deps, revision, threadPlace, false), { canonical_content: admitted.json }) };
    },
    { timeout: 30_000 },
  );
  // Read after the transaction: a connection held while waiting for another one starves the pool.
  if (result.kind === "replay") return { created: false, receipt: await replayedReceipt(deps, result.prior) };
  // The account snapshot holds today's submission counts (viewer.showcase).
  deps.cache.invalidate([...showcaseChanged(result.receipt.item_id, result.receipt.post_id), cacheTags.account(actor.agentId)]);
  return { created: true, receipt: result.receipt };
}

function notFound(field: string, id: string, what: string): BoardError {
  return new BoardError("NOT_FOUND", `No available ${what} ${id}.`, { field, id });
}

function validation(field: string, message: string, details: Record<string, unknown> = {}): BoardError {
  return new BoardError("VALIDATION_FAILED", message, { issues: [{ field, message }], ...details });
}

async function requirePendingRoom(deps: ServiceDeps, tx: Tx, actor: AgentActor, now: Date): Promise<void> {
  const pending = await countPendingArticles(tx, actor.agentId, now);
  if (pendingArticlesFull(pending, deps.limits.showcasePendingArticles)) {
    throw new BoardError(
      "DAILY_LIMIT",
      `You have ${pending} articles awaiting checks or review, the most an account may have pending. Wait until one is published, expires or is withdrawn; do not register more accounts.`,
      { scope: "showcase_pending_articles", limit: deps.limits.showcasePendingArticles, pending },
      3600,
    );
  }
}

async function countArticleRevision(deps: ServiceDeps, tx: Tx, actor: AgentActor, now: Date): Promise<void> {
  if ((await incrementDailyCounter(tx, SHOWCASE_ARTICLE_REVISIONS_COUNTER, actor.agentId, utcDayStart(now), deps.limits.showcaseArticleRevisionsPerDay)) === null) {
    throw dailyLimit("showcase_article_revisions_per_account", deps.limits.showcaseArticleRevisionsPerDay, now);
  }
}

/** POST /v1/showcase/posts: a new article; 202 with its first revision in `checking`. */
export async function submitArticle(deps: ServiceDeps, actor: AgentActor, input: ArticleSubmission) {
  const admitted = await admit(deps, "article", input.title, input.blocks);
  const requestHash = canonicalHash({ kind: "article", content_hash: admitted.hash }).hash;
  return record(deps, actor, "article", input.idempotency_key, requestHash, admitted, async (tx, now) => {
    await requirePendingRoom(deps, tx, actor, now);
    await countArticleRevision(deps, tx, actor, now);
    const itemId = randomUUID();
    const newItem = { id: itemId, kind: "article" as const, authorId: actor.agentId, postId: itemId, parentId: null, depth: 0, articleRevisionId: null, createdAt: now };
    return { itemId, postId: itemId, number: 1, title: input.title, eventKind: "article_submitted", resumePublication: false, newItem };
  });
}

/**
 * The article a revision may be added to: an article of the actor's that no operator restricted.
 * An upload session checks it when it opens, so a wrong target is known before any part is sent;
 * the revision checks it again when it is written.
 */
export async function revisableArticle(db: Queryable, actor: AgentActor, itemId: string): Promise<ShowcaseItemRow> {
  const item = await findShowcaseItem(db, itemId);
  if (!item || item.kind !== "article") throw notFound("item_id", itemId, "showcase article");
  if (item.authorId !== actor.agentId) throw new BoardError("NOT_AUTHOR", "Only the article's author may add revisions; comment on it instead.", { field: "item_id" });
  if (item.restrictedAt) throw new BoardError("FORBIDDEN", "An operator restricted this article; it cannot be revised.", { field: "item_id" });
  return item;
}

/**
 * POST /v1/showcase/posts/{item-id}/revisions: a new revision with its own checks and votes. The
 * public revision stays public until the new one is published; an older unpublished candidate of
 * the item is superseded (its votes do not carry over).
 */
export async function submitRevision(deps: ServiceDeps, actor: AgentActor, input: RevisionSubmission) {
  const admitted = await admit(deps, "article", input.title, input.blocks);
  const resume = input.resume_publication === true;
  const requestHash = canonicalHash({ kind: "revision", item_id: input.item_id, resume_publication: resume, content_hash: admitted.hash }).hash;
  return record(deps, actor, "article", input.idempotency_key, requestHash, admitted, async (tx, now) => {
    await lockShowcaseItem(tx, input.item_id);
    const item = await revisableArticle(tx, actor, input.item_id);
    const resubmission = decideResubmission({ itemWithdrawn: item.withdrawnAt !== null, resumePublication: resume });
    if (!resubmission.ok) throw new BoardError(resubmission.code, resubmission.reason, { field: "resume_publication" });
    const candidate = await activeCandidate(tx, item, now);
    if (!candidate) await requirePendingRoom(deps, tx, actor, now);
    await countArticleRevision(deps, tx, actor, now);
    if (candidate) await moveRevisionState(tx, candidate.id, [candidate.state], "superseded", now, supersededCandidate(candidate.checks));
    if (item.withdrawnAt) await setItemWithdrawn(tx, item.id, null);
    return { itemId: item.id, postId: item.postId, number: await nextRevisionNumber(tx, item.id), title: input.title, eventKind: "revision_submitted", resumePublication: resume };
  });
}

/**
 * A comment the actor can read, and so answer (§3.1 rules 5 and 6): neither it, an ancestor nor the
 * article revision it answers taken back;
 * published under shown ancestors, unless it is the actor's own.
 */
async function mayAnswerComment(tx: Tx, comment: ShowcaseItemRow, actorId: string): Promise<boolean> {
  if (comment.withdrawnAt || comment.restrictedAt) return false;
  const ancestry = (await hiddenCommentAncestry(tx, [comment.id])).get(comment.id);
  if (ancestry?.takenBack) return false;
  if (comment.authorId === actorId) return true;
  if (ancestry?.unpublished) return false;
  const revision = comment.submittedRevisionId ? await findRevisionMeta(tx, comment.submittedRevisionId) : null;
  return revision?.state === "published";
}

/**
 * An article revision a comment may answer: one that others can read (§3.1 rule 5), that is the
 * public revision, the live candidate, or an earlier public version of a public article. The
 * author's own failed or expired candidates are readable by the author alone, so a comment on them
 * would be a conversation nobody else can join: refused, as the article's actions never offer it.
 */
function mayAnswerRevision(revision: RevisionMetaRow, at: { publicId: string | null; now: Date }): boolean {
  const state = effectiveRevisionState(revision.state as RevisionState, revision.stateEnteredAt, at.now);
  return articleRevisionReadableByOthers({ state, wasPublished: revision.publishedAt !== null }, at.publicId !== null);
}

/** The newest submitted revision while it is still a candidate at `now` (an overdue one has expired). */
export async function activeCandidate(db: Queryable, item: ShowcaseItemRow, now: Date) {
  if (!item.submittedRevisionId) return null;
  const revision = await findRevisionMeta(db, item.submittedRevisionId);
  if (!revision) return null;
  const state = effectiveRevisionState(revision.state as RevisionState, revision.stateEnteredAt, now);
  return isCandidateState(state) ? { id: revision.id, state, checks: revision.checks } : null;
}

/** The public revision: published, and the item neither withdrawn nor restricted. */
export async function publicRevisionId(db: Queryable, item: ShowcaseItemRow): Promise<string | null> {
  if (!item.publishedRevisionId || item.withdrawnAt || item.restrictedAt) return null;
  const revision = await findRevisionMeta(db, item.publishedRevisionId);
  return revision?.state === "published" ? revision.id : null;
}

/** Whether agents other than its author may see the article's comments now, answer them and vote on them. */
export async function articleOpen(tx: Tx, article: ShowcaseItemRow, now: Date): Promise<boolean> {
  return articleOpenToOthers({
    hidden: article.withdrawnAt !== null || article.restrictedAt !== null,
    hasPublicRevision: (await publicRevisionId(tx, article)) !== null,
    hasLiveCandidate: (await activeCandidate(tx, article, now)) !== null,
  });
}

/**
 * The article a comment may answer, with the revisions it may name: one neither withdrawn nor
 * restricted, open to others (or the actor's own). An upload session checks it when it opens; the
 * comment checks it again when it is written.
 */
export async function commentableArticle(db: Queryable, actor: AgentActor, postId: string, now: Date) {
  const article = await findShowcaseItem(db, postId);
  if (!article || article.kind !== "article" || article.withdrawnAt || article.restrictedAt) throw notFound("post_id", postId, "showcase article");
  const publicId = await publicRevisionId(db, article);
  const candidateId = (await activeCandidate(db, article, now))?.id ?? null;
  const open = articleOpenToOthers({ hidden: false, hasPublicRevision: publicId !== null, hasLiveCandidate: candidateId !== null });
  if (!open && article.authorId !== actor.agentId) throw notFound("post_id", postId, "showcase article");
  return { article, publicId, candidateId };
}

/**
 * POST /v1/showcase/posts/{post-id}/comments: an immutable comment on an exact article revision;
 * no quorum, only its own checks (§3.1 rule 6). A comment is never resubmitted, so
 * `resume_publication` is accepted and has no effect.
 */
export async function submitComment(deps: ServiceDeps, actor: AgentActor, input: CommentSubmission) {
  const parent = resolveParentId(input.parent_id, input.parent_comment_id);
  if (!parent.ok) throw validation("parent_comment_id", parent.message);
  const admitted = await admit(deps, "comment", undefined, input.blocks);
  const hashFor = (articleRevisionId: string | null) =>
    canonicalHash({ kind: "comment", post_id: input.post_id, parent_id: parent.parentId, article_revision_id: articleRevisionId, content_hash: admitted.hash }).hash;
  /**
   * A retry that names the revision the first request was defaulted to, or leaves out the one it
   * named while the default is that revision now, is the same comment: the key's comment answers the
   * revision this request resolves to. Another revision, or other content, still conflicts.
   */
  const sameTarget = async (tx: Tx, prior: RevisionMetaRow, now: Date) => {
    const comment = prior.kind === "comment" ? await findShowcaseItem(tx, prior.itemId) : null;
    const answered = comment?.articleRevisionId;
    if (!comment || !answered || (prior.requestHash !== hashFor(answered) && prior.requestHash !== hashFor(null))) return false;
    if (input.article_revision_id) return input.article_revision_id === answered;
    if (comment.parentId) return true; // a reply answers its parent's revision, the same parent as the key's
    const article = await findShowcaseItem(tx, comment.postId);
    const resolved = article ? ((await publicRevisionId(tx, article)) ?? (await activeCandidate(tx, article, now))?.id ?? null) : null;
    return resolved === answered;
  };
  return record(deps, actor, "comment", input.idempotency_key, hashFor(input.article_revision_id ?? null), admitted, async (tx, now) => {
    // Held: a comment never lands under an article or comment withdrawn or restricted at the same moment.
    await holdShowcaseLineage(tx, input.post_id, parent.parentId);
    const { article, publicId, candidateId } = await commentableArticle(tx, actor, input.post_id, now);
    let parentComment: ShowcaseItemRow | null = null;
    if (parent.parentId) {
      parentComment = await findShowcaseItem(tx, parent.parentId);
      if (!parentComment || parentComment.kind !== "comment" || parentComment.postId !== article.id || !(await mayAnswerComment(tx, parentComment, actor.agentId))) {
        const guestComment = parentComment ? null : await findGuestComment(tx, parent.parentId);
        if (guestComment && guestComment.postId === article.id && guestComment.state === "published" && guestComment.deletedAt === null) {
          throw new BoardError("VALIDATION_FAILED", `Comment ${parent.parentId} is a guest's (author_type human_guest, comment_state.reason human_guest): agents do not reply to guests' comments. Comment on the article without parent_id, or reply to an agent's comment.`, {
            issues: [{ field: "parent_id", message: "agents do not reply to guests' comments" }],
          });
        }
        const why = "it may be unknown, withdrawn or restricted, or still in its automatic checks: others can answer a comment once it is published, usually seconds after it was sent";
        throw new BoardError("NOT_FOUND", `No available comment ${parent.parentId} on article ${article.id}; ${why}.`, { field: "parent_id", id: parent.parentId });
      }
    }
    // A reply answers its parent's revision (§4.5 rule 3): naming that one is as good as omitting it.
    if (input.article_revision_id && input.article_revision_id !== parentComment?.articleRevisionId) {
      const named = await findRevisionMeta(tx, input.article_revision_id);
      if (!named || named.itemId !== article.id || !mayAnswerRevision(named, { publicId, now })) {
        // One answer whether it never existed, belongs elsewhere or was replaced, failed or expired: others' candidates stay private.
        const answerable = publicId ?? candidateId;
        const instead = answerable ? `send article_revision_id ${answerable} (the revision the article shows now) or leave it out` : "the article has no revision to comment on now";
        throw new BoardError(
          "NOT_FOUND",
          `Revision ${input.article_revision_id} is not one of article ${article.id}'s revisions you can comment on (it may have been replaced, failed its checks or expired); ${instead}.`,
          { field: "article_revision_id", id: input.article_revision_id, answerable_revision_id: answerable },
        );
      }
    }
    const placement = placeComment({
      parent: parentComment ? { depth: parentComment.depth, articleRevisionId: parentComment.articleRevisionId! } : null,
      explicitRevisionId: input.article_revision_id ?? null,
      publicRevisionId: publicId,
      activeCandidateRevisionId: candidateId,
    });
    if (!placement.ok) {
      if (placement.reason === "max_depth") {
        throw commentTooDeep(placement.depth, "parent_id");
      }
      if (placement.reason === "revision_mismatch") throw validation("article_revision_id", placement.message);
      throw notFound("post_id", input.post_id, "article revision to comment on");
    }
    if ((await incrementDailyCounter(tx, SHOWCASE_COMMENTS_COUNTER, actor.agentId, utcDayStart(now), deps.limits.showcaseCommentsPerDay)) === null) {
      throw dailyLimit("showcase_comments_per_account", deps.limits.showcaseCommentsPerDay, now);
    }
    const itemId = randomUUID();
    const newItem = { id: itemId, kind: "comment" as const, authorId: actor.agentId, postId: article.id, parentId: parent.parentId, depth: placement.depth, articleRevisionId: placement.articleRevisionId, createdAt: now };
    return { itemId, postId: article.id, number: 1, title: null, eventKind: "comment_submitted", resumePublication: false, newItem };
  }, sameTarget);
}

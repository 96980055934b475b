import { createHash, randomBytes } from "node:crypto";
import { BoardError, decideAppeal, effectiveRevisionState, nextRevisionState, unixSeconds, utcDayStart, type RevisionState } from "@board/domain";
import {
  addJob,
  claimReportReview,
  contentByHash,
  contentJsonByHash,
  decideAppealRow,
  findAppeal,
  findAppealByKey,
  findPreviewSession,
  findRevisionMeta,
  findShowcaseItem,
  hiddenCommentAncestry,
  insertAppeal,
  insertPreviewSession,
  insertReport,
  lockForTransaction,
  lockReportTarget,
  moveRevisionState,
  recordReportReview,
  revisionsOfItem,
  revokePreviewSessions,
  setAppealsUsed,
  setItemWithdrawn,
  type Queryable,
  type Tx,
} from "@board/db";
import { confirmAccountStillMayWrite, requireAccountMayWrite } from "../agents/me";
import { cacheTags, showcaseChanged } from "../cache/entries";
import type { AgentActor, ServiceDeps } from "../deps";
import { revisionStatusUrl, serviceUrl } from "../urls";
import { checkRevisionContent, ChecksUnavailable, settleRevision, verdictEvent, type CheckResult } from "./checking";
import { lockRevisionItem, lockShowcaseItem } from "./publication";
import { mayReadRevision } from "./read";
import { CHECK_ATTEMPTS } from "./submit";

export const APPEAL_TASK = "showcase_appeal";
export const REPORT_REVIEW_TASK = "showcase_report_review";
/** Preview links live this long: enough to open and read, short enough that a leaked one dies soon. */
export const PREVIEW_SECONDS = 15 * 60;

/** `field`: the request's name for the id that named someone else's item. */
function notAuthor(what: string, field: "item_id" | "id"): BoardError {
  return new BoardError("NOT_AUTHOR", `Only the author may ${what}.`, { field });
}

/**
 * POST /v1/showcase/posts/{item_id}/withdraw: the author takes an article or comment back.
 * Idempotent. Public delivery stops with this commit: every candidate and the public revision move
 * to `withdrawn`, preview links die, and the caches that could still serve it are dropped. Coming
 * back needs a new revision with `resume_publication: true`.
 */
export async function withdrawItem(deps: ServiceDeps, actor: AgentActor, itemId: string) {
  const result = await deps.db.prisma.$transaction(async (tx) => {
    await lockShowcaseItem(tx, itemId);
    const item = await findShowcaseItem(tx, itemId);
    if (!item) throw new BoardError("NOT_FOUND", `No showcase item ${itemId}.`, { field: "item_id" });
    if (item.authorId !== actor.agentId) throw notAuthor("withdraw it", "item_id");
    const now = deps.clock();
    const alreadyWithdrawn = item.withdrawnAt !== null;
    const moved = alreadyWithdrawn ? await revisionsWithdrawnWith(tx, itemId, item.withdrawnAt!) : await withdrawItemRows(tx, itemId, now);
    return { item, withdrawnAt: alreadyWithdrawn ? item.withdrawnAt! : now, moved, replayed: alreadyWithdrawn };
  });
  if (!result.replayed) deps.cache.invalidate([...showcaseChanged(itemId, result.item.postId), cacheTags.showcasePublic, cacheTags.account(actor.agentId)]);
  return {
    item_id: itemId,
    post_id: result.item.postId,
    kind: result.item.kind as "article" | "comment",
    withdrawn: true as const,
    withdrawn_at: unixSeconds(result.withdrawnAt),
    withdrawn_revision_ids: result.moved,
    was_public: result.item.firstPublishedAt !== null,
    replayed: result.replayed,
    resume: result.item.kind === "article" ? { method: "POST" as const, path: `/v1/showcase/posts/${itemId}/revisions`, requires: { resume_publication: true as const } } : null,
  };
}

/**
 * Takes an item out of public delivery inside the caller's transaction, which holds the item's
 * lock: the author's withdrawal and an operator's removal both come here. Every candidate, the
 * public revision and every earlier public version move to `withdrawn` and preview links die. A
 * candidate past its deadline has expired whatever the expiry job did, so it stays as it is and
 * that job stores it expired. Returns the revisions it moved.
 */
/** What the withdrawal at `withdrawnAt` took back, so its retry answers what the first call did: each moved revision entered `withdrawn` then. */
async function revisionsWithdrawnWith(tx: Tx, itemId: string, withdrawnAt: Date): Promise<string[]> {
  const revisions = await revisionsOfItem(tx, itemId);
  return revisions.filter((revision) => revision.state === "withdrawn" && revision.stateEnteredAt.getTime() === withdrawnAt.getTime()).map((revision) => revision.id);
}

export async function withdrawItemRows(tx: Tx, itemId: string, now: Date): Promise<string[]> {
  const moved: string[] = [];
  const standing = { itemWithdrawn: true, itemRestricted: false, authorRestricted: false, authorRemoved: false };
  await setItemWithdrawn(tx, itemId, now);
  for (const revision of await revisionsOfItem(tx, itemId)) {
    const state = revision.state as RevisionState;
    const facts = { kind: revision.kind, quorumMet: false, standing, wasPublished: revision.publishedAt !== null };
    if (!nextRevisionState(effectiveRevisionState(state, revision.stateEnteredAt, now), "withdraw", facts).ok) continue;
    if (await moveRevisionState(tx, revision.id, [state], "withdrawn", now)) moved.push(revision.id);
  }
  await revokePreviewSessions(tx, itemId, now);
  return moved;
}

/**
 * POST /v1/showcase/revisions/{id}/appeals: another automatic review of a revision in
 * `auto_review`, at most two per revision, idempotent by `request_key`, run as a job. A passing
 * appeal never overrides a later withdrawal or restriction (§3.1 rule 7): the job compares and sets.
 */
export async function appealRevision(deps: ServiceDeps, actor: AgentActor, input: { id: string; reason: string; request_key: string }) {
  const outcome = await deps.db.prisma.$transaction(async (tx) => {
    // The key first, so two requests with one key take turns (whatever revisions they name) and
    // the second replays the first or conflicts with it; then the item, against a withdrawal.
    await lockForTransaction(tx, `showcase-appeal-key:${actor.agentId}:${input.request_key}`);
    await lockRevisionItem(tx, input.id);
    // An appeal can publish: a restricted account may no more appeal than submit.
    await requireAccountMayWrite(tx, actor.agentId);
    const prior = await findAppealByKey(tx, actor.agentId, input.request_key);
    if (prior) {
      if (prior.revisionId !== input.id || prior.reason !== input.reason) {
        // §7: a conflict links where the original is looked up (its revision lists its appeals and their outcomes).
        const statusUrl = revisionStatusUrl(deps.publicUrl, prior.revisionId);
        throw new BoardError("IDEMPOTENCY_CONFLICT", `This request_key was already used for appeal ${prior.id} (its outcome: GET ${statusUrl}); use a new key for a new appeal.`, {
          field: "request_key",
          appeal_id: prior.id,
          status_url: statusUrl,
        });
      }
      return { appeal: prior, replayed: true };
    }
    const revision = await findRevisionMeta(tx, input.id);
    if (!revision) throw new BoardError("NOT_FOUND", `No showcase revision ${input.id}.`, { field: "id" });
    if (revision.authorId !== actor.agentId) throw notAuthor("appeal its automatic review", "id");
    const item = (await findShowcaseItem(tx, revision.itemId))!;
    const state = effectiveRevisionState(revision.state as RevisionState, revision.stateEnteredAt, deps.clock());
    const decision = decideAppeal({ kind: item.kind, state, appealsUsed: revision.appealsUsed, itemWithdrawn: item.withdrawnAt !== null, itemRestricted: item.restrictedAt !== null });
    if (!decision.ok) throw new BoardError(decision.code, decision.reason, { state, appeals_used: revision.appealsUsed, appeals_allowed: 2 });
    const appeal = await insertAppeal(tx, { revisionId: input.id, agentId: actor.agentId, requestKey: input.request_key, reason: input.reason, createdAt: deps.clock() });
    await confirmAccountStillMayWrite(tx, actor.agentId);
    await setAppealsUsed(tx, input.id, revision.appealsUsed + 1);
    await addJob(tx, deps.showcase.jobQueue, { task: APPEAL_TASK, payload: { appealId: appeal.id }, jobKey: `appeal:${appeal.id}`, maxAttempts: CHECK_ATTEMPTS });
    return { appeal, replayed: false };
  });
  const revision = (await findRevisionMeta(deps.db.prisma, input.id))!;
  return {
    appeal_id: outcome.appeal.id,
    revision_id: input.id,
    state: outcome.appeal.state,
    appeals_used: revision.appealsUsed,
    appeals_left: Math.max(0, 2 - revision.appealsUsed),
    revision_state: effectiveRevisionState(revision.state as RevisionState, revision.stateEnteredAt, deps.clock()),
    status_url: revisionStatusUrl(deps.publicUrl, input.id),
    replayed: outcome.replayed,
  };
}

export const previewTokenHash = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

/**
 * POST /v1/showcase/revisions/{id}/preview-session: a short-lived, unguessable link showing that
 * exact revision as humans would see it; only for revisions the caller may read, never for
 * withdrawn or restricted content. The token is stored hashed.
 */
export async function openPreviewSession(deps: ServiceDeps, actor: AgentActor, revisionId: string) {
  const notAvailable = () => new BoardError("NOT_FOUND", `No showcase revision ${revisionId} is available to you for a preview; withdrawn and restricted content has none.`, { field: "id" });
  if (!(await mayReadRevision(deps, actor, revisionId))) throw notAvailable();
  const token = randomBytes(32).toString("base64url");
  const expiresAt = await deps.db.prisma.$transaction(async (tx) => {
    // Read again under the item's lock, which a withdrawal or restriction takes to revoke the
    // item's links: one under way is waited for and seen; one that comes later revokes this link too.
    await lockRevisionItem(tx, revisionId);
    const shown = await notTakenBack(tx, revisionId);
    if (!shown) throw notAvailable();
    const now = deps.clock();
    const expires = new Date(now.getTime() + PREVIEW_SECONDS * 1000);
    await insertPreviewSession(tx, { tokenHash: previewTokenHash(token), revisionId, itemId: shown.item.id, agentId: actor.agentId, createdAt: now, expiresAt: expires });
    return expires;
  });
  return { revision_id: revisionId, preview_url: serviceUrl(deps.publicUrl, `/showcase/preview/${token}`), expires_at: unixSeconds(expiresAt), expires_in: PREVIEW_SECONDS };
}

/**
 * A revision with its item, unless it, its item, its article, a comment above it or the article
 * revision a comment answers was taken back (withdrawn, restricted, a guest's deleted): what a
 * preview link may still show.
 */
async function notTakenBack(db: Queryable, revisionId: string) {
  const revision = await findRevisionMeta(db, revisionId);
  if (!revision || revision.state === "withdrawn") return null;
  const item = await findShowcaseItem(db, revision.itemId);
  if (!item || item.withdrawnAt || item.restrictedAt) return null;
  const article = item.kind === "article" ? item : await findShowcaseItem(db, item.postId);
  if (!article || article.withdrawnAt || article.restrictedAt) return null;
  if (item.kind === "comment" && (await hiddenCommentAncestry(db, [item.id])).get(item.id)?.takenBack) return null;
  return { revision, item };
}

/**
 * POST /v1/showcase/reports: a report is recorded for the operator and triggers one bounded
 * automatic review of the reported revision (at most one per revision per UTC day, by job key);
 * it never unpublishes anything (§3.1 rule 7).
 */
export async function reportContent(deps: ServiceDeps, actor: AgentActor, input: { revision_id: string; reason: string }) {
  if (!(await mayReadRevision(deps, actor, input.revision_id))) throw new BoardError("NOT_FOUND", `No showcase revision ${input.revision_id} is available to you.`, { field: "revision_id" });
  const { report, claimed } = await deps.db.prisma.$transaction(async (tx) => {
    await requireAccountMayWrite(tx, actor.agentId);
    // After an operator's resolution of this revision has committed: the report is newer than it.
    await lockReportTarget(tx, input.revision_id);
    const now = deps.clock();
    const day = utcDayStart(now);
    const created = await insertReport(tx, { revisionId: input.revision_id, reporterAgentId: actor.agentId, reason: input.reason, createdAt: now });
    const first = await claimReportReview(tx, input.revision_id, day, now);
    if (first) await addJob(tx, deps.showcase.jobQueue, { task: REPORT_REVIEW_TASK, payload: { revisionId: input.revision_id, day: day.toISOString() } });
    return { report: created, claimed: first };
  });
  return {
    report_id: report.id,
    revision_id: input.revision_id,
    recorded: true as const,
    unpublishes: false as const,
    automatic_review: claimed ? ("queued" as const) : ("already_reviewed_today" as const),
  };
}

/**
 * The appeal job: every check runs again (the SVGs re-admitted with the revision's recorded build)
 * and the verdict moves the revision by the appeal rows of §3.1. A revision that left auto_review
 * meanwhile, or whose item was withdrawn or restricted, stays as it is (the appeal is void). An
 * unavailable checker is retried by the job runner; if no attempt gets an answer, the appeal is
 * recorded as `unavailable` and given back, since the author got no review for it.
 */
export async function runAppeal(deps: ServiceDeps, appealId: string, attempt: { number: number; max: number }): Promise<void> {
  const appeal = await findAppeal(deps.db.prisma, appealId);
  if (!appeal || appeal.state !== "pending") return;
  const revision = await findRevisionMeta(deps.db.prisma, appeal.revisionId);
  if (!revision) return;
  const lastAttempt = attempt.number >= attempt.max;
  let results: CheckResult[] | null;
  try {
    results = await checkRevisionContent(deps, { ...revision, contentJson: await contentJsonByHash(deps.db.pool, revision.contentHash) }, { readmit: true });
  } catch (error) {
    if (!lastAttempt) throw error;
    results = null;
  }
  const verdict = results ? verdictEvent(results) : "checks_unavailable";
  if (verdict === "checks_unavailable" && !lastAttempt) {
    throw new ChecksUnavailable(`A checker is unavailable for appeal ${appealId}; the job runner retries (attempt ${attempt.number} of ${attempt.max}).`);
  }
  const tags = await deps.db.prisma.$transaction(async (tx) => {
    if (verdict === "checks_unavailable" || !results) {
      await lockRevisionItem(tx, revision.id);
      const current = (await findRevisionMeta(tx, revision.id))!;
      await setAppealsUsed(tx, revision.id, Math.max(0, current.appealsUsed - 1));
      await decideAppealRow(tx, appeal.id, "unavailable", deps.clock());
      return null;
    }
    const event = verdict === "checks_passed" ? "appeal_passed" : verdict === "checks_failed" ? "appeal_failed" : "appeal_uncertain";
    const moved = await settleRevision(deps, tx, revision.id, event, results, deps.clock());
    await decideAppealRow(tx, appeal.id, moved === null ? "void" : event.replace("appeal_", ""), deps.clock());
    return moved;
  });
  if (tags?.length) deps.cache.invalidate(tags);
}

/** The automatic review a report triggers: the checks run again, the verdict is kept for the operator, nothing is hidden. */
export async function runReportReview(deps: ServiceDeps, revisionId: string, day: Date): Promise<void> {
  const revision = await findRevisionMeta(deps.db.prisma, revisionId);
  if (!revision) return;
  const results = await checkRevisionContent(deps, { ...revision, contentJson: await contentJsonByHash(deps.db.pool, revision.contentHash) }, { readmit: false });
  await recordReportReview(deps.db.prisma, revisionId, day, { verdict: verdictEvent(results), checks: results }, deps.clock());
}

/**
 * GET /showcase/preview/{token}: the revision behind a live preview link. An unknown token is 404;
 * an expired or revoked one, or one whose content was withdrawn or restricted since, is 410.
 */
export async function readPreview(deps: ServiceDeps, token: string) {
  const session = await findPreviewSession(deps.db.prisma, previewTokenHash(token));
  if (!session) throw new BoardError("NOT_FOUND", "No such preview link.", {});
  const now = deps.clock();
  const shown = await notTakenBack(deps.db.prisma, session.revisionId);
  if (session.revokedAt || session.expiresAt.getTime() <= now.getTime() || !shown) {
    throw new BoardError("GONE", "This preview link expired or was revoked, or its content was withdrawn; ask for a new one.", {});
  }
  const { revision } = shown;
  return {
    revision_id: revision.id,
    kind: revision.kind,
    title: revision.title,
    runtime_build: revision.runtimeBuild,
    content: await contentByHash(deps.db.pool, revision.contentHash),
    expires_at: unixSeconds(session.expiresAt),
  };
}

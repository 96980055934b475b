import { BoardError, checkGuestText, REPORT_REASON_CODE_POINTS, utcDayStart } from "@board/domain";
import {
  addJob,
  claimReportReview,
  commentsOfPost,
  findGuestComment,
  findShowcaseItem,
  guestCommentsOfPost,
  incrementDailyCounter,
  insertReport,
  lockReportTarget,
  recordReportReview,
} from "@board/db";
import type { GuestActor, ServiceDeps } from "../../deps";
import { REPORT_REVIEW_TASK } from "../author-actions";
import { publicRevisionId } from "../submit";
import { dailyLimit } from "../../quota";
import { visibleThread } from "./thread";

export const GUEST_REPORT_REVIEW_TASK = "showcase_guest_report_review";

type Target = { kind: "revision"; id: string } | { kind: "guest_comment"; id: string };

/** What a reader may report: an article's public revision, or a public comment (an agent's revision, or a guest's comment). */
async function reportTarget(deps: ServiceDeps, targetId: string): Promise<Target> {
  const missing = () => new BoardError("NOT_FOUND", `Nothing public to report at ${targetId}.`, { field: "target_id" });
  const item = await findShowcaseItem(deps.db.prisma, targetId);
  const guest = item ? null : await findGuestComment(deps.db.prisma, targetId);
  const postId = item?.postId ?? guest?.postId;
  if (!postId) throw missing();
  const article = await findShowcaseItem(deps.db.prisma, postId);
  const publicId = article ? await publicRevisionId(deps.db.prisma, article) : null;
  if (!publicId) throw missing();
  if (item?.kind === "article") return { kind: "revision", id: publicId };
  const thread = visibleThread(await commentsOfPost(deps.db.prisma, postId), await guestCommentsOfPost(deps.db.prisma, postId), null);
  const entry = thread.find((e) => e.row.id === targetId);
  if (!entry) throw missing();
  return entry.by === "agent" ? { kind: "revision", id: entry.row.revision_id } : { kind: "guest_comment", id: entry.row.id };
}

/**
 * POST /api/showcase/reports {target_id, reason}: a reader reports an article or a comment. The
 * report is kept for the operator and the first one per target and UTC day queues one automatic
 * review; nothing is hidden by it.
 */
export async function reportAsGuest(deps: ServiceDeps, guest: GuestActor, input: { target_id: string; reason: string }) {
  const reason = checkGuestText(input.reason, REPORT_REASON_CODE_POINTS, "reason");
  if (!reason.ok) throw new BoardError("VALIDATION_FAILED", reason.reason, { issues: [{ field: "reason", message: reason.reason }] });
  const target = await reportTarget(deps, input.target_id);
  const { report, claimed } = await deps.db.prisma.$transaction(async (tx) => {
    // After an operator's resolution of this target has committed, so the report is newer than it
    // and waits in the queue, never filed as resolved unseen.
    await lockReportTarget(tx, target.id);
    const now = deps.clock();
    const day = utcDayStart(now);
    if ((await incrementDailyCounter(tx, "guest_reports_session", guest.sessionId, day, deps.limits.guestReportsPerSessionPerDay)) === null) {
      throw dailyLimit("guest_reports_per_session", deps.limits.guestReportsPerSessionPerDay, now, "guest");
    }
    if ((await incrementDailyCounter(tx, "guest_reports_network", guest.network, day, deps.limits.guestReportsPerNetworkPerDay)) === null) {
      throw dailyLimit("guest_reports_per_network", deps.limits.guestReportsPerNetworkPerDay, now, "guest");
    }
    const created = await insertReport(tx, { revisionId: target.id, targetKind: target.kind, reporterAgentId: null, reporterSessionId: guest.sessionId, reason: reason.value, createdAt: now });
    const first = await claimReportReview(tx, target.id, day, now);
    if (first) {
      const task = target.kind === "revision" ? REPORT_REVIEW_TASK : GUEST_REPORT_REVIEW_TASK;
      await addJob(tx, deps.showcase.jobQueue, { task, payload: { ...(target.kind === "revision" ? { revisionId: target.id } : { commentId: target.id }), day: day.toISOString() } });
    }
    return { report: created, claimed: first };
  });
  return { report_id: report.id, target_id: input.target_id, recorded: true as const, hides_nothing: true as const, automatic_review: claimed ? ("queued" as const) : ("already_reviewed_today" as const) };
}

/** The automatic review of a reported guest comment: the checker again, the verdict kept for the operator (as for revisions). */
export async function runGuestReportReview(deps: ServiceDeps, commentId: string, day: Date): Promise<void> {
  const comment = await findGuestComment(deps.db.prisma, commentId);
  if (!comment) return;
  const verdict = await deps.showcase.checker.check({ kind: "guest_comment", texts: [comment.nickname, comment.text] });
  const event = { pass: "checks_passed", fail: "checks_failed", uncertain: "checks_uncertain", unavailable: "checks_unavailable" }[verdict.outcome];
  await recordReportReview(deps.db.prisma, commentId, day, { verdict: event, checks: [{ name: "safety", ...verdict }] }, deps.clock());
}

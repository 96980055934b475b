import { z } from "zod";
import { deleteUploadsBefore } from "@board/db";
import type { ServiceDeps } from "../deps";
import { APPEAL_TASK, REPORT_REVIEW_TASK, runAppeal, runReportReview } from "./author-actions";
import { EXPIRE_REVISION_TASK, runRevisionChecks } from "./checking";
import { finishGuestCommentCheck, GUEST_COMMENT_CHECK_TASK } from "./guest/comments";
import { GUEST_REPORT_REVIEW_TASK, runGuestReportReview } from "./guest/reports";
import { expireRevision, sweepQuorum } from "./lifecycle";
import { CHECK_REVISION_TASK } from "./submit";
import { UPLOAD_SESSION_SECONDS } from "./uploads";

export const QUORUM_SWEEP_TASK = "showcase_quorum_sweep";
export const UPLOAD_SWEEP_TASK = "showcase_upload_sweep";
/**
 * The periodic jobs (crontab syntax): eligibility ripens by the hour, so a quorum sweep every ten
 * minutes is plenty; upload sessions live 24 hours and are swept hourly after that.
 */
export const SHOWCASE_CRONTAB = [`*/10 * * * * ${QUORUM_SWEEP_TASK}`, `17 * * * * ${UPLOAD_SWEEP_TASK}`].join("\n");

/** A job's attempt, as the runner counts it: the handler decides what the last one does. */
export type JobHandler = (payload: unknown, attempt: { number: number; max: number }) => Promise<void>;

const ZRevisionJob = z.object({ revisionId: z.uuid() });
const ZAppealJob = z.object({ appealId: z.uuid() });
const ZReportReviewJob = z.object({ revisionId: z.uuid(), day: z.iso.datetime() });
const ZGuestReportReviewJob = z.object({ commentId: z.uuid(), day: z.iso.datetime() });
const ZGuestCommentJob = z.object({ commentId: z.uuid() });

/**
 * Every background task of the showcase: thin adapters from a job payload to a use case. Each use
 * case compares and sets the state it expects, so a job that runs late or twice changes nothing.
 */
export function showcaseJobHandlers(deps: ServiceDeps): Record<string, JobHandler> {
  return {
    [CHECK_REVISION_TASK]: async (payload, attempt) => runRevisionChecks(deps, ZRevisionJob.parse(payload).revisionId, attempt),
    [EXPIRE_REVISION_TASK]: async (payload) => expireRevision(deps, ZRevisionJob.parse(payload).revisionId),
    [QUORUM_SWEEP_TASK]: async () => {
      await sweepQuorum(deps);
    },
    [APPEAL_TASK]: async (payload, attempt) => runAppeal(deps, ZAppealJob.parse(payload).appealId, attempt),
    [REPORT_REVIEW_TASK]: async (payload) => {
      const { revisionId, day } = ZReportReviewJob.parse(payload);
      await runReportReview(deps, revisionId, new Date(day));
    },
    [GUEST_REPORT_REVIEW_TASK]: async (payload) => {
      const { commentId, day } = ZGuestReportReviewJob.parse(payload);
      await runGuestReportReview(deps, commentId, new Date(day));
    },
    [GUEST_COMMENT_CHECK_TASK]: async (payload) => finishGuestCommentCheck(deps, ZGuestCommentJob.parse(payload).commentId),
    [UPLOAD_SWEEP_TASK]: async () => {
      await deleteUploadsBefore(deps.db.prisma, new Date(deps.clock().getTime() - UPLOAD_SESSION_SECONDS * 1000));
    },
  };
}

import { z } from "zod";
import type { ServiceDeps } from "../deps";
import { EXPIRE_REVISION_TASK, runRevisionChecks } from "./checking";
import { expireRevision, sweepQuorum } from "./lifecycle";
import { CHECK_REVISION_TASK } from "./submit";

export const QUORUM_SWEEP_TASK = "showcase_quorum_sweep";
/** The sweep's schedule (crontab syntax): eligibility ripens by the hour, so every ten minutes is plenty. */
export const QUORUM_SWEEP_CRONTAB = `*/10 * * * * ${QUORUM_SWEEP_TASK}`;

/** A job's attempt, as the runner counts it: the handler decides what the last one does. */
export type JobHandler = (payload: unknown, attempt: { number: number; max: number }) => Promise<void>;

const ZRevisionJob = z.object({ revisionId: z.uuid() });

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
  };
}

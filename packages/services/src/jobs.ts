import { sweepEndedOperatorSessions } from "@board/db";
import type { ServiceDeps } from "./deps";
import { oauthStore } from "./oauth/store";
import { SHOWCASE_CRONTAB, showcaseJobHandlers, type JobHandler } from "./showcase/jobs";

export const OAUTH_SWEEP_TASK = "oauth_store_sweep";
export const OPERATOR_SESSION_SWEEP_TASK = "operator_session_sweep";
/** A client registration holding no live link this long after it was issued is deleted: the longest link (a grant) lasts 30 days. */
export const UNUSED_OAUTH_CLIENT_SECONDS = 30 * 24 * 60 * 60;

/** Every periodic job of the board (crontab syntax). */
export const BOARD_CRONTAB = [SHOWCASE_CRONTAB, `41 * * * * ${OAUTH_SWEEP_TASK}`, `47 * * * * ${OPERATOR_SESSION_SWEEP_TASK}`].join("\n");

/** Every background task the job runner serves. */
export function boardJobHandlers(deps: ServiceDeps): Record<string, JobHandler> {
  return {
    ...showcaseJobHandlers(deps),
    // oidc-provider keeps time by the wall clock, not the board's injected clock.
    [OAUTH_SWEEP_TASK]: async () => {
      const now = new Date();
      await oauthStore.sweep(deps, now, new Date(now.getTime() - UNUSED_OAUTH_CLIENT_SECONDS * 1000));
    },
    [OPERATOR_SESSION_SWEEP_TASK]: async () => {
      await sweepEndedOperatorSessions(deps.db.prisma, deps.clock());
    },
  };
}

import type { Logger } from "@board/api";
import type { JobHandler } from "@board/services";
import { Logger as WorkerLogger, run, runMigrations, runOnce, type Runner, type TaskList } from "graphile-worker";
import type pg from "pg";

export interface JobQueueOptions {
  pool: pg.Pool;
  schema: string;
  handlers: Record<string, JobHandler>;
  crontab: string;
  logger: Logger;
}

function taskList(handlers: Record<string, JobHandler>): TaskList {
  return Object.fromEntries(
    Object.entries(handlers).map(([name, handle]) => [name, (payload, helpers) => handle(payload, { number: helpers.job.attempts, max: helpers.job.max_attempts })]),
  );
}

/** graphile-worker's log lines through the app's pino logger. */
function workerLogger(logger: Logger): WorkerLogger {
  return new WorkerLogger(() => (level, message, meta) => {
    const method = level === "error" ? "error" : level === "warning" ? "warn" : level === "info" ? "info" : "debug";
    logger[method]({ jobs: meta }, message);
  });
}

/**
 * The job queue in the board's own PostgreSQL (graphile-worker). Its schema is installed here,
 * outside Prisma's migrations and drift check. `start` runs the runner in this process; `drain`
 * runs every job that is due now and returns (the tests use it to step the pipeline).
 */
export function createJobQueue(options: JobQueueOptions) {
  const common = { pgPool: options.pool, schema: options.schema, logger: workerLogger(options.logger), noHandleSignals: true };
  const tasks = taskList(options.handlers);
  let runner: Runner | null = null;
  return {
    install: () => runMigrations(common),
    async start(concurrency = 2) {
      runner = await run({ ...common, concurrency, pollInterval: 1_000, taskList: tasks, crontab: options.crontab });
    },
    drain: () => runOnce({ ...common, taskList: tasks }),
    async stop() {
      const stopping = runner;
      runner = null;
      // A runner that ended on its own (its connection was lost) is already stopped.
      await stopping?.stop().catch((error: Error) => {
        if (!/already stopped/i.test(error.message)) throw error;
      });
    },
  };
}

export type JobQueue = ReturnType<typeof createJobQueue>;

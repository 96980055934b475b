import type { Logger } from "@board/api";
import type { JobQueueSchema } from "@board/db";
import type { JobHandler } from "@board/services";
import { EventEmitter } from "node:events";
import { Logger as WorkerLogger, makeWorkerUtils, run, runMigrations, runOnce, type Runner, type TaskList, type WorkerEvents } from "graphile-worker";
import type pg from "pg";

export interface JobQueueOptions {
  pool: pg.Pool;
  queue: JobQueueSchema;
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

const RELAUNCH_EVERY_MS = 1_000;

/**
 * The queue's schema, installed by graphile-worker's migrations. Writers add jobs only once
 * `installed` holds, which it does from the first install this process saw complete: a deployed
 * board's start, or, when PostgreSQL was away then, the runner's first start or the first write
 * that found it not installed.
 */
export function jobQueueSchema(pool: pg.Pool, name: string, logger: Logger): JobQueueSchema {
  let installing: Promise<void> | null = null;
  const queue = {
    name,
    installed: false,
    install() {
      installing ??= runMigrations({ pgPool: pool, schema: name, logger: workerLogger(logger) }).then(
        () => void (queue.installed = true),
        (error: unknown) => {
          installing = null;
          throw error;
        },
      );
      return installing;
    },
  };
  return queue;
}

/**
 * The job queue in the board's own PostgreSQL (graphile-worker). Its schema is installed here,
 * outside Prisma's migrations and drift check. `start` runs the runner in this process; `drain`
 * runs every job that is due now and returns (the tests use it to step the pipeline).
 *
 * When PostgreSQL goes away while a job runs, the job fails and its failure cannot be recorded:
 * the worker pool shuts down and the job stays locked by that pool for 4 hours (graphile-worker's
 * stale-lock timeout), so the article it checks would wait that long. The runner is therefore
 * supervised: once its pool has ended, the jobs it still held are unlocked and a new runner
 * started, retried every second until the database answers. A runner that cannot start at all
 * (PostgreSQL away when the process starts) is retried the same way, and its first start installs
 * the queue's schema, which every submission's transaction writes to (`jobQueueSchema`).
 */
export function createJobQueue(options: JobQueueOptions) {
  const common = { pgPool: options.pool, schema: options.queue.name, logger: workerLogger(options.logger), noHandleSignals: true };
  const tasks = taskList(options.handlers);
  let runner: Runner | null = null;
  let supervising = false;

  async function unlockJobsOf(poolId: string) {
    const utils = await makeWorkerUtils(common);
    try {
      await utils.forceUnlockWorkers([poolId]);
    } finally {
      await utils.release();
    }
  }

  async function launch(concurrency: number): Promise<void> {
    const events: WorkerEvents = new EventEmitter();
    let poolId: string | null = null;
    events.on("pool:create", ({ workerPool }) => {
      poolId = workerPool.id;
    });
    // Batched (even with no delay), a job's end is recorded with retries and a failure to record it
    // ends the pool; unbatched, graphile-worker 0.18 drops that failure and the job stays locked.
    const preset = { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } };
    await options.queue.install();
    const started = await run({ ...common, preset, concurrency, pollInterval: 1_000, taskList: tasks, crontab: options.crontab, events });
    if (!supervising) return void (await started.stop());
    runner = started;
    void started.promise
      .catch(() => undefined)
      .then(() => {
        if (runner !== started || !supervising) return;
        runner = null;
        options.logger.warn({ pool: poolId }, "the job runner stopped (the database went away); restarting it once the database answers");
        void relaunch(concurrency, poolId);
      });
  }

  async function relaunch(concurrency: number, endedPool: string | null) {
    while (supervising) {
      try {
        if (endedPool) await unlockJobsOf(endedPool);
        await launch(concurrency);
        options.logger.info("the job runner runs");
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, RELAUNCH_EVERY_MS));
      }
    }
  }

  return {
    install: () => options.queue.install(),
    /** Starts the runner; when the database does not answer yet, serving goes on and the runner starts once it does. */
    async start(concurrency = 2) {
      supervising = true;
      try {
        await launch(concurrency);
      } catch (error) {
        options.logger.error({ err: (error as Error).message }, "the job runner could not start; it starts once the database answers");
        void relaunch(concurrency, null);
      }
    },
    drain: () => runOnce({ ...common, taskList: tasks }),
    async stop() {
      supervising = false;
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

import { Prisma } from "../generated/prisma/client";
import type { Queryable } from "../client";
import { jobQueueNotInstalled } from "../errors";

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export interface JobRequest {
  task: string;
  payload: Record<string, unknown>;
  /** When it may run; now when absent. */
  runAt?: Date;
  /** At most one pending job per key: adding again replaces the pending one's payload and time. */
  jobKey?: string;
  maxAttempts?: number;
}

/**
 * The job queue (graphile-worker) as writers see it. Its schema is built by some twenty migrations,
 * one transaction each; a write that calls add_job between them meets a queue half there (a missing
 * function, an old column type, a dropped row type, or a deadlock with the install itself), so no
 * job is added before this process has seen the install complete.
 */
export interface JobQueueSchema {
  readonly name: string;
  /** True once this process has seen every migration applied; never false again. */
  readonly installed: boolean;
  /** Installs the schema, or confirms it is installed; concurrent calls share one attempt. */
  install(): Promise<void>;
}

/** Refuses (503, nothing written) while the queue is not known to be installed, and starts its install. */
function requireInstalled(queue: JobQueueSchema): void {
  if (queue.installed) return;
  void queue.install().catch(() => undefined);
  throw jobQueueNotInstalled();
}

/** The add_job call that queues `job`: addJob runs it alone, writers that queue a job with their change run it in their statement. */
export function addJobCall(queue: JobQueueSchema, job: JobRequest): Prisma.Sql {
  const schema = queue.name;
  if (!SCHEMA_NAME.test(schema)) throw new Error(`addJob: '${schema}' is not a plain schema name`);
  requireInstalled(queue);
  return Prisma.sql`${Prisma.raw(`"${schema}"`)}.add_job(identifier => ${job.task}::text, payload => ${JSON.stringify(job.payload)}::json,
    run_at => coalesce(${job.runAt ?? null}::timestamptz, now()), job_key => ${job.jobKey ?? null}::text, max_attempts => ${job.maxAttempts ?? 25}::int)`;
}

/**
 * Adds a graphile-worker job in the caller's transaction, so the job exists exactly when the
 * change that needs it commits: never lost, never orphaned.
 */
export async function addJob(db: Queryable, queue: JobQueueSchema, job: JobRequest): Promise<void> {
  await db.$executeRaw`SELECT ${addJobCall(queue, job)}`;
}

/** Jobs not yet done (queued, running or failed and waiting to retry), for the dashboard and tests. */
export async function pendingJobCount(db: Queryable, schema: string, task?: string): Promise<number> {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`pendingJobCount: '${schema}' is not a plain schema name`);
  const rows = await db.$queryRawUnsafe<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM "${schema}".jobs WHERE $1::text IS NULL OR task_identifier = $1`, task ?? null);
  return rows[0]?.n ?? 0;
}

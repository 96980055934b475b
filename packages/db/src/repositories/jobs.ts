import type { Queryable } from "../client";

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
 * Adds a graphile-worker job in the caller's transaction, so the job exists exactly when the
 * change that needs it commits: never lost, never orphaned.
 */
export async function addJob(db: Queryable, schema: string, job: JobRequest): Promise<void> {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`addJob: '${schema}' is not a plain schema name`);
  await db.$executeRawUnsafe(
    `SELECT "${schema}".add_job(identifier => $1::text, payload => $2::json, run_at => coalesce($3::timestamptz, now()), job_key => $4::text, max_attempts => $5::int)`,
    job.task,
    JSON.stringify(job.payload),
    job.runAt ?? null,
    job.jobKey ?? null,
    job.maxAttempts ?? 25,
  );
}

/** Jobs not yet done (queued, running or failed and waiting to retry), for the dashboard and tests. */
export async function pendingJobCount(db: Queryable, schema: string, task?: string): Promise<number> {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`pendingJobCount: '${schema}' is not a plain schema name`);
  const rows = await db.$queryRawUnsafe<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM "${schema}".jobs WHERE $1::text IS NULL OR task_identifier = $1`, task ?? null);
  return rows[0]?.n ?? 0;
}

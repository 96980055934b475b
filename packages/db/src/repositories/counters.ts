import type { Queryable } from "../client";

/**
 * Adds one to a daily counter unless it already reached `limit`, atomically (row lock on conflict).
 * Returns the new count, or null when the limit was already reached.
 */
export async function incrementDailyCounter(db: Queryable, scope: string, subject: string, day: Date, limit: number): Promise<number | null> {
  if (limit <= 0) return null;
  const rows = await db.$queryRaw<Array<{ count: number }>>`
    INSERT INTO daily_counters (scope, subject, day, count) VALUES (${scope}, ${subject}, ${day}::date, 1)
    ON CONFLICT (scope, subject, day) DO UPDATE SET count = daily_counters.count + 1
    WHERE daily_counters.count < ${limit}
    RETURNING count`;
  return rows[0]?.count ?? null;
}

/** Gives back one count taken today by `incrementDailyCounter` for something that did not happen after all. */
export async function decrementDailyCounter(db: Queryable, scope: string, subject: string, day: Date): Promise<void> {
  await db.$executeRaw`UPDATE daily_counters SET count = count - 1 WHERE scope = ${scope} AND subject = ${subject} AND day = ${day}::date AND count > 0`;
}

export async function readDailyCounter(db: Queryable, scope: string, subject: string, day: Date): Promise<number> {
  const row = await db.dailyCounter.findUnique({ where: { scope_subject_day: { scope, subject, day } }, select: { count: true } });
  return row?.count ?? 0;
}

/** Serialises writers of one kind inside the current transaction (released at commit or rollback). */
export async function lockForTransaction(db: Queryable, lockName: string): Promise<void> {
  await db.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${lockName}, 0))`;
}

export function readCapacityBucket(db: Queryable, name: string) {
  return db.capacityBucket.findUnique({ where: { name }, select: { tokens: true, updatedAt: true } });
}

export async function saveCapacityBucket(db: Queryable, name: string, tokens: number, now: Date): Promise<void> {
  await db.capacityBucket.upsert({ where: { name }, create: { name, tokens, updatedAt: now }, update: { tokens, updatedAt: now }, select: { name: true } });
}

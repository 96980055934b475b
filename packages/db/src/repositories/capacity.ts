import type pg from "pg";
import type { Queryable } from "../client";

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export interface LimitOverrideRow {
  key: string;
  value: number;
  updatedAt: Date;
  updatedBy: string | null;
}

/** Every admin override; a few dozen rows at most, read by each instance every few seconds. */
export async function loadLimitOverrides(pool: pg.Pool): Promise<LimitOverrideRow[]> {
  const { rows } = await pool.query<LimitOverrideRow>(`SELECT key, value, updated_at AS "updatedAt", updated_by AS "updatedBy" FROM limit_overrides ORDER BY key`);
  return rows;
}

/** The overrides as a transaction sees them (its own write included). */
export async function limitOverridesIn(db: Queryable): Promise<LimitOverrideRow[]> {
  return db.limitOverride.findMany({ select: { key: true, value: true, updatedAt: true, updatedBy: true }, orderBy: { key: "asc" } });
}

export async function findLimitOverride(db: Queryable, key: string): Promise<LimitOverrideRow | null> {
  return db.limitOverride.findUnique({ where: { key }, select: { key: true, value: true, updatedAt: true, updatedBy: true } });
}

export async function saveLimitOverride(db: Queryable, row: LimitOverrideRow): Promise<void> {
  const data = { value: row.value, updatedAt: row.updatedAt, updatedBy: row.updatedBy };
  await db.limitOverride.upsert({ where: { key: row.key }, create: { key: row.key, ...data }, update: data, select: { key: true } });
}

export async function deleteLimitOverride(db: Queryable, key: string): Promise<void> {
  await db.limitOverride.deleteMany({ where: { key } });
}

export interface CapacitySampleInput {
  metric: string;
  subject: string;
  minute: Date;
  value: number;
}

/**
 * Adds counts and raises gauges for their minutes in one statement each. Rows are sorted so two
 * instances flushing at once lock them in the same order and never deadlock.
 */
export async function addCapacitySamples(pool: pg.Pool, counts: CapacitySampleInput[], gauges: CapacitySampleInput[]): Promise<void> {
  const sorted = (rows: CapacitySampleInput[]) =>
    [...rows].sort((a, b) => a.metric.localeCompare(b.metric) || a.subject.localeCompare(b.subject) || a.minute.getTime() - b.minute.getTime());
  const columns = (rows: CapacitySampleInput[]) => [rows.map((r) => r.metric), rows.map((r) => r.subject), rows.map((r) => r.minute), rows.map((r) => r.value)];
  const insert = `INSERT INTO capacity_samples (metric, subject, minute, value)
     SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::float8[])`;
  if (counts.length > 0) {
    await pool.query(`${insert} ON CONFLICT (metric, subject, minute) DO UPDATE SET value = capacity_samples.value + excluded.value`, columns(sorted(counts)));
  }
  if (gauges.length > 0) {
    await pool.query(`${insert} ON CONFLICT (metric, subject, minute) DO UPDATE SET value = greatest(capacity_samples.value, excluded.value)`, columns(sorted(gauges)));
  }
}

export async function pruneCapacitySamples(pool: pg.Pool, olderThan: Date): Promise<number> {
  const result = await pool.query("DELETE FROM capacity_samples WHERE minute < $1", [olderThan]);
  return result.rowCount ?? 0;
}

export interface SeriesPoint {
  metric: string;
  subject: string;
  at: Date;
  /** Sum of counts, or the largest gauge value, over the bucket. */
  value: number;
}

/** Samples of the given metrics since `from`, in buckets of `bucketSeconds`, summed or maxed. */
export async function capacitySeries(pool: pg.Pool, query: { metrics: string[]; from: Date; bucketSeconds: number; aggregate: "sum" | "max" }): Promise<SeriesPoint[]> {
  const aggregate = query.aggregate === "sum" ? "sum(value)" : "max(value)";
  const { rows } = await pool.query<SeriesPoint>(
    `SELECT metric, subject, to_timestamp(floor(extract(epoch FROM minute) / $3) * $3) AS at, ${aggregate} AS value
       FROM capacity_samples WHERE metric = ANY($1::text[]) AND minute >= $2
      GROUP BY metric, subject, at ORDER BY at, metric, subject`,
    [query.metrics, query.from, query.bucketSeconds],
  );
  return rows;
}

/** Totals per metric and subject since `from` (refusals per limit over the last 24 hours). */
export async function capacityTotals(pool: pg.Pool, metrics: string[], from: Date): Promise<Array<{ metric: string; subject: string; value: number }>> {
  const { rows } = await pool.query<{ metric: string; subject: string; value: number }>(
    `SELECT metric, subject, sum(value) AS value FROM capacity_samples WHERE metric = ANY($1::text[]) AND minute >= $2 GROUP BY metric, subject ORDER BY value DESC`,
    [metrics, from],
  );
  return rows;
}

export interface DailyUse {
  subject: string;
  /** The account's name when the subject is an account id. */
  name: string | null;
  count: number;
}

/** The largest daily counters of one scope for a day, with the scope's total. */
export async function topDailyCounters(pool: pg.Pool, scope: string, day: Date, top: number): Promise<{ total: number; subjects: number; top: DailyUse[] }> {
  const [totals, leaders] = await Promise.all([
    pool.query<{ total: number; subjects: number }>(`SELECT coalesce(sum(count), 0)::int AS total, count(*)::int AS subjects FROM daily_counters WHERE scope = $1 AND day = $2::date`, [scope, day]),
    pool.query<DailyUse>(
      `SELECT c.subject, a.name, c.count FROM daily_counters c LEFT JOIN agents a ON a.id::text = c.subject
        WHERE c.scope = $1 AND c.day = $2::date ORDER BY c.count DESC, c.subject LIMIT $3`,
      [scope, day, top],
    ),
  ]);
  return { total: totals.rows[0]?.total ?? 0, subjects: totals.rows[0]?.subjects ?? 0, top: leaders.rows };
}

/** Revisions per review state, and those that expired since `since`. */
export async function showcaseQueueCounts(pool: pg.Pool, since: Date): Promise<{ checking: number; awaiting_votes: number; auto_review: number; expired_today: number }> {
  const { rows } = await pool.query<{ checking: number; awaiting_votes: number; auto_review: number; expired_today: number }>(
    `SELECT count(*) FILTER (WHERE state = 'checking')::int AS checking,
            count(*) FILTER (WHERE state = 'awaiting_votes')::int AS awaiting_votes,
            count(*) FILTER (WHERE state = 'auto_review')::int AS auto_review,
            count(*) FILTER (WHERE state = 'expired' AND state_entered_at >= $1)::int AS expired_today
       FROM showcase_revisions WHERE state IN ('checking', 'awaiting_votes', 'auto_review') OR (state = 'expired' AND state_entered_at >= $1)`,
    [since],
  );
  return rows[0]!;
}

/** The job runner's backlog: waiting or running, waiting to retry after a failure, and given up. */
export async function jobQueueHealth(pool: pg.Pool, schema: string): Promise<{ queued: number; retrying: number; failed: number }> {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`jobQueueHealth: '${schema}' is not a plain schema name`);
  const { rows } = await pool.query<{ queued: number; retrying: number; failed: number }>(
    `SELECT count(*) FILTER (WHERE attempts = 0 OR (attempts < max_attempts AND last_error IS NULL))::int AS queued,
            count(*) FILTER (WHERE attempts > 0 AND attempts < max_attempts AND last_error IS NOT NULL)::int AS retrying,
            count(*) FILTER (WHERE attempts >= max_attempts)::int AS failed
       FROM "${schema}".jobs`,
  );
  return rows[0]!;
}

/** Live agent accounts an admin linked to the moderator or admin role, with their key hashes: reserved admission (§8 names moderators; a viewer link gives none). */
export async function operatorLinkedAgents(pool: pg.Pool): Promise<Array<{ agentId: string; apiKeyHash: string }>> {
  const { rows } = await pool.query<{ agentId: string; apiKeyHash: string }>(
    `SELECT a.id AS "agentId", a.api_key_hash AS "apiKeyHash"
       FROM operator_agent_links l JOIN agents a ON a.id = l.agent_id
      WHERE a.revoked_at IS NULL AND l.role <> 'viewer'`,
  );
  return rows;
}

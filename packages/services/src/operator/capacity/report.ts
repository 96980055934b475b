import { availableTokens, configurableLimits, utcDayStart, type Limits } from "@board/domain";
import { capacitySeries, capacityTotals, countAgents, countRetainedMessages, jobQueueHealth, readCapacityBucket, showcaseQueueCounts, topDailyCounters, type DailyUse, type Database } from "@board/db";
import { GUEST_REVIEWS_COUNTER, POSTS_COUNTER, VOTES_COUNTER } from "../../counters";
import type { OperatorActor, ServiceDeps } from "../../deps";
import { authorizeOperator } from "../authorize";
import { capacityMetrics, type CapacityMeter } from "./capacity-meter";

/** Daily counter scopes the dashboard reads (the services that count them own the names). */
const DAILY_SCOPES = {
  postsPerAccount: POSTS_COUNTER,
  postsPerNetwork: "network-posts",
  registrationsPerNetwork: "registrations",
  votesPerAccount: VOTES_COUNTER,
  guestCommentsPerNetwork: "guest_comments_network",
  guestReviews: GUEST_REVIEWS_COUNTER,
} as const;

export interface PoolUse {
  size: number;
  busy: number;
  waiting: number;
}

export interface DailyLimitUse {
  limit: number;
  /** Sum over every account or network today. */
  total: number;
  /** Accounts or networks that used any of it today. */
  subjects: number;
  top: DailyUse[];
}

export interface CapacityReport {
  generated_at: string;
  retention: { accounts: { used: number; limit: number }; posts: { used: number; limit: number } };
  publication: { tokens_available: number; burst: number; rate_per_second: number };
  daily: {
    posts_per_account: DailyLimitUse;
    posts_per_network: DailyLimitUse;
    registrations_per_network: DailyLimitUse;
    votes_per_account: DailyLimitUse;
  };
  edge: Array<{ policy: string; label: string; points: number; window_seconds: number; top: Array<{ key: string; used: number }> }>;
  showcase: { checking: number; awaiting_votes: number; auto_review: number; expired_today: number };
  guest: { comments_today: number; reviews_today: number; reviews_per_day: number };
  jobs: { queued: number; retrying: number; failed: number };
  database: { shared: PoolUse; reserved: PoolUse; shed_when_waiting: number };
  /** Calls refused in the last 24 hours, per status and limit, most first. */
  refusals_24h: Array<{ status: 429 | 503; limit: string; count: number }>;
}

const EDGE_LABELS: Record<string, string> = {
  network: `${configurableLimits.credentialCallsPerMinutePerNetwork.label} (per minute)`,
  credential: `${configurableLimits.callsPerMinutePerCredential.label} (per minute)`,
  writes: `${configurableLimits.writesPerMinutePerNetwork.label} (per minute)`,
  registration: `${configurableLimits.registrationAttemptsPerMinutePerNetwork.label} (per minute)`,
  ceiling: `${configurableLimits.authenticatedCallsPerMinute.label} (per minute)`,
  "public-reads": `${configurableLimits.showcasePublicReadsPerMinutePerNetwork.label} (per minute)`,
  reserved: `${configurableLimits.reservedCallsPerMinutePerCredential.label}`,
};

function poolUse(pool: Database["pool"]): PoolUse {
  return { size: pool.options.max ?? 0, busy: pool.totalCount - pool.idleCount, waiting: pool.waitingCount };
}

/**
 * Use against every §8 limit right now. The console passes the operators' deps (the reserved
 * pool), so the dashboard answers while agent traffic saturates the shared one. Edge windows are this instance's view (its own counts
 * plus the shared totals it last received).
 */
export async function capacityReport(deps: ServiceDeps, top = 10): Promise<CapacityReport> {
  const now = deps.clock();
  const day = utcDayStart(now);
  const limits: Limits = deps.limits;
  const pool = deps.db.pool;
  const daily = (scope: string) => topDailyCounters(pool, scope, day, top);
  const [accounts, posts, bucket, postsPerAccount, postsPerNetwork, registrations, votes, guestComments, guestReviews, showcase, jobs, refusals] = await Promise.all([
    countAgents(deps.db.prisma),
    countRetainedMessages(deps.db.prisma),
    readCapacityBucket(deps.db.prisma, deps.capacityBucket),
    daily(DAILY_SCOPES.postsPerAccount),
    daily(DAILY_SCOPES.postsPerNetwork),
    daily(DAILY_SCOPES.registrationsPerNetwork),
    daily(DAILY_SCOPES.votesPerAccount),
    daily(DAILY_SCOPES.guestCommentsPerNetwork),
    daily(DAILY_SCOPES.guestReviews),
    showcaseQueueCounts(pool, day),
    jobQueueHealth(pool, deps.showcase.jobQueue.name),
    capacityTotals(pool, [capacityMetrics.refused429, capacityMetrics.refused503], new Date(now.getTime() - 86_400_000)),
  ]);
  const withLimit = (use: Omit<DailyLimitUse, "limit">, limit: number): DailyLimitUse => ({ limit, ...use });
  return {
    generated_at: now.toISOString(),
    retention: { accounts: { used: accounts, limit: limits.retainedAccounts }, posts: { used: posts, limit: limits.retainedMessages } },
    publication: {
      tokens_available: Math.floor(availableTokens(bucket, { ratePerSecond: limits.boardCapacityPerSecond, burst: limits.boardCapacityBurst }, now)),
      burst: limits.boardCapacityBurst,
      rate_per_second: limits.boardCapacityPerSecond,
    },
    daily: {
      posts_per_account: withLimit(postsPerAccount, limits.postsPerAccountPerDay),
      posts_per_network: withLimit(postsPerNetwork, limits.postsPerNetworkPerDay),
      registrations_per_network: withLimit(registrations, limits.registrationsPerNetworkPerDay),
      votes_per_account: withLimit(votes, limits.votesPerAccountPerDay),
    },
    edge: deps.capacity.edgeUse(top).map((window) => ({ policy: window.policy, label: EDGE_LABELS[window.policy] ?? window.policy, points: window.points, window_seconds: window.windowSeconds, top: window.top })),
    showcase,
    guest: { comments_today: guestComments.total, reviews_today: guestReviews.total, reviews_per_day: limits.guestReviewsPerDay },
    jobs,
    database: { shared: poolUse(deps.capacity.pools.shared), reserved: poolUse(deps.capacity.pools.reserved), shed_when_waiting: limits.databaseQueueShedDepth },
    refusals_24h: refusals.map((row) => ({ status: row.metric === capacityMetrics.refused429 ? 429 : 503, limit: row.subject, count: row.value })),
  };
}

export type CapacityRange = "24h" | "7d";

export interface CapacityChart {
  id: string;
  title: string;
  unit: string;
  bucket_seconds: number;
  /** One line per subject; every line has a value for every bucket (0 where nothing was recorded). */
  buckets: string[];
  lines: Array<{ name: string; values: number[] }>;
}

const RANGES: Record<CapacityRange, { spanMs: number; bucketSeconds: number }> = {
  "24h": { spanMs: 86_400_000, bucketSeconds: 900 },
  "7d": { spanMs: 7 * 86_400_000, bucketSeconds: 3_600 },
};

const CHARTS: Array<{ id: string; title: string; unit: string; metric: string; aggregate: "sum" | "max"; subjects?: (subject: string) => boolean }> = [
  { id: "admitted", title: "Calls admitted", unit: "calls", metric: capacityMetrics.admitted, aggregate: "sum" },
  { id: "refused-429", title: "Calls refused with 429, per limit", unit: "calls", metric: capacityMetrics.refused429, aggregate: "sum" },
  { id: "refused-503", title: "Calls refused with 503, per cause", unit: "calls", metric: capacityMetrics.refused503, aggregate: "sum" },
  { id: "retention", title: "Retained accounts and posts", unit: "rows", metric: capacityMetrics.gauge, aggregate: "max", subjects: (s) => s.startsWith("retained_") },
  { id: "queues", title: "Showcase queues and job runner", unit: "items", metric: capacityMetrics.gauge, aggregate: "max", subjects: (s) => s.startsWith("showcase_") || s.startsWith("jobs_") },
  { id: "edge", title: "Busiest key of each edge window", unit: "calls/min", metric: capacityMetrics.gauge, aggregate: "max", subjects: (s) => s.startsWith("edge_") },
  { id: "publication", title: "Publication bucket tokens", unit: "tokens", metric: capacityMetrics.gauge, aggregate: "max", subjects: (s) => s === "publication_tokens" },
];

/** The dashboard's charts over 24 hours (15-minute buckets) or 7 days (hourly buckets). */
export async function capacityCharts(deps: ServiceDeps, range: CapacityRange): Promise<CapacityChart[]> {
  const { spanMs, bucketSeconds } = RANGES[range];
  const now = deps.clock().getTime();
  const bucketMs = bucketSeconds * 1000;
  const first = Math.floor((now - spanMs) / bucketMs) * bucketMs + bucketMs;
  const buckets: number[] = [];
  for (let at = first; at <= now; at += bucketMs) buckets.push(at);
  const from = new Date(first);
  const [sums, maxima] = await Promise.all([
    capacitySeries(deps.db.pool, { metrics: [capacityMetrics.admitted, capacityMetrics.refused429, capacityMetrics.refused503], from, bucketSeconds, aggregate: "sum" }),
    capacitySeries(deps.db.pool, { metrics: [capacityMetrics.gauge], from, bucketSeconds, aggregate: "max" }),
  ]);
  return CHARTS.map((chart) => {
    const points = (chart.aggregate === "sum" ? sums : maxima).filter((p) => p.metric === chart.metric && (chart.subjects?.(p.subject) ?? true));
    const lines = new Map<string, number[]>();
    for (const point of points) {
      const index = buckets.indexOf(point.at.getTime());
      if (index < 0) continue;
      const values = lines.get(point.subject) ?? buckets.map(() => 0);
      values[index] = point.value;
      lines.set(point.subject, values);
    }
    return {
      id: chart.id,
      title: chart.title,
      unit: chart.unit,
      bucket_seconds: bucketSeconds,
      buckets: buckets.map((at) => new Date(at).toISOString()),
      lines: [...lines].sort(([a], [b]) => a.localeCompare(b)).map(([name, values]) => ({ name, values })),
    };
  });
}

/** The minute's gauges: retained totals, the publication bucket, queues, the job runner and the edge's busiest keys. */
export async function sampleCapacityGauges(deps: ServiceDeps, meter: CapacityMeter, now: Date): Promise<void> {
  const pool = deps.db.pool;
  const [accounts, posts, bucket, showcase, jobs] = await Promise.all([
    countAgents(deps.db.prisma),
    countRetainedMessages(deps.db.prisma),
    readCapacityBucket(deps.db.prisma, deps.capacityBucket),
    showcaseQueueCounts(pool, utcDayStart(now)),
    jobQueueHealth(pool, deps.showcase.jobQueue.name),
  ]);
  meter.gauge("retained_accounts", accounts);
  meter.gauge("retained_posts", posts);
  meter.gauge("publication_tokens", Math.floor(availableTokens(bucket, { ratePerSecond: deps.limits.boardCapacityPerSecond, burst: deps.limits.boardCapacityBurst }, now)));
  for (const [state, count] of Object.entries(showcase)) meter.gauge(`showcase_${state}`, count);
  for (const [state, count] of Object.entries(jobs)) meter.gauge(`jobs_${state}`, count);
  for (const window of deps.capacity.edgeUse(1)) meter.gauge(`edge_${window.policy}`, window.top[0]?.used ?? 0);
}

/** The dashboard: use against every limit now and the charts of one range; any operator role may read it. */
export async function readCapacityDashboard(deps: ServiceDeps, actor: OperatorActor, range: CapacityRange): Promise<{ report: CapacityReport; charts: CapacityChart[] }> {
  await authorizeOperator(deps.db.prisma, actor, "dashboard.read");
  const [report, charts] = await Promise.all([capacityReport(deps), capacityCharts(deps, range)]);
  return { report, charts };
}

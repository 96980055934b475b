import { randomUUID } from "node:crypto";
import type { App } from "@board/api";
import { loadConfig, startBoard, type AppConfig, type RunningBoard } from "@board/app";
import { webContext, type WebContext } from "@board/app/web-context";
import type { AuthorizationServer } from "@board/oauth";
import type { CaptchaVerifier, ContentChecker } from "@board/services";
import { defaultLimits, type Limits } from "@board/domain";
import { inject } from "vitest";
import { provisionDatabase } from "@board/db/cli";
import "./provided";

export interface TestServer {
  baseUrl: string;
  /** The database it serves (another server started with `database` shares it). */
  databaseUrl: string;
  app: App;
  board: RunningBoard;
  /** Runs every job that is due now in this server's queue (with `jobs: "manual"`). */
  runJobs(): Promise<void>;
  /** Present with `oauth: true`: the authorization server, /mcp and OAuth on the /v1 routes. */
  oauth: AuthorizationServer | null;
  close(): Promise<void>;
}

/** Limits high enough that unrelated tests never throttle each other; tests of a limit lower it. */
export const roomyLimits: Limits = {
  ...defaultLimits,
  credentialCallsPerMinutePerNetwork: 100_000,
  callsPerMinutePerCredential: 100_000,
  // One counter for the whole test run's traffic (every server shares the store).
  authenticatedCallsPerMinute: 100_000_000,
  databaseQueueShedDepth: 100_000,
  writesPerMinutePerNetwork: 100_000,
  registrationAttemptsPerMinutePerNetwork: 100_000,
  registrationsPerNetworkPerDay: 100_000,
  postsPerNetworkPerDay: 100_000,
  retainedAccounts: 1_000_000,
  retainedMessages: 1_000_000,
  boardCapacityBurst: 100_000,
  boardCapacityPerSecond: 1_000,
};

export interface TestServerOptions {
  limits?: Partial<Limits>;
  clock?: () => Date;
  isolatedCapacity?: boolean;
  oauth?: boolean;
  /** Rate-limit store; PostgreSQL when absent. */
  redisUrl?: string;
  /**
   * A freshly migrated database of its own, dropped on close, for tests of board-wide state
   * (the retention cap, the write order) that other test files writing concurrently would disturb.
   */
  ownDatabase?: boolean;
  /** Serve this database (another test server's `databaseUrl`) instead of the run's or an own one. */
  database?: string;
  /**
   * Pool sizes, the reload and flush intervals of the operator console's machinery, and the cache
   * invalidation channel (each server has its own unless a test shares one between two servers).
   */
  config?: Partial<Pick<AppConfig, "dbPoolSize" | "reservedDbPoolSize" | "limitsReloadMs" | "capacityFlushMs" | "cacheChannel">>;
  /** Lifetime of read-cache entries (BOARD_FEED_CACHE_MS); 1 s when absent. */
  cacheMs?: number;
  /**
   * "manual" (default): jobs wait in this server's own queue schema until `runJobs()` runs every
   * job that is due; "run": the real job runner works in the background, as in production.
   */
  jobs?: "manual" | "run";
  checker?: ContentChecker;
  /** Collects every log line at `debug` level here instead of discarding them. */
  logLines?: string[];
  /** Opens guest comments with this CAPTCHA verifier (a local siteverify server in tests). */
  captcha?: CaptchaVerifier;
  /** When grace mode started; 30 days before now when absent, so standard mode applies. */
  showcaseActivatedAt?: Date;
  /**
   * false: responses pass through unchecked, as in production. The setting is process-wide: the
   * test must restore it (checkResponses(true)) before any other server answers.
   */
  checkResponses?: boolean;
}

/**
 * The real app over real HTTP on a random port, against the run's database. Clients pick their
 * network with X-Forwarded-For (one trusted proxy hop), so per-network limits stay per test.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const own = options.ownDatabase ? await provisionDatabase(inject("databaseUrl"), "board_test_own") : null;
  const databaseUrl = options.database ?? own?.url ?? inject("databaseUrl");
  const config = loadConfig({ DATABASE_URL: databaseUrl, REDIS_URL: options.redisUrl, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: options.logLines ? "debug" : "silent", BOARD_TRUSTED_PROXY_HOPS: "1" });
  config.limits = { ...roomyLimits, ...options.limits };
  // Test servers share the run's database: on one channel, each would drop the others' cache entries.
  config.cacheChannel = `cache_${randomUUID().replace(/-/g, "")}`;
  Object.assign(config, options.config);
  if (options.cacheMs !== undefined) config.feedCacheMs = options.cacheMs;
  config.jobsSchema = `jobs_${randomUUID().replace(/-/g, "").slice(0, 16)}`;
  config.runJobs = options.jobs === "run";
  config.showcaseActivatedAt = options.showcaseActivatedAt ?? new Date(Date.now() - 30 * 86_400_000);
  if (options.checkResponses !== undefined) config.checkResponses = options.checkResponses;
  const board = await startBoard(config, {
    clock: options.clock,
    capacityBucket: options.isolatedCapacity ? `test-${randomUUID()}` : undefined,
    oauth: options.oauth === true,
    checker: options.checker,
    captcha: options.captcha,
    logDestination: options.logLines ? { write: (line: string) => void options.logLines!.push(line) } : undefined,
  });
  const close = async () => {
    await board.shutdown(1_000);
    await own?.drop();
  };
  return { baseUrl: board.config.publicUrl, databaseUrl, app: board.app, board, oauth: board.oauth, runJobs: () => board.jobs.drain(), close };
}

/** What the website and the console of the test server started last in this process call (the services bound by the composition root). */
export function publishedWebContext(): WebContext {
  return webContext();
}

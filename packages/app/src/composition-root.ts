import { randomUUID } from "node:crypto";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import { createApp, createLogger, createNodeServer, sharedCountersFor, WindowLimiters, type App, type FallbackHandler, type Logger, type NodeHandler } from "@board/api";
import { deploymentSetting, NOTIFY_PAYLOAD_LIMIT_BYTES, openDatabase, openNotificationChannel, type Database, type JobQueueSchema, type NotificationChannel } from "@board/db";
import type { AuthorizationServer } from "@board/oauth";
import {
  applyPeerInvalidation,
  bootstrapFirstAdmin,
  encodePeerInvalidation,
  combineCheckers,
  hcaptchaVerifier,
  httpContentChecker,
  guestCommentsOpen,
  publicArticleStanding,
  readPreview,
  readPublicArticle,
  readPublicComments,
  readPublicFeed,
  CapacityMeter,
  ReservedAdmission,
  RuntimeLimits,
  sampleCapacityGauges,
  BOARD_CRONTAB,
  boardJobHandlers,
  TaggedCache,
  threadedContentWorker,
  type CaptchaVerifier,
  type ContentChecker,
  type CapacityDeps,
  type ContentWorker,
  type ServiceDeps,
} from "@board/services";
import { Redis } from "ioredis";
import { publishOperatorAuthUrl, type AppConfig } from "./config";
import { createJobQueue, jobQueueSchema, type JobQueue } from "./jobs";
import { mountOAuthAndMcp, type MountedOAuth } from "./mcp-wiring";
import { operatorConsole } from "./operator-console";
import { publishWebContext } from "./web-context";

export interface StartOptions {
  /** Tests inject a clock; production runs on the wall clock. */
  clock?: () => Date;
  /** Row of the board-wide publication bucket (tests may isolate theirs). */
  capacityBucket?: string;
  /** Everything that is not an API surface: the Next.js site. */
  fallback?: FallbackHandler;
  /** The OAuth authorization server, /mcp and OAuth tokens on /v1 (on unless false). */
  oauth?: boolean;
  /** Replaces the configured content checker (tests drive verdicts with it). */
  checker?: ContentChecker;
  /** Where log lines go (stdout when absent); tests read them to check that no secret is written. */
  logDestination?: { write(line: string): void };
  /** Tests verify guest CAPTCHA answers against a local verifier. */
  captcha?: CaptchaVerifier;
}

export interface RunningBoard {
  /** The configuration as served: `publicUrl` is the listening address when the port was 0. */
  config: AppConfig;
  deps: ServiceDeps;
  /** The services on the operators' reserved pool (the console and operator-linked credentials). */
  reservedDeps: ServiceDeps;
  logger: Logger;
  app: App;
  server: http.Server;
  oauth: AuthorizationServer | null;
  jobs: JobQueue;
  /** Stops in reverse start order: HTTP (in-flight requests finish within the grace), limiters, Redis, the database. */
  shutdown(graceMs?: number): Promise<void>;
}

/**
 * The composition root: the one place a process opens the database and Redis, builds the limiters,
 * the read cache and `ServiceDeps`, and starts and stops every surface. `npm start`, the tests and
 * the benchmark all start the board through here, so they run the production wiring.
 */
export async function startBoard(config: AppConfig, options: StartOptions = {}): Promise<RunningBoard> {
  const logger = createLogger(config.logLevel, options.logDestination);
  const dbTimeouts = { connectionTimeoutMillis: config.dbConnectTimeoutMs, statementTimeoutMillis: config.dbStatementTimeoutMs, refuseNestedConnections: config.refuseNestedConnections };
  const db = openDatabase(config.databaseUrl, { poolSize: config.dbPoolSize, ...dbTimeouts });
  const reservedDb = openDatabase(config.databaseUrl, { poolSize: config.reservedDbPoolSize, ...dbTimeouts });
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2_000 }) : null;
  redis?.on("error", (err) => logger.warn({ err: err.message }, "redis error"));
  const limiters = new WindowLimiters(sharedCountersFor(redis ? { kind: "redis", client: redis } : { kind: "postgres", pool: db.pool }), {
    syncMs: config.limiterSyncMs,
    onStoreChange: (reachable, error) =>
      reachable
        ? logger.info("rate-limit store answers again; limits are shared across instances")
        : logger.warn({ err: error?.message }, "rate-limit store unreachable; each instance enforces the limits on its own count until it answers"),
  });
  const clock = options.clock ?? (() => new Date());
  const capacity = capacityParts(config, db, reservedDb, limiters, logger);
  const { deps, content } = buildServiceDeps(config, db, clock, options, capacity, jobQueueSchema(db.pool, config.jobsSchema, logger));
  const reservedDeps: ServiceDeps = { ...deps, db: reservedDb };
  const cachePeers = shareCacheInvalidations(config, deps, logger);
  try {
    // Serving starts with the limits in force; the database may still be down (then the configured ones apply).
    // The showcase's activation is read (or recorded) now, not first inside a request's transaction.
    await Promise.all([capacity.runtimeLimits.reload(), capacity.reserved.reload(), deps.showcase.activatedAt()]);
  } catch (error) {
    logger.error({ err: (error as Error).message }, "limits, operator-linked credentials or the showcase activation could not be read; configured limits apply until the database answers");
  }
  capacity.meter.setGaugeSampler((meter, now) => sampleCapacityGauges(reservedDeps, meter, now));
  capacity.runtimeLimits.start();
  capacity.reserved.start();
  capacity.meter.start();
  if (config.captcha?.customVerifier) logger.warn({ verifyUrl: config.captcha.verifyUrl }, "GUEST CAPTCHA USES A CUSTOM VERIFIER, NOT hCaptcha's: every answer it accepts is trusted");
  const jobs = createJobQueue({ pool: db.pool, queue: deps.showcase.jobQueue, handlers: boardJobHandlers(deps), crontab: BOARD_CRONTAB, logger });
  // Serving must not wait for the database: requests answer 503 until it is back, and the runner starts then.
  if (config.runJobs) await jobs.start();
  else await jobs.install().catch((error: Error) => logger.error({ err: error.message }, "the job queue's schema could not be installed; a process running the jobs installs it"));
  await bootstrapOperator(config, deps, logger);
  const app = createApp({ deps, reservedDeps, limiters, logger, trustedProxyHops: config.trustedProxyHops, checkResponses: config.checkResponses });
  const nodeHandlers: NodeHandler[] = [];
  const web = createNodeServer(app, options.fallback, nodeHandlers);

  const served = { ...config };
  let oauth: MountedOAuth | null = null;
  const mountOAuth = async () => {
    if (options.oauth === false) return;
    oauth = await mountOAuthAndMcp(app, nodeHandlers, { publicUrl: served.publicUrl, trustedProxyHops: served.trustedProxyHops, keyFile: served.oauthKeyFile });
  };
  // The OAuth issuer and the token audience are the public address: with port 0 it is known only after listen.
  if (served.port !== 0) await mountOAuth();
  await new Promise<void>((resolve) => web.server.listen(served.port, served.host, resolve));
  const { port } = web.server.address() as AddressInfo;
  if (served.port === 0) {
    served.publicUrl = `http://127.0.0.1:${port}`;
    deps.publicUrl = served.publicUrl;
    reservedDeps.publicUrl = served.publicUrl;
    await mountOAuth();
  }
  publishOperatorAuthUrl(served.publicUrl);
  publishWebContext({
    deps,
    config: served,
    operator: operatorConsole(deps, reservedDeps, served),
    showcase: {
      feed: (query) => readPublicFeed(deps, query),
      article: (id) => readPublicArticle(deps, id),
      comments: (id, query) => readPublicComments(deps, id, query),
      standing: (id) => publicArticleStanding(deps, id),
      preview: (token) => readPreview(deps, token),
      commentsOpen: () => guestCommentsOpen(deps),
    },
  });
  logger.info({ url: served.publicUrl, port, node: process.version }, "listening");

  let stopping: Promise<void> | null = null;
  return {
    config: served,
    deps,
    reservedDeps,
    logger,
    app,
    server: web.server,
    get oauth() {
      return oauth?.current() ?? null;
    },
    jobs,
    shutdown(graceMs = served.shutdownGraceMs) {
      stopping ??= (async () => {
        oauth?.stop();
        await web.shutdown(graceMs);
        await jobs.stop();
        await content.close();
        await cachePeers.close();
        await limiters.close();
        capacity.runtimeLimits.stop();
        capacity.reserved.stop();
        await capacity.meter.close();
        redis?.disconnect();
        await Promise.all([db.close(), reservedDb.close()]);
      })();
      return stopping;
    },
  };
}

/**
 * The read cache's invalidations, announced to and heard from the other instances serving this
 * database (PostgreSQL NOTIFY on `cacheChannel`). While the channel is down each instance falls
 * back on the entries' lifetime, and when it listens again it drops everything it cached meanwhile.
 */
function shareCacheInvalidations(config: AppConfig, deps: ServiceDeps, logger: Logger): NotificationChannel {
  const self = randomUUID();
  const channel = openNotificationChannel(deps.db.pool, config.databaseUrl, config.cacheChannel, {
    onMessage: (payload) => applyPeerInvalidation(deps.cache, self, payload),
    onListeningAgain: () => {
      deps.cache.clear();
      logger.info("hearing other instances' cache invalidations again; this instance's read cache was emptied");
    },
    onError: (error) => logger.warn({ err: error.message }, "cannot hear other instances' cache invalidations; their changes show here within BOARD_FEED_CACHE_MS until the channel is back"),
  }, { connectionTimeoutMillis: config.dbConnectTimeoutMs });
  deps.cache.announceInvalidationsTo((tags) => {
    channel.send(encodePeerInvalidation(self, tags, NOTIFY_PAYLOAD_LIMIT_BYTES)).catch((error: Error) =>
      logger.warn({ err: error.message }, "a cache invalidation could not be announced to other instances; they see the change within BOARD_FEED_CACHE_MS"),
    );
  });
  return channel;
}

type DepsOptions = Pick<StartOptions, "capacityBucket" | "checker" | "captcha">;

/**
 * Runtime limits, reserved admission and the capacity meter. Limits and reserved credentials are
 * read on the reserved pool, so they stay current while agents saturate the shared one.
 */
function capacityParts(config: AppConfig, db: Database, reservedDb: Database, limiters: WindowLimiters | null, logger: Logger): CapacityDeps {
  return {
    runtimeLimits: new RuntimeLimits(reservedDb.pool, config.limits, {
      reloadMs: config.limitsReloadMs,
      onReloadError: (error) => logger.warn({ err: error.message }, "limits could not be reloaded; the previous values stay in force"),
    }),
    reserved: new ReservedAdmission(reservedDb.pool, {
      reloadMs: config.limitsReloadMs,
      onReloadError: (error) => logger.warn({ err: error.message }, "operator-linked credentials could not be reloaded; the previous set stays in force"),
    }),
    meter: new CapacityMeter(db.pool, {
      flushMs: config.capacityFlushMs,
      onError: (error) => logger.warn({ err: error.message }, "capacity figures could not be written; they are kept for the next flush"),
    }),
    edgeUse: (top) => limiters?.busiest(top) ?? [],
    pools: { shared: db.pool, reserved: reservedDb.pool },
  };
}

function buildServiceDeps(
  config: AppConfig,
  db: Database,
  clock: () => Date,
  options: DepsOptions,
  capacity: CapacityDeps,
  jobQueue: JobQueueSchema,
  content: ContentWorker = threadedContentWorker(config.admissionThreads, config.contentWorkerNiceness)) {
  const deps: ServiceDeps = {
    db,
    limits: capacity.runtimeLimits.current,
    clock,
    publicUrl: config.publicUrl,
    capacityBucket: options.capacityBucket ?? "named-board",
    cache: new TaggedCache(config.feedCacheMs, clock),
    showcase: {
      content,
      checker: options.checker ?? contentChecker(config, content.localChecker),
      activatedAt: showcaseActivation(db, config, clock),
      jobQueue,
      captcha: options.captcha ?? (config.captcha ? hcaptchaVerifier(config.captcha) : null),
    },
    capacity,
  };
  return { deps, content };
}

/**
 * The services without any server: for command-line tools (pnpm operator:*) that act through the
 * same use cases as the console. Close it when done.
 */
export async function openServices(config: AppConfig): Promise<{ deps: ServiceDeps; close(): Promise<void> }> {
  const db = openDatabase(config.databaseUrl, { poolSize: 2 });
  const logger = createLogger(config.logLevel);
  const capacity = capacityParts(config, db, db, null, logger);
  const jobQueue = jobQueueSchema(db.pool, config.jobsSchema, logger);
  // Some operator actions queue jobs (an unrestricted author's articles are checked again).
  await Promise.all([capacity.runtimeLimits.reload(), jobQueue.install()]);
  const { deps, content } = buildServiceDeps(config, db, () => new Date(), {}, capacity, jobQueue, lazyContentWorker(config.admissionThreads, config.contentWorkerNiceness));
  return {
    deps,
    async close() {
      await content.close();
      await db.close();
    },
  };
}

/** Worker threads started on first use: a command-line tool that checks no content starts none. */
function lazyContentWorker(threads: number, niceness: number): ContentWorker {
  let worker: ContentWorker | null = null;
  const started = () => (worker ??= threadedContentWorker(threads, niceness));
  return {
    admit: (...args) => started().admit(...args),
    detectLanguage: (texts) => started().detectLanguage(texts),
    inspect: (json, keepContent) => started().inspect(json, keepContent),
    canonicalText: (json) => started().canonicalText(json),
    localChecker: { check: (input) => started().localChecker.check(input) },
    close: async () => {
      await worker?.close();
    },
  };
}

/** OPERATOR_BOOTSTRAP_*: the first admin when there is no operator; a failure is logged, not fatal (the CLI can create one). */
async function bootstrapOperator(config: AppConfig, deps: ServiceDeps, logger: Logger): Promise<void> {
  if (!config.operatorBootstrap) return;
  try {
    const { created } = await bootstrapFirstAdmin(deps, config.operatorBootstrap);
    if (created) logger.info({ email: config.operatorBootstrap.email.toLowerCase() }, "created the first operator (admin) from OPERATOR_BOOTSTRAP_EMAIL");
  } catch (error) {
    logger.error({ err: (error as Error).message }, "could not create the first operator from OPERATOR_BOOTSTRAP_EMAIL; create one with pnpm operator:create");
  }
}

function contentChecker(config: AppConfig, local: ContentChecker): ContentChecker {
  return config.moderation ? combineCheckers([local, httpContentChecker(config.moderation)]) : local;
}

/**
 * The showcase's activation time starts grace mode: configured, or recorded by the first process
 * that asks (every later process and restart reads the same row).
 */
function showcaseActivation(db: Database, config: AppConfig, clock: () => Date): () => Promise<Date> {
  let recorded: Promise<Date> | null = config.showcaseActivatedAt ? Promise.resolve(config.showcaseActivatedAt) : null;
  return () => {
    recorded ??= deploymentSetting(db.prisma, "showcase_activated_at", clock().toISOString()).then((value) => new Date(value));
    recorded.catch(() => (recorded = null));
    return recorded;
  };
}

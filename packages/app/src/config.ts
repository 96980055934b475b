import { CONTRACT_LIMITS, defaultLimits, type Limits } from "@board/domain";
import { OFFICIAL_HCAPTCHA_SCRIPT_URL, OFFICIAL_HCAPTCHA_VERIFY_URL } from "@board/services";

export type Environment = Record<string, string | undefined>;

/**
 * Everything a process is configured with, read from the environment in this one place; the
 * composition root hands each part to whatever needs it.
 */
export interface AppConfig {
  port: number;
  host: string;
  publicUrl: string;
  databaseUrl: string;
  redisUrl: string | null;
  /** How many reverse proxies in front of the app append to X-Forwarded-For; 0 trusts only the socket. */
  trustedProxyHops: number;
  limits: Limits;
  logLevel: string;
  shutdownGraceMs: number;
  /**
   * How long a read-cache entry lives: the longest another instance's change may take to show here
   * when its announcement was not heard (see cacheChannel).
   */
  feedCacheMs: number;
  /** The PostgreSQL NOTIFY channel on which the instances serving one database announce their cache invalidations. */
  cacheChannel: string;
  /** How often each instance sends its rate-limit counts to the shared store. */
  limiterSyncMs: number;
  /** Whether every response is checked against its contract at run time (see responseContract). */
  checkResponses: boolean;
  /** Refuse pool connections asked for inside a transaction (see DatabaseOptions); on outside production. */
  refuseNestedConnections: boolean;
  /** PostgreSQL connections per process. */
  dbPoolSize: number;
  /** How long a request waits for a database connection before it answers 503. */
  dbConnectTimeoutMs: number;
  /** The longest a statement may run (PostgreSQL statement_timeout); longer ones answer 503. */
  dbStatementTimeoutMs: number;
  /** Connections per process kept for operators: the console and operator-linked credentials (§8 reserved admission). */
  reservedDbPoolSize: number;
  /** How often each instance reads the limits admins changed (and the operator-linked credentials). */
  limitsReloadMs: number;
  /** How often each instance adds its capacity counts to PostgreSQL. */
  capacityFlushMs: number;
  /** A private JWK set file for the OAuth signing key instead of the database row. */
  oauthKeyFile: string | null;
  /** Serves the SVG runtime playground page (/playground/svg). */
  playground: boolean;
  /** PostgreSQL schema of the job queue (graphile-worker). */
  jobsSchema: string;
  /** Run the job runner in this process (one runner per deployment is enough; several are safe). */
  runJobs: boolean;
  /** Worker threads for SVG admission. */
  admissionThreads: number;
  /** Nice value of those threads on Linux (0-19), so the event loop gets a core before them. */
  contentWorkerNiceness: number;
  /** Overrides the recorded showcase activation time (grace mode starts then). */
  showcaseActivatedAt: Date | null;
  /** An external moderation service checked next to the local checker. */
  moderation: { url: string; token: string | null; timeoutMs: number } | null;
  /** hCaptcha for guest comments; without it guest comments are closed. */
  captcha: { siteKey: string; secret: string; verifyUrl: string; scriptUrl: string; customVerifier: boolean } | null;
  /**
   * Signs and encrypts operator console sessions and their CSRF tokens. When unset, a random secret
   * is generated once and kept in the database (every instance reads the same row), so no secret is
   * ever built in; set it to rotate the secret, which ends every console session.
   */
  operatorSessionSecret: string | null;
  /** The first admin, created at start when no operator exists yet; never a default password. */
  operatorBootstrap: { email: string; password: string } | null;
}

function operatorBootstrapFromEnv(env: Environment): AppConfig["operatorBootstrap"] {
  const email = env.OPERATOR_BOOTSTRAP_EMAIL;
  const password = env.OPERATOR_BOOTSTRAP_PASSWORD;
  if (!email && !password) return null;
  if (!email || !password) throw new Error("Set both OPERATOR_BOOTSTRAP_EMAIL and OPERATOR_BOOTSTRAP_PASSWORD to create the first admin at start, or neither (then use pnpm operator:create).");
  return { email, password };
}

const MIN_OPERATOR_SECRET_LENGTH = 32;

function operatorSecretFromEnv(env: Environment): string | null {
  const secret = env.BOARD_OPERATOR_SESSION_SECRET;
  if (!secret) return null;
  if (secret.length < MIN_OPERATOR_SECRET_LENGTH) {
    throw new Error(`BOARD_OPERATOR_SESSION_SECRET must be at least ${MIN_OPERATOR_SECRET_LENGTH} characters (e.g. \`openssl rand -base64 32\`), got ${secret.length}.`);
  }
  return secret;
}

/**
 * next-auth (the console's sign-in) finds the site's address only in NEXTAUTH_URL; it is derived
 * from the public URL here, the one place the environment is touched, once the address is known.
 */
export function publishOperatorAuthUrl(publicUrl: string, env: Environment = process.env): void {
  env.NEXTAUTH_URL = `${publicUrl}/operator/auth`;
}

/**
 * hCaptcha settings. A verifier other than hCaptcha's own would accept any answer it likes, so it
 * is refused unless BOARD_HCAPTCHA_ALLOW_CUSTOM_VERIFIER=1 says it is meant (tests, a proxy).
 */
function captchaFromEnv(env: Environment): AppConfig["captcha"] {
  const siteKey = env.BOARD_HCAPTCHA_SITEKEY;
  const secret = env.BOARD_HCAPTCHA_SECRET;
  if (!siteKey && !secret) return null;
  if (!siteKey || !secret) throw new Error("Set both BOARD_HCAPTCHA_SITEKEY and BOARD_HCAPTCHA_SECRET to open guest comments, or neither to keep them closed.");
  const verifyUrl = env.BOARD_HCAPTCHA_VERIFY_URL || OFFICIAL_HCAPTCHA_VERIFY_URL;
  const customVerifier = verifyUrl !== OFFICIAL_HCAPTCHA_VERIFY_URL;
  if (customVerifier && env.BOARD_HCAPTCHA_ALLOW_CUSTOM_VERIFIER !== "1") {
    throw new Error(`BOARD_HCAPTCHA_VERIFY_URL is ${verifyUrl}, not hCaptcha's ${OFFICIAL_HCAPTCHA_VERIFY_URL}; set BOARD_HCAPTCHA_ALLOW_CUSTOM_VERIFIER=1 if that is intended.`);
  }
  return { siteKey, secret, verifyUrl, scriptUrl: env.BOARD_HCAPTCHA_SCRIPT_URL || OFFICIAL_HCAPTCHA_SCRIPT_URL, customVerifier };
}

function niceness(raw: string | undefined): number {
  if (raw === undefined || raw === "") return 10;
  if (!/^1?\d$/.test(raw)) throw new Error(`BOARD_CONTENT_WORKER_NICENESS must be a whole number from 0 to 19 (0 leaves the content threads at the process's priority), got "${raw}".`);
  return Number(raw);
}

function dateFromEnv(name: string, raw: string | undefined): Date | null {
  if (!raw) return null;
  const date = /^\d+$/.test(raw) ? new Date(Number(raw) * 1000) : new Date(raw);
  if (Number.isNaN(date.getTime())) throw new Error(`${name} must be an ISO 8601 time or Unix seconds, got '${raw}'.`);
  return date;
}

function channelName(raw: string | undefined): string {
  if (!raw) return "board_cache";
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(raw)) throw new Error(`BOARD_CACHE_CHANNEL must be a lower-case PostgreSQL identifier of at most 63 characters (letters, digits, _), got '${raw}'.`);
  return raw;
}

/**
 * BOARD_LIMIT_RETAINED_MESSAGES=100 overrides limits.retainedMessages, and so on for every limit
 * but those the published contract is built with, which refuse to start rather than half apply.
 */
export function limitsFromEnv(env: Environment): Limits {
  const limits: Limits = { ...defaultLimits };
  for (const key of Object.keys(defaultLimits) as Array<keyof Limits>) {
    const name = `BOARD_LIMIT_${key.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;
    const raw = env[name];
    if (raw === undefined || raw === "") continue;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got '${raw}'.`);
    if (CONTRACT_LIMITS.includes(key) && value !== defaultLimits[key]) {
      throw new Error(`${name} cannot be changed by a setting: requests are checked against the published API contract, built with ${defaultLimits[key]} (packages/domain/src/limits.ts); change it there and deploy a new contract.`);
    }
    limits[key] = value;
  }
  return limits;
}

export function loadConfig(env: Environment = process.env): AppConfig {
  const port = Number(env.PORT ?? 3000);
  if (!env.DATABASE_URL) throw new Error("DATABASE_URL is not set: the start script sets it to the embedded PostgreSQL when you have none.");
  return {
    port,
    host: env.HOST ?? "0.0.0.0",
    publicUrl: (env.BOARD_PUBLIC_URL ?? `http://127.0.0.1:${port}`).replace(/\/$/, ""),
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL || null,
    trustedProxyHops: Number(env.BOARD_TRUSTED_PROXY_HOPS ?? 0),
    limits: limitsFromEnv(env),
    logLevel: env.LOG_LEVEL ?? "info",
    shutdownGraceMs: Number(env.BOARD_SHUTDOWN_GRACE_MS ?? 10_000),
    feedCacheMs: Number(env.BOARD_FEED_CACHE_MS ?? 1_000),
    cacheChannel: channelName(env.BOARD_CACHE_CHANNEL),
    limiterSyncMs: Number(env.BOARD_LIMITER_SYNC_MS ?? 100),
    checkResponses: env.BOARD_CHECK_RESPONSES === undefined ? env.NODE_ENV !== "production" : env.BOARD_CHECK_RESPONSES === "1",
    refuseNestedConnections: env.BOARD_REFUSE_NESTED_CONNECTIONS === undefined ? env.NODE_ENV !== "production" : env.BOARD_REFUSE_NESTED_CONNECTIONS === "1",
    dbPoolSize: Number(env.BOARD_DB_POOL_SIZE ?? 20),
    dbConnectTimeoutMs: Number(env.BOARD_DB_CONNECT_TIMEOUT_MS ?? 3_000),
    dbStatementTimeoutMs: Number(env.BOARD_DB_STATEMENT_TIMEOUT_MS ?? 10_000),
    reservedDbPoolSize: Number(env.BOARD_RESERVED_DB_POOL_SIZE ?? 3),
    limitsReloadMs: Number(env.BOARD_LIMITS_RELOAD_MS ?? 2_000),
    capacityFlushMs: Number(env.BOARD_CAPACITY_FLUSH_MS ?? 10_000),
    oauthKeyFile: env.BOARD_OAUTH_KEY_FILE || null,
    playground: env.BOARD_PLAYGROUND === "1",
    jobsSchema: env.BOARD_JOBS_SCHEMA || "graphile_worker",
    runJobs: env.BOARD_RUN_JOBS !== "0",
    admissionThreads: Number(env.BOARD_ADMISSION_THREADS ?? 1),
    contentWorkerNiceness: niceness(env.BOARD_CONTENT_WORKER_NICENESS),
    showcaseActivatedAt: dateFromEnv("BOARD_SHOWCASE_ACTIVATED_AT", env.BOARD_SHOWCASE_ACTIVATED_AT),
    moderation: env.BOARD_MODERATION_URL
      ? { url: env.BOARD_MODERATION_URL, token: env.BOARD_MODERATION_TOKEN || null, timeoutMs: Number(env.BOARD_MODERATION_TIMEOUT_MS ?? 5_000) }
      : null,
    captcha: captchaFromEnv(env),
    operatorSessionSecret: operatorSecretFromEnv(env),
    operatorBootstrap: operatorBootstrapFromEnv(env),
  };
}

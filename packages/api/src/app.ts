import { openDatabase } from "@board/db";
import { FeedCache, type ServiceDeps } from "@board/services";
import { Redis } from "ioredis";
import type { AppConfig } from "./config";
import { errorsPage, referencePage } from "./docs";
import { createApiHandler, type ClientInfo } from "./handler";
import { jsonResponse, type GateRequest, type GateResponse } from "./http/exchange";
import { sharedCountersFor, WindowLimiters } from "./http/rate-limit";
import { createLogger } from "./logger";
import { buildOpenApiDocument } from "./openapi";
import { checkResponses, type AccessTokenVerifier } from "./trpc";

/** A surface that speaks Fetch (/mcp); returns null when the path is not its own. */
export type RequestHandler = (request: Request, client: ClientInfo) => Promise<Response | null>;

export interface AppOptions {
  clock?: () => Date;
}

export interface App {
  deps: ServiceDeps;
  logger: ReturnType<typeof createLogger>;
  /** The built-in paths and the API surfaces; null when the path is neither. */
  handle(request: GateRequest, client: ClientInfo): Promise<GateResponse | null>;
  /** Mounted Fetch surfaces, tried after `handle`; null when none takes the path. */
  handleMounted(request: Request, client: ClientInfo): Promise<Response | null>;
  readonly hasMounted: boolean;
  mount(handler: RequestHandler): void;
  setAccessTokenVerifier(verifier: AccessTokenVerifier, challenge: () => string): void;
  /** The gate's window limits, for surfaces mounted outside it (/mcp, OAuth). */
  guard: ReturnType<typeof createApiHandler>["guard"];
  close(): Promise<void>;
}

function htmlResponse(html: string): GateResponse {
  return { status: 200, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "public, max-age=300" }, body: html };
}

export function createApp(config: AppConfig, options: AppOptions = {}): App {
  checkResponses(config.checkResponses);
  const logger = createLogger(config.logLevel);
  const db = openDatabase(config.databaseUrl, { poolSize: Number(process.env.BOARD_DB_POOL_SIZE ?? 20) });
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: 2_000 }) : null;
  redis?.on("error", (err) => logger.warn({ err: err.message }, "redis error"));
  const limiters = new WindowLimiters(sharedCountersFor(redis ? { kind: "redis", client: redis } : { kind: "postgres", pool: db.pool }), {
    syncMs: config.limiterSyncMs,
    onStoreChange: (reachable, error) =>
      reachable
        ? logger.info("rate-limit store answers again; limits are shared across instances")
        : logger.warn({ err: error?.message }, "rate-limit store unreachable; each instance enforces the limits on its own count until it answers"),
  });
  const deps: ServiceDeps = { db, limits: config.limits, clock: options.clock ?? (() => new Date()), publicUrl: config.publicUrl, capacityBucket: "named-board", feedCache: new FeedCache(config.feedCacheMs) };
  const oauth: { verifier: AccessTokenVerifier | null; challenge: (() => string) | null } = { verifier: null, challenge: null };
  const gate = createApiHandler({
    deps,
    limiters,
    logger,
    trustedProxyHops: config.trustedProxyHops,
    verifyAccessToken: (token, network) => {
      if (!oauth.verifier) throw new Error("OAuth is not configured");
      return oauth.verifier(token, network);
    },
    oauthChallenge: () => oauth.challenge?.() ?? "Bearer",
  });
  const mounted: RequestHandler[] = [];
  let openApiDocument: ReturnType<typeof buildOpenApiDocument> | null = null;
  const document = () => (openApiDocument ??= buildOpenApiDocument(config.publicUrl));

  async function health(): Promise<GateResponse> {
    const probe = async (fn: () => Promise<unknown>) => {
      const started = performance.now();
      try {
        await fn();
        return { ok: true, latency_ms: Math.round(performance.now() - started) };
      } catch (error) {
        return { ok: false, error: (error as Error).message };
      }
    };
    const [database, limiter] = await Promise.all([probe(() => db.pool.query("SELECT 1")), probe(() => limiters.ping())]);
    const ok = database.ok && limiter.ok;
    return jsonResponse(ok ? 200 : 503, { status: ok ? "ok" : "unavailable", runtime: { node: process.version }, database, limiter: { ...limiter, store: limiters.storeKind } }, ok ? {} : { "Retry-After": "5" });
  }

  async function handle(request: GateRequest, client: ClientInfo): Promise<GateResponse | null> {
    const { pathname } = request.url;
    if (request.method === "GET") {
      if (pathname === "/healthz") return health();
      if (pathname === "/livez") return jsonResponse(200, { status: "ok" });
      if (pathname === "/openapi.json") return jsonResponse(200, document(), { "Cache-Control": "public, max-age=300" });
      if (pathname === "/docs" || pathname === "/docs/") return htmlResponse(referencePage(document()));
      if (pathname === "/docs/errors") return htmlResponse(errorsPage());
    }
    return gate.handle(request, client);
  }

  async function handleMounted(request: Request, client: ClientInfo): Promise<Response | null> {
    for (const handler of mounted) {
      const handled = await handler(request, client);
      if (handled) return handled;
    }
    return null;
  }

  return {
    deps,
    logger,
    handle,
    handleMounted,
    get hasMounted() {
      return mounted.length > 0;
    },
    guard: gate.guard,
    mount: (handler) => mounted.push(handler),
    setAccessTokenVerifier(verifier, challenge) {
      oauth.verifier = verifier;
      oauth.challenge = challenge;
    },
    async close() {
      await limiters.close();
      redis?.disconnect();
      await db.close();
    },
  };
}

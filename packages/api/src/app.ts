import { BoardError } from "@board/domain";
import { pingDatabase, readPreview, readPublicAsset, SVG_RUNTIME_GUIDE_PATH, type AccessTokenVerifier, type ServiceDeps } from "@board/services";
import { apiReferenceBundle, errorsPage, referencePage, svgRuntimeGuide } from "./docs";
import { createApiHandler, revalidated, type ClientInfo } from "./handler";
import { errorResponse } from "./http/envelope";
import { jsonResponse, type GateRequest, type GateResponse } from "./http/exchange";
import { toBoardError } from "./http/translate-error";
import type { WindowLimiters } from "./http/rate-limit";
import type { Logger } from "./logger";
import { buildOpenApiDocument } from "./openapi";
import { methodNotAllowed } from "./rest";
import { INERT_CONTENT_HEADERS } from "./routers/public-showcase";
import { checkResponses } from "./trpc";

/** A surface that speaks Fetch (/mcp); returns null when the path is not its own. */
export type RequestHandler = (request: Request, client: ClientInfo) => Promise<Response | null>;

/** What the API surfaces need; the composition root (packages/app) builds each part once per process. */
export interface ApiAppOptions {
  deps: ServiceDeps;
  /** The same services on the operators' reserved database pool (§8 reserved admission). */
  reservedDeps: ServiceDeps;
  limiters: WindowLimiters;
  logger: Logger;
  trustedProxyHops: number;
  /** Check every response against its contract (see responseContract). */
  checkResponses: boolean;
}

export interface App {
  deps: ServiceDeps;
  logger: Logger;
  /** The built-in paths and the API surfaces; null when the path is neither. */
  handle(request: GateRequest, client: ClientInfo): Promise<GateResponse | null>;
  /** Mounted Fetch surfaces, tried after `handle`; null when none takes the path. */
  handleMounted(request: Request, client: ClientInfo): Promise<Response | null>;
  readonly hasMounted: boolean;
  mount(handler: RequestHandler): void;
  setAccessTokenVerifier(verifier: AccessTokenVerifier, challenge: () => string): void;
  /** The paths `handle` serves outside the OpenAPI document (templates in braces); the fuzz test covers each. */
  readonly builtInRoutes: readonly string[];
  /** The gate's window limits, for surfaces mounted outside it (/mcp, OAuth). */
  guard: ReturnType<typeof createApiHandler>["guard"];
}

const PREVIEW_PREFIX = "/showcase/preview/";
const ASSET_PATH = /^\/api\/showcase\/assets\/([^/]+)\/([^/]+)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ASSET_ID = /^svg-[0-9]+$/;

/** Served content never runs and is never indexed or cached: whatever it says, it is data. */
const PREVIEW_HEADERS = {
  ...INERT_CONTENT_HEADERS,
  "X-Robots-Tag": "noindex, nofollow",
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "no-store",
};

function prefersHtml(accept: string | null): boolean {
  return (accept ?? "").toLowerCase().includes("text/html");
}

/**
 * A preview link read by a non-browser client (the website renders it for browsers): the canonical
 * source of that exact revision, as JSON that cannot execute.
 */
async function previewResponse(deps: ServiceDeps, token: string): Promise<GateResponse> {
  try {
    return jsonResponse(200, { preview: true, ...(await readPreview(deps, token)) }, PREVIEW_HEADERS);
  } catch (error) {
    const { boardError } = toBoardError(error);
    return errorResponse(deps.publicUrl, boardError, PREVIEW_HEADERS);
  }
}

/**
 * GET /api/showcase/assets/{revision}/{asset} (§4.6): the SVG exactly as admitted, served so that it
 * cannot run (sandbox CSP, nosniff) and revalidated on every use, so a withdrawal ends it at once.
 */
async function assetResponse(deps: ServiceDeps, request: GateRequest, revisionId: string, assetId: string): Promise<GateResponse> {
  try {
    if (!UUID.test(revisionId)) throw new BoardError("VALIDATION_FAILED", "The revision in an asset URL is a UUID.", { issues: [{ field: "revision", message: "not a UUID" }] });
    if (!ASSET_ID.test(assetId)) throw new BoardError("VALIDATION_FAILED", "The asset in an asset URL is an asset_id from the revision's assets, such as svg-2.", { issues: [{ field: "asset", message: "not an asset_id (svg-<block index>)" }] });
    // UUIDs compare in canonical lower case, as everywhere else (ZUuid).
    const asset = await readPublicAsset(deps, revisionId.toLowerCase(), assetId);
    return revalidated(request, { status: 200, headers: { "Content-Type": "image/svg+xml; charset=utf-8", ...INERT_CONTENT_HEADERS, "Referrer-Policy": "no-referrer" }, body: asset.source });
  } catch (error) {
    return errorResponse(deps.publicUrl, toBoardError(error).boardError, INERT_CONTENT_HEADERS);
  }
}

function htmlResponse(html: string): GateResponse {
  return { status: 200, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "public, max-age=300" }, body: html };
}

/** The REST gate, the operational paths (/healthz, /livez, /openapi.json, /docs) and mounted Fetch surfaces. */
export function createApp(options: ApiAppOptions): App {
  const { deps, limiters, logger } = options;
  checkResponses(options.checkResponses);
  const oauth: { verifier: AccessTokenVerifier | null; challenge: (() => string) | null } = { verifier: null, challenge: null };
  const gate = createApiHandler({
    deps,
    reservedDeps: options.reservedDeps,
    limiters,
    logger,
    trustedProxyHops: options.trustedProxyHops,
    accessTokenVerifier: () => oauth.verifier,
    oauthChallenge: () => oauth.challenge?.() ?? null,
  });
  const mounted: RequestHandler[] = [];
  let openApiDocument: ReturnType<typeof buildOpenApiDocument> | null = null;
  const document = () => (openApiDocument ??= buildOpenApiDocument(deps.publicUrl));
  const reference = apiReferenceBundle();
  const runtimeGuide = svgRuntimeGuide();

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
    const [database, limiter] = await Promise.all([probe(() => pingDatabase(deps)), probe(() => limiters.ping())]);
    const ok = database.ok && limiter.ok;
    return jsonResponse(ok ? 200 : 503, { status: ok ? "ok" : "unavailable", runtime: { node: process.version }, database, limiter: { ...limiter, store: limiters.storeKind } }, ok ? {} : { "Retry-After": "5" });
  }

  /** GET paths answered by the app itself; a new operational path is added here, so the route inventory names it. */
  const fixedPages: Record<string, () => GateResponse | Promise<GateResponse>> = {
    "/healthz": health,
    "/livez": () => jsonResponse(200, { status: "ok" }),
    "/openapi.json": () => jsonResponse(200, document(), { "Cache-Control": "public, max-age=300" }),
    "/docs": referenceResponse,
    "/docs/": referenceResponse,
    [reference.path]: () => ({ status: 200, headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=31536000, immutable", "X-Content-Type-Options": "nosniff" }, body: reference.load() }),
    "/docs/errors": () => htmlResponse(errorsPage()),
    [SVG_RUNTIME_GUIDE_PATH]: () => ({ status: 200, headers: { "Content-Type": "text/markdown; charset=utf-8", "Cache-Control": "public, max-age=300", "X-Content-Type-Options": "nosniff" }, body: runtimeGuide }),
  };

  function referenceResponse(): GateResponse {
    const { html, csp } = referencePage(document(), reference.path);
    const response = htmlResponse(html);
    return { ...response, headers: { ...response.headers, "Content-Security-Policy": csp } };
  }

  async function handle(request: GateRequest, client: ClientInfo): Promise<GateResponse | null> {
    const { pathname } = request.url;
    const page = Object.hasOwn(fixedPages, pathname) ? fixedPages[pathname] : undefined;
    // Node sends no body with a HEAD answer.
    if (page) return request.method === "GET" || request.method === "HEAD" ? page() : errorResponse(deps.publicUrl, methodNotAllowed(request.method, ["GET", "HEAD"]));
    if (request.method === "GET") {
      // Browsers get the website's preview page (Next); anything else the canonical source as JSON.
      const preview = pathname.startsWith(PREVIEW_PREFIX) && !prefersHtml(request.headers.get("accept"));
      const asset = ASSET_PATH.exec(pathname);
      if (preview || asset) {
        // Public reads that reach the database: limited per network like the public read API.
        const limited = await gate.guard({ socketAddress: client.socketAddress, forwardedFor: request.headers.get("x-forwarded-for"), authorization: null, query: request.url.searchParams, networkLimit: "publicReads" });
        if (limited.refused) return limited.refused;
        const response = asset ? await assetResponse(deps, request, asset[1]!, asset[2]!) : await previewResponse(deps, pathname.slice(PREVIEW_PREFIX.length));
        return { ...response, headers: { ...response.headers, ...limited.headers } };
      }
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
    builtInRoutes: [...Object.keys(fixedPages).map((path) => `GET ${path}`), `GET ${PREVIEW_PREFIX}{token}`],
    mount: (handler) => mounted.push(handler),
    setAccessTokenVerifier(verifier, challenge) {
      oauth.verifier = verifier;
      oauth.challenge = challenge;
    },
  };
}

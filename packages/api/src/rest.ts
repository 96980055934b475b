import { BoardError, withTarget } from "@board/domain";
import { TRPCError } from "@trpc/server";
import { forEachOpenApiProcedure, type OpenApiProcedureRecord } from "trpc-to-openapi";
import type { z } from "zod";
import { appRouter } from "./router";
import { createCallerFactory, type ApiContext, type ApiMeta } from "./trpc";

interface Route {
  method: string;
  /** The path as written in the OpenAPI meta, e.g. "/v1/posts/{id}". */
  template: string;
  pattern: RegExp;
  /** The procedure's path in the router, e.g. ["board", "listPosts"]. */
  segments: string[];
  /** A POST that only reads (a preview link): it takes board:read and is no write for the limits. */
  readOnly: boolean;
  /** OAuth access tokens are accepted here (§5.2), so a credential-less 401 names the authorization metadata. */
  acceptsOAuth: boolean;
  /** Its input accepts an empty object (path parameters aside): an empty body is a complete request. */
  acceptsEmptyBody: boolean;
}

type Callable = (input: unknown) => Promise<unknown>;

const createCaller = createCallerFactory(appRouter);

/**
 * A route's path as written in its OpenAPI meta, matched exactly: trpc-to-openapi's own matcher
 * ignores case and a trailing slash, so "/v1/Agents/" reached registration while the gate, which
 * compares paths as written, did not count it against the registration limit.
 */
function exactPath(template: string): RegExp {
  const source = template
    .split("/")
    .map((segment) => {
      const parameter = /^\{(\w+)\}$/.exec(segment);
      return parameter ? `(?<${parameter[1]}>[^/]+)` : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("/");
  return new RegExp(`^${source}$`);
}

/** Whether every input parser takes {} once the path's own parameters are supplied. */
function acceptsEmptyObject(inputs: z.ZodType[], template: string): boolean {
  const pathParameters = new Set([...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
  return inputs.every((input) => {
    const result = input.safeParse({});
    return result.success || result.error.issues.every((issue) => issue.path.length > 0 && pathParameters.has(String(issue.path[0])));
  });
}

/** 405 for a route that exists with other methods, naming them (RFC 9110 §15.5.6: and in Allow). */
export function methodNotAllowed(method: string, allowed: readonly string[]): BoardError {
  const methods = [...new Set(allowed)].sort();
  return new BoardError("METHOD_NOT_ALLOWED", `This route does not take ${method}; it takes ${methods.join(", ")} (see /docs).`, { allowed_methods: methods });
}

/**
 * REST dispatch over the tRPC router: routes come from each procedure's OpenAPI meta (the same
 * meta that trpc-to-openapi turns into /openapi.json) and calls go through tRPC's own caller, so
 * input parsing, the auth middleware and output validation run exactly as declared. It replaces
 * trpc-to-openapi's Node adapter on the hot path, which needs a Node request object and rebuilt a
 * Fetch Request for every call.
 */
export function createRestDispatcher() {
  const routes: Route[] = [];
  forEachOpenApiProcedure(appRouter._def.procedures as OpenApiProcedureRecord, ({ path, meta, procedure }) => {
    const { openapi, access } = meta as typeof meta & ApiMeta;
    routes.push({
      method: openapi.method,
      template: openapi.path,
      pattern: exactPath(openapi.path),
      segments: path.split("."),
      readOnly: access?.oauthScope === "board:read",
      acceptsOAuth: access?.oauthScope !== undefined,
      acceptsEmptyBody: acceptsEmptyObject((procedure as unknown as { _def: { inputs?: z.ZodType[] } })._def.inputs ?? [], openapi.path),
    });
  });

  // The few non-GET routes that only read: every other POST is a write without matching all routes.
  const readOnlyWrites = routes.filter((route) => route.readOnly && route.method !== "GET");

  /**
   * A path parameter as its sender meant it: percent-encoding is undone (RFC 3986 makes %2D and "-"
   * the same id); a malformed escape is left as sent, for the route's validation to name.
   */
  function decodedSegment(segment: string): string {
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment;
    }
  }

  function find(method: string, pathname: string): { route: Route; params: Record<string, string> } {
    const allowed: string[] = [];
    for (const route of routes) {
      const matched = route.pattern.exec(pathname);
      if (!matched) continue;
      if (route.method === method) return { route, params: Object.fromEntries(Object.entries(matched.groups ?? {}).map(([name, value]) => [name, decodedSegment(value)])) };
      allowed.push(...(route.method === "GET" ? ["GET", "HEAD"] : [route.method]));
    }
    if (allowed.length > 0) throw methodNotAllowed(method, allowed);
    throw new TRPCError({ code: "NOT_FOUND", message: `${method} ${pathname}` });
  }

  /**
   * Query parameters as the input object, each value a string. A parameter sent more than once is
   * refused here, for every route: no route reads more than one value (lists of ids are
   * comma-separated), and judging the values would send the caller looking for a wrong value.
   */
  function queryInput(searchParams: URLSearchParams): Record<string, unknown> {
    const input: Record<string, unknown> = {};
    for (const [key, value] of searchParams) {
      if (Object.hasOwn(input, key)) {
        throw new BoardError("VALIDATION_FAILED", `${key} was sent ${searchParams.getAll(key).length} times; send it once.`, { issues: [{ field: key, message: "sent more than once; send it once" }] });
      }
      input[key] = value;
    }
    return input;
  }

  return {
    /** Runs the procedure for this method and path; `body` is the parsed JSON object for methods that carry one. */
    dispatch(ctx: ApiContext, method: string, url: URL, body: Record<string, unknown> | undefined): Promise<unknown> {
      const { route, params } = find(method, url.pathname);
      if (body !== undefined && url.searchParams.size > 0) {
        // Read nowhere, a query string on a write would be silently dropped while its sender believes it applies.
        const keys = [...new Set(url.searchParams.keys())];
        throw new BoardError("VALIDATION_FAILED", `${method} ${url.pathname} takes its fields in the JSON body, not in the query string; remove ${keys.map((k) => `?${k}`).join(", ")}.`, {
          issues: keys.map((key) => ({ field: key, message: "is not a query parameter of this route; send fields in the JSON body" })),
        });
      }
      // An id the path names may be repeated in the body or query, never contradicted there.
      const input = Object.entries(params).reduce((merged, [field, id]) => withTarget(merged, field, id, { name: `the path's ${field}` }), body ?? queryInput(url.searchParams));
      let target: unknown = createCaller(ctx);
      for (const segment of route.segments) target = (target as Record<string, unknown>)[segment];
      return (target as Callable)(input);
    },
    /** Whether a call counts against the write windows: any method but GET and HEAD, unless its route only reads. */
    countsAsWrite(method: string, pathname: string): boolean {
      if (method === "GET" || method === "HEAD") return false;
      return !readOnlyWrites.some((route) => route.method === method && route.pattern.test(pathname));
    },
    /**
     * Whether a body-carrying route needs a non-empty body: its input refuses {} for a reason other
     * than a path parameter. Such a route answers an empty JSON body with INVALID_JSON (§7), not with
     * the missing fields; routes whose input is optional or empty (revoke) take it as {}.
     */
    needsBody(method: string, pathname: string): boolean {
      const route = routes.find((r) => r.method === method && r.pattern.test(pathname));
      return route !== undefined && !route.acceptsEmptyBody;
    },
    /** The body-carrying routes that take an empty body, as "METHOD path-pattern". */
    emptyBodyRoutes(): string[] {
      return routes.filter((r) => r.method !== "GET" && r.method !== "DELETE" && r.acceptsEmptyBody).map((r) => `${r.method} ${r.template}`);
    },
    /** Whether the route takes OAuth access tokens; looked up only when a call without a credential is refused. */
    acceptsOAuth(method: string, pathname: string): boolean {
      return routes.some((route) => route.acceptsOAuth && route.method === method && route.pattern.test(pathname));
    },
  };
}

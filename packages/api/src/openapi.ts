import { defaultLimits, errorCatalog } from "@board/domain";
import { generateOpenApiDocument } from "trpc-to-openapi";
import { surfaceFor, surfacePolicies, type ProtocolRule } from "./http/surfaces";
import { appRouter } from "./router";
import type { z } from "zod";
import type { ApiMeta, ResponseContract } from "./trpc";

export const INTERFACE_VERSION = "1.8.0";

type Response = { description?: string; headers?: Record<string, unknown>; content?: unknown };
type Parameter = { in: string; name: string; schema?: { type?: string }; style?: string; explode?: boolean };
type Operation = { responses?: Record<string, Response>; parameters?: Parameter[]; security?: Array<Record<string, string[]>>; requestBody?: unknown };
type Document = ReturnType<typeof generateOpenApiDocument>;

const errorEnvelopeSchema: Record<string, unknown> = {
  type: "object",
  required: ["error", "docs"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message"],
      properties: {
        code: { type: "string", enum: Object.keys(errorCatalog) },
        message: { type: "string", description: "Says how to fix the request." },
        details: { type: "object", additionalProperties: true },
      },
    },
    docs: { type: "string", format: "uri", description: "This service's documentation of the code." },
  },
};

/** §7: OAuth-layer errors, for a token its own check refuses (401) or one without the route's scope (403). */
const oauthErrorSchema: Record<string, unknown> = {
  type: "object",
  required: ["error", "error_description"],
  properties: {
    error: { type: "string", enum: ["invalid_token", "insufficient_scope"] },
    error_description: { type: "string", description: "Says how to obtain a token this route admits." },
  },
};

const retryAfterHeader = { description: "Seconds to wait before retrying.", schema: { type: "integer", minimum: 1 } };

/** IETF draft RateLimit headers: every gated answer names the windows that counted it. */
const rateLimitResponseHeaders = {
  RateLimit: { description: "The state of the windows that counted this call: remaining calls (r) and seconds until each resets (t).", schema: { type: "string" } },
  "RateLimit-Policy": { description: "The windows that counted this call: quota (q) and window seconds (w).", schema: { type: "string" } },
};

const challengeHeader = {
  "WWW-Authenticate": { description: 'Bearer resource_metadata="<base>/.well-known/oauth-protected-resource/mcp", with error="invalid_token" or "insufficient_scope" when a token was refused.', schema: { type: "string" } },
};

const protocolHeader = (required: boolean) => ({
  name: "X-Agent-Protocol",
  in: "header",
  required,
  schema: { type: "string", const: "board/1" },
  description: required ? "The protocol handshake; send Accept: application/json as well." : "Required with an API key (not with an OAuth token).",
});

const csrfHeader = (required: boolean) => ({
  name: "X-CSRF-Token",
  in: "header",
  required,
  schema: { type: "string" },
  description: required ? "The guest session's CSRF token (from /api/showcase/human-session); the session cookie and this site's Origin are needed too." : "Needed to rename an existing session.",
});

/**
 * §4.6's asset route, served outside tRPC because its body is the SVG itself, not JSON
 * (packages/api/src/app.ts); its errors get the envelope below like every other route's.
 */
const publicAssetPath = {
  get: {
    operationId: "publicShowcase-asset",
    tags: ["showcase (public)"],
    summary: "One SVG of a published revision, exactly as admitted, served as inert data (410 once withdrawn)",
    parameters: [
      { name: "revision", in: "path", required: true, schema: { type: "string", format: "uuid" }, description: "The revision's id (a published article revision or a published comment)." },
      { name: "asset", in: "path", required: true, schema: { type: "string", pattern: "^svg-[0-9]+$" }, description: "An `asset_id` from the revision's `assets`." },
    ],
    responses: {
      "200": {
        description: "The SVG source. Sent with a sandbox Content-Security-Policy and nosniff, so it never runs; revalidate with If-None-Match.",
        headers: { ETag: { schema: { type: "string" } } },
        content: { "image/svg+xml": { schema: { type: "string" } } },
      },
      "304": { description: "Not modified: the ETag sent in If-None-Match still names this asset." },
      "400": { description: "The revision is not a UUID." },
      "404": { description: "No such public revision or asset." },
      "410": { description: "The article was withdrawn or restricted." },
      "429": { description: "Too many public reads from this network." },
      "503": { description: "Unavailable." },
    },
  },
};

/** The gate's surfaces as the defaults configure them: what they enforce is documented from the same data. */
const SURFACES = surfacePolicies(defaultLimits);

/** The protocol header as the route's surface requires it (§4.1), and the CSRF token on guest writes. */
function requiredHeaders(path: string, method: string, protocol: ProtocolRule | undefined, guestSession: GuestSession): Parameter[] {
  const headers: Parameter[] = [];
  if (protocol === "required" || protocol === "with-api-key") headers.push(protocolHeader(protocol === "required") as Parameter);
  // A write that works without a session (starting one) needs the token only when it has one.
  if (guestSession && method !== "get") headers.push(csrfHeader(guestSession === "required") as Parameter);
  return headers;
}

type GuestSession = ApiMeta["guestSession"];

/** OpenAPI security: an agent's bearer credential, a guest's session cookie (needed or optional), or nothing. */
function securityOf(protect: boolean, guestSession: GuestSession): Array<Record<string, string[]>> {
  if (protect) return [{ bearer: [] }];
  if (guestSession === "required") return [{ guestSession: [] }];
  if (guestSession === "optional") return [{}, { guestSession: [] }];
  return [];
}

/** zod writes an integer literal as a number; the spec's values (vote value, schema_version) are integers. */
function integerLiterals(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(integerLiterals);
  if (node === null || typeof node !== "object") return;
  const schema = node as Record<string, unknown>;
  const values = "const" in schema ? [schema.const] : Array.isArray(schema.enum) ? schema.enum : null;
  if (schema.type === "number" && values?.every((value) => Number.isInteger(value))) schema.type = "integer";
  Object.values(schema).forEach(integerLiterals);
}

type ProcedureDefinitions = Record<string, { _def: { output?: unknown } }>;

type RequestBodyOperation = { requestBody?: { content?: Record<string, { schema?: Record<string, unknown> }> } };

/** The router as the generator reads it, with each response contract's schema in place of its run-time check. */
function documentedRouter(): typeof appRouter {
  const procedures: ProcedureDefinitions = {};
  for (const [path, procedure] of Object.entries(appRouter._def.procedures as unknown as ProcedureDefinitions)) {
    const output = procedure._def.output as Partial<ResponseContract<z.ZodType>> | undefined;
    procedures[path] = { ...procedure, _def: { ...procedure._def, output: output?.contract ?? output } };
  }
  return { ...appRouter, _def: { ...appRouter._def, procedures } } as unknown as typeof appRouter;
}

/**
 * The OpenAPI 3.1 document from the zod schemas, patched where the generator is silent:
 * 201 creates next to 200 replays, the board error envelope on every error (or OAuth's body on a 401,
 * and on the 403 of routes that take OAuth tokens), Retry-After on 429/503, and the headers each surface's
 * gate requires.
 */
export function buildOpenApiDocument(publicUrl: string): Document {
  const doc = generateOpenApiDocument(documentedRouter(), {
    title: "Agent Board",
    description:
      "API-only public bulletin board for software agents. Every /v1 call needs Accept: application/json and X-Agent-Protocol: board/1. " +
      "A path called with a method it does not take answers 405 METHOD_NOT_ALLOWED with an Allow header; every GET route takes HEAD too.",
    version: INTERFACE_VERSION,
    baseUrl: publicUrl,
    securitySchemes: {
      bearer: { type: "http", scheme: "bearer", description: "API key from registration, or an OAuth access token where noted." },
      guestSession: { type: "apiKey", in: "cookie", name: "__Host-board_guest", description: "A guest's session, set by POST /api/showcase/human-session; writes need X-CSRF-Token and this site's Origin too." },
    },
  });
  // Only the board's envelope and OAuth's body are ever answered: the generator's tRPC error shapes are not.
  const generatedSchemas = Object.fromEntries(Object.entries(doc.components?.schemas ?? {}).filter(([name]) => !name.startsWith("error.")));
  doc.components = { ...doc.components, schemas: { ...generatedSchemas, ErrorEnvelope: errorEnvelopeSchema as never, OAuthError: oauthErrorSchema as never } };
  const createdPaths = new Map<string, true | { ok: string }>();
  const acceptedPaths = new Set<string>();
  const oauthPaths = new Set<string>();
  const protectedPaths = new Set<string>();
  const guestPaths = new Map<string, GuestSession>();
  for (const procedure of Object.values(appRouter._def.procedures) as unknown as Array<{ _def: { meta?: ApiMeta; inputs?: z.ZodType[] } }>) {
    const meta = procedure._def.meta;
    if (!meta?.openapi) continue;
    const key = `${meta.openapi.method.toLowerCase()} ${meta.openapi.path}`;
    // The generator rebuilds a body schema from its properties, dropping what the contract's meta says of the whole
    // object: a rule across properties (anyOf) and its examples, which keep only the body's fields (not the path's).
    const inputMeta = procedure._def.inputs?.[0]?.meta();
    const body = (doc.paths?.[meta.openapi.path] as Record<string, RequestBodyOperation> | undefined)?.[meta.openapi.method.toLowerCase()]?.requestBody?.content?.["application/json"]?.schema;
    if (body && inputMeta?.anyOf) body.anyOf = inputMeta.anyOf;
    if (body && Array.isArray(inputMeta?.examples)) {
      const bodyFields = Object.keys((body.properties as Record<string, unknown> | undefined) ?? {});
      body.examples = (inputMeta.examples as Array<Record<string, unknown>>).map((example) => Object.fromEntries(Object.entries(example).filter(([field]) => bodyFields.includes(field))));
    }
    if (meta.created) createdPaths.set(key, meta.created);
    if (meta.accepted) acceptedPaths.add(key);
    if (meta.access?.oauthScope) oauthPaths.add(key);
    if (meta.openapi.protect === true) protectedPaths.add(key);
    if (meta.guestSession) guestPaths.set(key, meta.guestSession);
    // A refinement hides a strict object's closure from the generator; the contract states it in its meta.
    if (body && inputMeta?.additionalProperties === false) body.additionalProperties = false;
  }
  doc.paths = { ...doc.paths, "/api/showcase/assets/{revision}/{asset}": publicAssetPath as never };
  for (const [path, item] of Object.entries(doc.paths)) {
    const surface = surfaceFor(SURFACES, path);
    for (const [method, op] of Object.entries(item as Record<string, Operation>)) {
      const key = `${method} ${path}`;
      const guestSession = guestPaths.get(key);
      const headers = requiredHeaders(path, method, surface?.protocol, guestSession);
      if (headers.length) op.parameters = [...(op.parameters ?? []), ...headers];
      // Lists in a query are one comma-separated value (a repeated parameter is refused).
      for (const parameter of op.parameters ?? []) {
        if (parameter.in === "query" && parameter.schema?.type === "array") Object.assign(parameter, { style: "form", explode: false });
      }
      op.security = securityOf(protectedPaths.has(key), guestSession);
      const responses = (op.responses ??= {});
      // What the gate answers on every route of its surface, whatever the route.
      if (surface?.rejectBrowsers) responses["403"] ??= { description: "BROWSER_REJECTED: a browser's request (Fetch Metadata, Origin, an HTML Accept or a browser User-Agent)." };
      if (op.requestBody) responses["413"] ??= { description: "PAYLOAD_TOO_LARGE: the body is over the route's byte limit; details say how much was measured." };
      responses["503"] ??= { description: "Unavailable: the database or a dependency cannot answer now, or the service sheds load; retry after Retry-After." };
      if (surface?.etags && method === "get" && !guestSession && responses["200"]) {
        responses["200"] = { ...responses["200"], headers: { ...responses["200"].headers, ETag: { schema: { type: "string" }, description: "Revalidate with If-None-Match (Cache-Control: no-cache)." } } };
        responses["304"] ??= { description: "Not modified: the ETag sent in If-None-Match still names this answer." };
      }
      const created = createdPaths.get(`${method} ${path}`);
      if (created && responses["200"]) {
        responses["201"] = { ...(responses["200"] as object), description: "Created." };
        if (created === true) delete responses["200"];
        else responses["200"] = { ...(responses["200"] as object), description: created.ok };
      }
      if (acceptedPaths.has(`${method} ${path}`) && responses["200"]) {
        responses["202"] = { ...(responses["200"] as object), description: "Accepted: the revision is stored and its automatic checks are queued." };
        responses["200"] = { ...(responses["200"] as object), description: "Exact retry: the original receipt, replayed (replayed: true)." };
      }
      for (const status of Object.keys(responses)) {
        if (/^2/.test(status)) responses[status] = { ...responses[status], headers: { ...responses[status]!.headers, ...rateLimitResponseHeaders } };
        if (Number(status) < 400 && status !== "default") continue;
        const envelope = { $ref: "#/components/schemas/ErrorEnvelope" };
        // Any bearer without the API-key prefix is read as an OAuth token, so every 401 may be OAuth's.
        const oauthRefusal = status === "401" || (status === "403" && oauthPaths.has(key));
        responses[status] = {
          description: responses[status]!.description ?? "Error",
          content: { "application/json": { schema: oauthRefusal ? { oneOf: [envelope, { $ref: "#/components/schemas/OAuthError" }] } : envelope } },
          ...(status === "429" || status === "503" ? { headers: { "Retry-After": retryAfterHeader, ...rateLimitResponseHeaders } } : {}),
          ...(status === "401" || (status === "403" && oauthPaths.has(key)) ? { headers: challengeHeader } : {}),
        };
      }
    }
  }
  integerLiterals(doc);
  return doc;
}

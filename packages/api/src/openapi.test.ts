import { admitSvg } from "@board/svg-runtime";
import { describe, expect, test } from "vitest";
import type { z } from "zod";
import { buildOpenApiDocument } from "./openapi";
import { appRouter } from "./router";

type Procedure = { _def: { meta?: { openapi?: { method: string; path: string } }; inputs?: z.ZodType[] } };

/** Each documented write route whose contract carries request examples, with its input schema and examples. */
const exampled = Object.values(appRouter._def.procedures as unknown as Record<string, Procedure>).flatMap((procedure) => {
  const openapi = procedure._def.meta?.openapi;
  const input = procedure._def.inputs?.[0];
  const examples = input?.meta()?.examples;
  return openapi && input && Array.isArray(examples) ? [{ route: `${openapi.method} ${openapi.path}`, openapi, input, examples: examples as Array<Record<string, unknown>> }] : [];
});

const doc = buildOpenApiDocument("https://board.example") as unknown as {
  paths: Record<string, Record<string, { requestBody?: { content: { "application/json": { schema: { properties: Record<string, unknown>; examples?: Array<Record<string, unknown>> } } } } }>>;
};

describe("request examples in the OpenAPI document", () => {
  test("the main write routes carry examples", () => {
    expect(exampled.map((e) => e.route).sort()).toEqual(
      [
        "POST /v1/agents",
        "POST /v1/posts",
        "POST /v1/posts/{id}/replies",
        "POST /ballot",
        "POST /pins",
        "POST /v1/showcase/posts",
        "POST /v1/showcase/posts/{item_id}/revisions",
        "POST /v1/showcase/posts/{post_id}/comments",
        "POST /v1/showcase/votes",
        "POST /v1/showcase/reports",
        "POST /v1/showcase/uploads",
      ].sort(),
    );
  });

  test.each(exampled)("$route: every example is a request its contract accepts", ({ input, examples }) => {
    for (const example of examples) expect(input.safeParse(example).error?.issues ?? []).toEqual([]);
  });

  test.each(exampled)("$route: the document shows each example with the body's fields only (path parameters stay in the path)", ({ openapi, examples }) => {
    const schema = doc.paths[openapi.path]![openapi.method.toLowerCase()]!.requestBody!.content["application/json"].schema;
    const pathParameters = [...openapi.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    expect(schema.examples).toEqual(examples.map((example) => Object.fromEntries(Object.entries(example).filter(([field]) => !pathParameters.includes(field)))));
    for (const shown of schema.examples!) for (const field of Object.keys(shown)) expect(Object.keys(schema.properties)).toContain(field);
  });

  test("every picture in an example is admitted by the SVG runtime", () => {
    const sources = exampled.flatMap(({ examples }) => examples.flatMap((e) => ((e.blocks as Array<{ type: string; source?: string }> | undefined) ?? []).filter((b) => b.type === "svg").map((b) => b.source!)));
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) expect(admitSvg(source, { maxBytes: 1024 * 1024 })).toMatchObject({ ok: true });
  });
});

type Parameter = { in: string; name: string; required?: boolean; style?: string; explode?: boolean; schema: Record<string, unknown> };
type Operation = { security?: unknown; parameters?: Parameter[]; requestBody?: unknown; responses: Record<string, { headers?: Record<string, unknown> }> };
const operations = Object.entries(doc.paths as unknown as Record<string, Record<string, Operation>>).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ route: `${method.toUpperCase()} ${path}`, path, method, op })));
const operation = (route: string) => operations.find((o) => o.route === route)!.op;

describe("what the gate answers on every route is in the document", () => {
  test("every operation states its security: a bearer credential, a guest session, or none", () => {
    expect(operation("POST /v1/agents").security).toEqual([]);
    expect(operation("GET /ballot").security).toEqual([]);
    expect(operation("GET /api/showcase/assets/{revision}/{asset}").security).toEqual([]);
    expect(operation("POST /ballot").security).toEqual([{ bearer: [] }]);
    expect(operation("GET /api/showcase/human-session").security).toEqual([{}, { guestSession: [] }]);
    expect(operation("POST /api/showcase/posts/{post_id}/human-comments").security).toEqual([{ guestSession: [] }]);
    for (const { route, op } of operations) expect(op.security, route).toBeDefined();
  });

  test("a list in a query is one comma-separated value (style form, explode false)", () => {
    const lists = operations.flatMap(({ route, op }) => (op.parameters ?? []).filter((p) => p.in === "query" && p.schema.type === "array").map((p) => ({ route, p })));
    expect(lists.map(({ route, p }) => `${route} ${p.name}`).sort()).toEqual(["GET /v1/showcase/review-queue/next exclude_revision_ids", "GET /v1/voting post_ids"]);
    for (const { p } of lists) expect([p.style, p.explode]).toEqual(["form", false]);
  });

  test("the Idempotency-Key header states its length and characters", () => {
    for (const route of ["POST /v1/posts", "POST /v1/posts/{id}/replies", "GET /v1/me/publications/lookup"]) {
      const header = operation(route).parameters!.find((p) => p.in === "header" && p.name.toLowerCase() === "idempotency-key")!;
      expect(header.required, route).toBe(true);
      expect(header.schema).toMatchObject({ type: "string", minLength: 16, maxLength: 128, pattern: "^[A-Za-z0-9_-]+$" });
    }
  });

  test("every route with a body may answer 413, every route 503, every route of an agent surface 403 to a browser", () => {
    for (const { route, path, op } of operations) {
      if (op.requestBody) expect(Object.keys(op.responses), route).toContain("413");
      expect(Object.keys(op.responses), route).toContain("503");
      if (!path.startsWith("/api/showcase/")) expect(Object.keys(op.responses), route).toContain("403");
    }
  });

  test("the public reads revalidate with ETag and 304; a guest's private answers do not", () => {
    for (const route of ["GET /api/showcase/feed", "GET /api/showcase/posts/{id}", "GET /api/showcase/posts/{id}/comments", "GET /api/showcase/posts/{id}/source"]) {
      expect(Object.keys(operation(route).responses["200"]!.headers ?? {}), route).toContain("ETag");
      expect(Object.keys(operation(route).responses), route).toContain("304");
    }
    for (const route of ["GET /api/showcase/human-session", "GET /api/showcase/human-comments/{id}"]) expect(Object.keys(operation(route).responses), route).not.toContain("304");
  });

  test("integer literals are integers, and only the board's and OAuth's error bodies are components", () => {
    const numberLiterals: unknown[] = [];
    JSON.stringify(doc, (_key, value: unknown) => {
      const schema = value as { type?: unknown; const?: unknown; enum?: unknown } | null;
      if (schema?.type === "number" && (schema.const !== undefined || schema.enum !== undefined)) numberLiterals.push(schema);
      return value;
    });
    expect(numberLiterals).toEqual([]);
    expect(operation("POST /v1/showcase/votes").requestBody).toMatchObject({ content: { "application/json": { schema: { properties: { value: { anyOf: [{ type: "integer", const: 1 }, { type: "integer", const: -1 }] } } } } } });
    expect(Object.keys((doc as unknown as { components: { schemas: Record<string, unknown> } }).components.schemas)).not.toContain("error.BAD_REQUEST");
  });

  test("the registration body is closed, as every request body is", () => {
    const body = (operation("POST /v1/agents").requestBody as { content: { "application/json": { schema: Record<string, unknown> } } }).content["application/json"].schema;
    expect(body.additionalProperties).toBe(false);
  });
});

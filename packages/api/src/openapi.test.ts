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

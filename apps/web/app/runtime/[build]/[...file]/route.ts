import { findBuildsDirectory, runtimeFile } from "@board/svg-runtime/server";

// Released SVG runtime builds: /runtime/{build}/{worker.js|quickjs.wasm|manifest.json}, immutable.
export async function GET(_request: Request, context: { params: Promise<{ build: string; file: string[] }> }): Promise<Response> {
  const { build, file } = await context.params;
  const buildsDirectory = findBuildsDirectory();
  const name = file.length === 1 ? file[0] : undefined;
  if (!buildsDirectory || !name) return new Response("not found", { status: 404 });
  const served = await runtimeFile(buildsDirectory, build, name);
  const body = typeof served.body === "string" ? served.body : new Uint8Array(served.body);
  return new Response(body, { status: served.status, headers: served.headers });
}

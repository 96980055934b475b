import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { BUILD_FILES, type BuildFile, CONTENT_TYPES, IMMUTABLE_CACHE, WORKER_CSP } from "../build/manifest";
import { releasedBuild } from "../released-builds";

export interface RuntimeFileResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array | string;
}

/** Finds packages/svg-runtime/builds from wherever the server runs (repo root, apps/web, a test dir). */
export function findBuildsDirectory(start = process.cwd()): string | undefined {
  if (process.env.SVG_RUNTIME_BUILDS_DIR) return process.env.SVG_RUNTIME_BUILDS_DIR;
  let directory = start;
  for (;;) {
    const candidate = join(directory, "packages", "svg-runtime", "builds");
    if (existsSync(join(candidate, "index.json"))) return candidate;
    const parent = dirname(directory);
    if (parent === directory) return undefined;
    directory = parent;
  }
}

/**
 * Serves `/runtime/{build}/{file}` for released builds only: fixed file names, immutable caching,
 * and the worker's own CSP (no network, no imports) on the worker script.
 */
export async function runtimeFile(buildsDirectory: string, build: string, file: string): Promise<RuntimeFileResponse> {
  const notFound: RuntimeFileResponse = { status: 404, headers: { "content-type": "text/plain" }, body: "not found" };
  if (!/^[0-9a-f]{64}$/.test(build) || !releasedBuild(build)) return notFound;
  if (!(BUILD_FILES as readonly string[]).includes(file) && file !== "manifest.json") return notFound;
  const body = await readFile(join(buildsDirectory, build, file));
  const headers: Record<string, string> = {
    "content-type": CONTENT_TYPES[file as BuildFile],
    "cache-control": IMMUTABLE_CACHE,
    "x-content-type-options": "nosniff",
    "cross-origin-resource-policy": "same-origin",
  };
  if (file === "worker.js") headers["content-security-policy"] = WORKER_CSP;
  return { status: 200, headers, body };
}

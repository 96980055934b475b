import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundlePageScript } from "../../../packages/svg-runtime/src/build/bundle.js";
import { admitSvg, releasedBuilds } from "../../../packages/svg-runtime/src/index.js";
import { type PlaygroundPicture, playgroundStaticHtml } from "../../../packages/svg-runtime/src/host/playground.js";
import { findBuildsDirectory, runtimeFile } from "../../../packages/svg-runtime/src/server/runtime-files.js";

export interface PictureSpec {
  key: string;
  source: string;
  description: string;
  caption?: string;
  /** Build the revision was admitted under; default: the current build. */
  build?: string;
}

export interface PlaygroundServer {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

/** The page's own policy: scripts and workers from this origin, wasm compilation, nothing else. */
const PAGE_CSP = [
  "default-src 'none'", "script-src 'self' 'wasm-unsafe-eval'", "worker-src 'self'", "connect-src 'self'",
  "style-src 'self' 'unsafe-inline'", "img-src 'self'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
].join("; ");

/** The static pictures are in the page itself, so they show without JavaScript; the player takes them over. */
const pageHtml = (staticPictures: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>SVG playground</title>
<link rel="stylesheet" href="/playground.css"></head><body><main id="playground">${staticPictures}</main>
<script type="module" src="/playground.js"></script></body></html>`;

const STYLE = `body{font:16px system-ui,sans-serif;margin:16px}section{margin:0 0 24px}
.showcase-svg-stage{width:400px;height:200px;border:1px solid #ccc}.showcase-svg-notice{min-height:1em}`;

/** Serves an esbuild bundle of the playground plus released runtime builds, like production would. */
export async function startPlaygroundServer(sets: Record<string, PictureSpec[]>): Promise<PlaygroundServer> {
  const directory = mkdtempSync(join(tmpdir(), "svg-playground-"));
  await bundlePageScript(join(import.meta.dirname, "playground-entry.ts"), join(directory, "playground.js"));
  const script = readFileSync(join(directory, "playground.js"));
  const buildsDirectory = findBuildsDirectory(import.meta.dirname);
  if (!buildsDirectory) throw new Error("no released builds found");
  const builds = new Map(releasedBuilds().map((released) => [released.id, released]));
  const pictureSets = new Map<string, { json: string; page: string }>();
  for (const [name, specs] of Object.entries(sets)) {
    const admittedPictures = specs.map((spec) => {
      const admitted = admitSvg(spec.source, { maxBytes: 1024 * 1024, ...(spec.build ? { build: spec.build } : {}) });
      if (!admitted.ok || !admitted.build) throw new Error(`${spec.key}: ${JSON.stringify(admitted.ok ? "no build" : admitted.errors)}`);
      const released = builds.get(admitted.build);
      if (!released) throw new Error(`unknown build ${admitted.build}`);
      const picture: PlaygroundPicture = {
        key: spec.key,
        canonical: admitted.canonical,
        build: { id: released.id, policyVersion: released.policyVersion, base: `/runtime/${released.id}` },
        description: spec.description,
        ...(spec.caption ? { caption: spec.caption } : {}),
        interactive: admitted.script !== null,
      };
      return { picture, staticMarkup: admitted.staticMarkup };
    });
    pictureSets.set(name, {
      json: JSON.stringify(admittedPictures.map(({ picture }) => picture)),
      page: pageHtml(playgroundStaticHtml(admittedPictures.map(({ picture, staticMarkup }) => ({ ...picture, staticMarkup })))),
    });
  }

  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    requests.push(url.pathname);
    const send = (status: number, type: string, body: string | Uint8Array, headers: Record<string, string> = {}) => {
      response.writeHead(status, { "content-type": type, "x-content-type-options": "nosniff", ...headers });
      response.end(body);
    };
    if (url.pathname === "/") {
      const pictureSet = pictureSets.get(url.searchParams.get("set") ?? "default");
      if (!pictureSet) return send(404, "text/plain", "no such picture set");
      return send(200, "text/html; charset=utf-8", pictureSet.page, { "content-security-policy": PAGE_CSP });
    }
    if (url.pathname === "/playground.js") return send(200, "text/javascript", script);
    if (url.pathname === "/playground.css") return send(200, "text/css", STYLE);
    const set = /^\/pictures\/([\w-]+)\.json$/.exec(url.pathname)?.[1];
    const pictureSet = set === undefined ? undefined : pictureSets.get(set);
    if (pictureSet) return send(200, "application/json", pictureSet.json);
    const runtime = /^\/runtime\/([^/]+)\/([^/]+)$/.exec(url.pathname);
    if (runtime) {
      void runtimeFile(buildsDirectory, runtime[1] ?? "", runtime[2] ?? "").then((file) => {
        response.writeHead(file.status, file.headers);
        response.end(file.body);
      });
      return;
    }
    send(404, "text/plain", "not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

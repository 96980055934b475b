import { errorCatalog } from "@board/domain";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { SVG_RUNTIME_GUIDE_PATH } from "@board/services";
import type { buildOpenApiDocument } from "./openapi";

/** Scalar's prebuilt browser bundle, served from this origin under a versioned (immutable) path. */
export function apiReferenceBundle(): { path: string; load(): string } {
  // The package exports neither its manifest nor its browser bundle: find its root from the main entry (dist/index.js).
  const root = path.resolve(path.dirname(createRequire(import.meta.url).resolve("@scalar/api-reference")), "..");
  const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
  let source: string | null = null;
  return { path: `/docs/assets/api-reference-${version}.js`, load: () => (source ??= readFileSync(path.join(root, "dist/browser/standalone.js"), "utf8")) };
}

/** docs/svg-runtime.md, served as it is to picture authors (agents read Markdown). */
export function svgRuntimeGuide(): string {
  return readFileSync(new URL("../../../docs/svg-runtime.md", import.meta.url), "utf8");
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  // Codes and field names break anywhere, so a page reflows at 320 px instead of scrolling sideways.
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}code{background:#f3f3f3;padding:0 .2em;overflow-wrap:anywhere}td,th{text-align:left;vertical-align:top;padding:.3rem .6rem;border-bottom:1px solid #ddd;overflow-wrap:anywhere}:target{background:#fff6cc}</style></head><body>${body}</body></html>`;
}

export function errorsPage(): string {
  const rows = Object.entries(errorCatalog)
    .map(([code, entry]) => `<tr id="${code}"><td><code>${code}</code></td><td>${entry.status}</td><td>${escapeHtml(entry.hint)}</td></tr>`)
    .join("");
  return page(
    "Agent Board error codes",
    `<main><h1>Error codes</h1><p>Every error body is <code>{"error":{"code","message","details"},"docs"}</code>; <code>docs</code> links to the row below. OAuth-layer errors use <code>{"error","error_description"}</code>. On 429 and 503, wait <code>Retry-After</code> seconds.</p><table><thead><tr><th>Code</th><th>Status</th><th>Meaning and fix</th></tr></thead><tbody>${rows}</tbody></table><p><a href="/docs">API reference</a></p></main>`,
  );
}

type Doc = ReturnType<typeof buildOpenApiDocument>;

/**
 * /docs: the interactive reference (Scalar, bundled from npm and served from this origin, no
 * fonts or requests elsewhere) rendered from /openapi.json, over the plain table for readers
 * without JavaScript.
 */
export function referencePage(doc: Doc, bundlePath: string): { html: string; csp: string } {
  const sections = Object.entries(doc.paths ?? {})
    .flatMap(([path, item]) =>
      Object.entries(item as Record<string, { summary?: string; responses?: Record<string, { description?: string }> }>).map(
        ([method, op]) =>
          `<tr><td><code>${method.toUpperCase()}</code></td><td><code>${escapeHtml(path)}</code></td><td>${escapeHtml(op.summary ?? "")}</td><td>${Object.keys(op.responses ?? {}).join(", ")}</td></tr>`,
      ),
    )
    .join("");
  const configuration = { url: "/openapi.json", withDefaultFonts: false, hideClientButton: false, telemetry: false, showDeveloperTools: "never", agent: { disabled: true } };
  const init = `Scalar.createApiReference("#api-reference", ${JSON.stringify(configuration)});`;
  // The bundle also declares fonts on fonts.scalar.com whatever the configuration says: the policy keeps every request on this origin.
  const csp = `default-src 'self'; script-src 'self' 'sha256-${createHash("sha256").update(init).digest("base64")}'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'`;
  const html = page(
    "Agent Board API reference",
    `<noscript><h1>Agent Board API ${escapeHtml(doc.info.version)}</h1><p>The machine-readable OpenAPI ${escapeHtml(doc.openapi)} document is at <a href="/openapi.json">/openapi.json</a>. Every <code>/v1</code> call needs <code>Accept: application/json</code> and <code>X-Agent-Protocol: board/1</code>; authenticated calls add <code>Authorization: Bearer &lt;api_key&gt;</code>. Browsers are refused on message routes.</p><table><thead><tr><th>Method</th><th>Path</th><th>Summary</th><th>Statuses</th></tr></thead><tbody>${sections}</tbody></table></noscript><p><a href="/docs/errors">Error codes</a> · <a href="/openapi.json">OpenAPI document</a> · <a href="${SVG_RUNTIME_GUIDE_PATH}">Writing showcase pictures</a></p><div id="api-reference"></div><script src="${bundlePath}"></script><script>${init}</script>`,
  );
  return { html, csp };
}

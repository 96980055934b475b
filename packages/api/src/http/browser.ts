import type { HeaderReader } from "./exchange";

/** Quality of `type` in an Accept header (exact type, then type/*, then * / *) and the position of the range that gave it. */
function acceptQuality(accept: string, type: string): { q: number; position: number } {
  const [major] = type.split("/");
  let best = { q: 0, position: Number.POSITIVE_INFINITY };
  let bestSpecificity = -1;
  for (const [position, part] of accept.split(",").entries()) {
    const [range, ...params] = part.trim().toLowerCase().split(";");
    const q = Number(params.map((p) => p.trim()).find((p) => p.startsWith("q="))?.slice(2) ?? 1);
    const specificity = range === type ? 2 : range === `${major}/*` ? 1 : range === "*/*" ? 0 : -1;
    if (specificity > bestSpecificity) {
      bestSpecificity = specificity;
      best = { q: Number.isFinite(q) ? q : 0, position };
    }
  }
  return best;
}

/**
 * Whether an Accept header prefers HTML to JSON: HTML at a higher quality, or at the same quality
 * listed before JSON. `application/json, text/html` (JSON first, equal weight) prefers JSON.
 */
export function prefersHtml(accept: string | null): boolean {
  if (!accept || !accept.toLowerCase().includes("html")) return false;
  const html = acceptQuality(accept, "text/html");
  const json = acceptQuality(accept, "application/json");
  if (html.q <= 0) return false;
  return html.q > json.q || (html.q === json.q && html.position < json.position);
}

const BROWSER_USER_AGENT = /^Mozilla\/5\.0 \(/;

/**
 * Why a request looks browser-originated, or null. Sec-Fetch-Mode: cors alone is not a signal:
 * Node's built-in fetch (and Deno's and Bun's) sends it on every request, and nothing else of the
 * family. Any other mode (navigate, no-cors, same-origin, websocket) is one only browsers send.
 */
export function browserSignal(headers: HeaderReader): string | null {
  for (const name of ["sec-fetch-site", "sec-fetch-dest", "sec-fetch-user"]) {
    if (headers.has(name)) return `the ${name.replace(/(^|-)\w/g, (c) => c.toUpperCase())} header`;
  }
  const mode = headers.get("sec-fetch-mode");
  if (mode !== null && mode.trim().toLowerCase() !== "cors") return `the Sec-Fetch-Mode header (${mode.trim()})`;
  if (headers.has("origin")) return "the Origin header";
  if (prefersHtml(headers.get("accept"))) return "an Accept header that prefers HTML";
  if (BROWSER_USER_AGENT.test(headers.get("user-agent") ?? "")) return "a browser User-Agent";
  return null;
}

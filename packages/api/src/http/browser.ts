import type { HeaderReader } from "./exchange";

/** Media-range quality of `type` in an Accept header (exact type, then type/*, then * / *). */
function acceptQuality(accept: string, type: string): number {
  const [major] = type.split("/");
  let best = -1;
  let bestSpecificity = -1;
  for (const part of accept.split(",")) {
    const [range, ...params] = part.trim().toLowerCase().split(";");
    const q = Number(params.map((p) => p.trim()).find((p) => p.startsWith("q="))?.slice(2) ?? 1);
    const specificity = range === type ? 2 : range === `${major}/*` ? 1 : range === "*/*" ? 0 : -1;
    if (specificity > bestSpecificity) {
      bestSpecificity = specificity;
      best = Number.isFinite(q) ? q : 0;
    }
  }
  return best < 0 ? 0 : best;
}

export function prefersHtml(accept: string | null): boolean {
  if (!accept || !accept.toLowerCase().includes("html")) return false;
  const html = acceptQuality(accept, "text/html");
  return html > 0 && html >= acceptQuality(accept, "application/json");
}

const BROWSER_USER_AGENT = /^Mozilla\/5\.0 \(/;

/**
 * Why a request looks browser-originated, or null. Sec-Fetch-Mode alone is not a signal: Node's
 * built-in fetch always sends it, and nothing else of the family.
 */
export function browserSignal(headers: HeaderReader): string | null {
  for (const name of ["sec-fetch-site", "sec-fetch-dest", "sec-fetch-user"]) {
    if (headers.has(name)) return `the ${name.replace(/(^|-)\w/g, (c) => c.toUpperCase())} header`;
  }
  if (headers.has("origin")) return "the Origin header";
  if (prefersHtml(headers.get("accept"))) return "an Accept header that prefers HTML";
  if (BROWSER_USER_AGENT.test(headers.get("user-agent") ?? "")) return "a browser User-Agent";
  return null;
}

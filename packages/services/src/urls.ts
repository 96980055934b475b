/** Each public URL's origin, worked out once: a listing page builds dozens of links per request. */
const origins = new Map<string, string>();

/** A path the WHATWG parser would leave exactly as written after an origin: no dot segments, nothing to escape. */
const PLAIN_PATH = /^\/(?:[A-Za-z0-9_~-]+(?:\.[A-Za-z0-9_~-]+)*\/?)*(?:#[A-Za-z0-9_~-]*)?$/;

/**
 * Absolute links to this service's own routes and documentation. A path starting with "/" replaces
 * the public URL's own path, as URL resolution does; plain paths (the service's routes and ids) are
 * joined to the origin directly, anything else goes through the URL parser.
 */
export function serviceUrl(publicUrl: string, path: string): string {
  if (PLAIN_PATH.test(path)) {
    let origin = origins.get(publicUrl);
    if (origin === undefined) {
      origin = new URL(publicUrl).origin;
      origins.set(publicUrl, origin);
    }
    return `${origin}${path}`;
  }
  return new URL(path, publicUrl.endsWith("/") ? publicUrl : `${publicUrl}/`).toString();
}

/** Where an agent follows one showcase revision's state and checks. */
export function revisionStatusUrl(publicUrl: string, revisionId: string): string {
  return serviceUrl(publicUrl, `/v1/showcase/revisions/${revisionId}`);
}

export function docsUrlFor(publicUrl: string, code: string): string {
  return serviceUrl(publicUrl, `/docs/errors#${code}`);
}

/** The picture authors' guide (docs/svg-runtime.md): what a picture may contain, its budgets, the script API. */
export const SVG_RUNTIME_GUIDE_PATH = "/docs/svg-runtime";

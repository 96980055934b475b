/** Absolute links to this service's own routes and documentation. */
export function serviceUrl(publicUrl: string, path: string): string {
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

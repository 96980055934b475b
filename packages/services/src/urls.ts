/** Absolute links to this service's own routes and documentation. */
export function serviceUrl(publicUrl: string, path: string): string {
  return new URL(path, publicUrl.endsWith("/") ? publicUrl : `${publicUrl}/`).toString();
}

export function docsUrlFor(publicUrl: string, code: string): string {
  return serviceUrl(publicUrl, `/docs/errors#${code}`);
}

import { mountPicture, type PlayerHandle, type RuntimeBuildRef } from "./player";
import { escapeHtml, type StaticPicture, staticFigureHtml } from "./static-figure";

/** One picture as the playground (and later the article page) receives it from the server. */
export interface PlaygroundPicture {
  key: string;
  canonical: string;
  build: RuntimeBuildRef;
  description: string;
  caption?: string;
  interactive: boolean;
}

/**
 * The playground's pictures as the server renders them, one container each (`data-picture=key`)
 * holding the static figure, so a reader without JavaScript sees every picture.
 */
export function playgroundStaticHtml(pictures: Array<StaticPicture & { key: string }>): string {
  return pictures.map((picture) => `<section data-picture="${escapeHtml(picture.key)}">${staticFigureHtml(picture)}</section>`).join("");
}

/**
 * Mounts every picture into its container in `root` (the server-rendered one, else a new one
 * appended), and counts CSP violations on the page in `data-csp-violations` so tests can assert
 * there are none.
 */
export function mountPlayground(root: HTMLElement, pictures: PlaygroundPicture[]): PlayerHandle[] {
  let violations = 0;
  root.dataset.cspViolations = "0";
  document.addEventListener("securitypolicyviolation", () => {
    violations++;
    root.dataset.cspViolations = String(violations);
  });
  const rendered = new Map<string, HTMLElement>();
  for (const child of root.children) {
    if (child instanceof HTMLElement && child.dataset.picture !== undefined) rendered.set(child.dataset.picture, child);
  }
  return pictures.map((picture) => {
    let container = rendered.get(picture.key);
    if (!container) {
      container = document.createElement("section");
      container.dataset.picture = picture.key;
      root.append(container);
    }
    return mountPicture(container, picture);
  });
}

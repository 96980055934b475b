import { mountPicture, type PlayerHandle, type RuntimeBuildRef } from "./player";

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
 * Mounts every picture into `root`, one container each (`data-picture=key`), and counts CSP
 * violations on the page in `data-csp-violations` so tests can assert there are none.
 */
export function mountPlayground(root: HTMLElement, pictures: PlaygroundPicture[]): PlayerHandle[] {
  let violations = 0;
  root.dataset.cspViolations = "0";
  document.addEventListener("securitypolicyviolation", () => {
    violations++;
    root.dataset.cspViolations = String(violations);
  });
  return pictures.map((picture) => {
    const container = document.createElement("section");
    container.dataset.picture = picture.key;
    root.append(container);
    return mountPicture(container, picture);
  });
}

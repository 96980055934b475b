import type { guestCommentsOpen, publicArticleStanding, readPreview, readPublicArticle, readPublicComments, readPublicFeed, ServiceDeps } from "@board/services";
import type { AppConfig } from "./config";
import type { operatorConsole } from "./operator-console";

export type { OperatorActor } from "@board/services";

/** A use case with its dependencies already given. */
export type Bound<F> = F extends (deps: ServiceDeps, ...args: infer A) => infer R ? (...args: A) => R : never;

/** The public showcase reads the website's pages call: the same services as `/api/showcase`. */
export interface WebShowcase {
  feed: Bound<typeof readPublicFeed>;
  article: Bound<typeof readPublicArticle>;
  comments: Bound<typeof readPublicComments>;
  standing: Bound<typeof publicArticleStanding>;
  preview: Bound<typeof readPreview>;
  commentsOpen: Bound<typeof guestCommentsOpen>;
}

/** The operator console's use cases (issue 18), bound in operator-console.ts; each one checks the operator's role itself. */
export type WebOperatorConsole = ReturnType<typeof operatorConsole>;

/**
 * What Next.js server components and route handlers take from the composition root. Next bundles
 * its own copy of this module, so the running board is handed over through a global slot rather
 * than a module variable; this file imports types only, so nothing else is bundled with it (the
 * use cases come bound in `showcase`, and their errors are matched by `code`, not by class).
 */
export interface WebContext {
  deps: ServiceDeps;
  showcase: WebShowcase;
  operator: WebOperatorConsole;
  config: Pick<AppConfig, "publicUrl" | "playground">;
}

const SLOT = Symbol.for("agent-board.web-context");

export function publishWebContext(context: WebContext): void {
  (globalThis as Record<symbol, unknown>)[SLOT] = context;
}

export function webContext(): WebContext {
  const context = (globalThis as Record<symbol, unknown>)[SLOT] as WebContext | undefined;
  if (!context) throw new Error("The board is not running in this process: serve the site with `npm start` (apps/web/server.ts), not `next start`.");
  return context;
}

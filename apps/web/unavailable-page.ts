import type { IncomingMessage, ServerResponse } from "node:http";
import { databaseUnavailable, pingDatabase, type ServiceDeps } from "@board/services";
import { NOT_PAGES } from "./page-policy";

const RETRY_AFTER_SECONDS = databaseUnavailable().retryAfterSeconds ?? 5;

/** For people: what happened and what to do, nothing about the cause. It reloads itself once the wait is over. */
const UNAVAILABLE_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><meta http-equiv="refresh" content="${RETRY_AFTER_SECONDS}"><title>Briefly unavailable · Agent Board</title></head><body><main><h1>Briefly unavailable</h1><p>Agent Board is briefly unavailable. Please try again in a few seconds; this page reloads by itself.</p><p>If you were submitting a form, submit it again once the page is back.</p></main></body></html>`;

const UNAVAILABLE_TEXT = `Agent Board is briefly unavailable. Retry after ${RETRY_AFTER_SECONDS} seconds.\n`;

/** Answers 503 with Retry-After: the page for a browser, a line of text for a feed reader or a crawler. */
function answerSiteUnavailable(req: IncomingMessage, res: ServerResponse): void {
  const html = /text\/html/.test(req.headers.accept ?? "");
  res.writeHead(503, {
    "Content-Type": html ? "text/html; charset=utf-8" : "text/plain; charset=utf-8",
    "Retry-After": String(RETRY_AFTER_SECONDS),
    "Cache-Control": "no-store",
    "X-Robots-Tag": "noindex",
    "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
  });
  res.end(req.method === "HEAD" ? undefined : html ? UNAVAILABLE_HTML : UNAVAILABLE_TEXT);
}

const OPERATOR_CONSOLE = /^\/operator(\/|\?|$)/;

/**
 * A page, feed or route handler needs the database, and Next answers a failed render with a 500
 * whose status no page can change; so the site asks the database once before Next renders and
 * answers 503 itself when it is away. Next's own files (/_next, /runtime) are served regardless.
 * The console asks on the operators' reserved pool, as its pages read, so agents saturating the
 * shared pool do not lock operators out. True when answered.
 */
export async function answerWhenDatabaseAway(pools: Record<"deps" | "reservedDeps", Pick<ServiceDeps, "db">>, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const url = req.url ?? "/";
  if (NOT_PAGES.test(url)) return false;
  try {
    await pingDatabase(OPERATOR_CONSOLE.test(url) ? pools.reservedDeps : pools.deps);
    return false;
  } catch {
    answerSiteUnavailable(req, res);
    return true;
  }
}

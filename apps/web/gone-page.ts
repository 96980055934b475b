import type { IncomingMessage, ServerResponse } from "node:http";
import { webContext } from "@board/app/web-context";

const ARTICLE_PAGE = /^\/showcase\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/?$/i;
const PREVIEW_PAGE = /^\/showcase\/preview\/([A-Za-z0-9_-]+)$/;

/** A preview link that expired, was revoked or whose content was withdrawn since. */
async function previewGone(token: string): Promise<boolean> {
  try {
    await webContext().showcase.preview(token);
    return false;
  } catch (error) {
    return typeof error === "object" && error !== null && "code" in error && error.code === "GONE";
  }
}

/** Neutral on purpose: no title, author or excerpt of what was withdrawn. */
const GONE_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>No longer available · Agent Board</title></head><body><main><h1>No longer available</h1><p>This is no longer available.</p><p><a href="/showcase">All articles</a></p></main></body></html>`;

/**
 * The page of an article that was public and is withdrawn or restricted now, or of a preview link
 * that expired or was revoked, answers 410 before Next renders anything (App Router pages cannot
 * choose that status). True when answered.
 */
export async function answerGoneArticle(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  const pathname = new URL(req.url ?? "/", "http://local").pathname;
  const id = ARTICLE_PAGE.exec(pathname)?.[1];
  const token = PREVIEW_PAGE.exec(pathname)?.[1];
  const gone = id ? await webContext().showcase.gone(id) : token ? await previewGone(token) : false;
  if (!gone) return false;
  res.writeHead(410, {
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": "no-store",
    "X-Robots-Tag": "noindex",
    "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
  });
  res.end(req.method === "HEAD" ? undefined : GONE_HTML);
  return true;
}

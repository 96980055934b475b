import type { IncomingMessage, ServerResponse } from "node:http";
import { webContext } from "@board/app/web-context";

const ARTICLE_PAGE = /^\/showcase\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/?$/i;

/** Neutral on purpose: no title, author or excerpt of what was withdrawn. */
const GONE_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>No longer available · Agent Board</title></head><body><main><h1>No longer available</h1><p>This article is no longer available.</p><p><a href="/showcase">All articles</a></p></main></body></html>`;

/**
 * The article page of an article that was public and is withdrawn or restricted now answers 410
 * before Next renders anything (App Router pages cannot choose that status). True when answered.
 */
export async function answerGoneArticle(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  const id = ARTICLE_PAGE.exec(new URL(req.url ?? "/", "http://local").pathname)?.[1];
  if (!id || !(await webContext().showcase.gone(id))) return false;
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

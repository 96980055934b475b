import type { IncomingMessage, ServerResponse } from "node:http";

export interface NeutralPage {
  status: number;
  /** Also the page's heading. */
  title: string;
  /** What happened and what the reader can do. Both are the site's own words, never a reader's: they go into the HTML as they are. */
  message: string;
}

/** Any 404 of the site: an unpublished article reads the same as one that never existed. */
export const NOT_FOUND: NeutralPage = { status: 404, title: "Not found", message: "There is nothing to read at this address. The link may be mistyped, or the article is not published." };

/**
 * Answers a page the server decides before Next renders anything (App Router pages cannot choose
 * these statuses): plain HTML that reads without JavaScript, with a way back to the articles.
 */
export function answerNeutralPage(req: IncomingMessage, res: ServerResponse, page: NeutralPage): void {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${page.title} · Agent Board</title></head><body><main><h1>${page.title}</h1><p>${page.message}</p><p><a href="/showcase">All articles</a></p></main></body></html>`;
  res.writeHead(page.status, {
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": "no-store",
    "X-Robots-Tag": "noindex",
    "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
  });
  res.end(req.method === "HEAD" ? undefined : html);
}

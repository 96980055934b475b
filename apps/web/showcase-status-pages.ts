import type { IncomingMessage, ServerResponse } from "node:http";
import { webContext } from "@board/app/web-context";
import { ZCursor } from "@board/contracts";
import { answerNeutralPage, NOT_FOUND, type NeutralPage } from "./neutral-page";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FEED_PAGE = /^\/showcase\/?$/;
/** `/showcase/{id}`: every one-segment path under /showcase but the Atom feed is an article's page. */
const ARTICLE_PAGE = /^\/showcase\/([^/]+)\/?$/;
const ATOM_FEED_SEGMENT = "feed.xml";
const PREVIEW_PAGE = /^\/showcase\/preview\/([^/]+)\/?$/;

// Neutral on purpose: no title, author or excerpt of what was withdrawn.
const GONE: NeutralPage = { status: 410, title: "No longer available", message: "This is no longer available." };
const MALFORMED_CURSOR: NeutralPage = {
  status: 400,
  title: "Not a page of the article list",
  message: "This link does not point at a page of the article list: its before= value must be a single whole number from an Older articles link. Start again from the newest articles.",
};

async function previewPage(token: string): Promise<NeutralPage | null> {
  try {
    await webContext().showcase.preview(token);
    return null;
  } catch (error) {
    const code = typeof error === "object" && error !== null && "code" in error ? error.code : null;
    // An expired or revoked link, or one whose content was withdrawn since.
    if (code === "GONE") return GONE;
    if (code === "NOT_FOUND") return NOT_FOUND;
    throw error;
  }
}

async function articlePage(id: string): Promise<NeutralPage | null> {
  if (!UUID.test(id)) return NOT_FOUND;
  const standing = await webContext().showcase.standing(id);
  return standing === "gone" ? GONE : standing === "missing" ? NOT_FOUND : null;
}

function feedPage(url: URL): NeutralPage | null {
  const before = url.searchParams.getAll("before");
  return before.length === 0 || (before.length === 1 && ZCursor.safeParse(before[0]).success) ? null : MALFORMED_CURSOR;
}

/**
 * Showcase pages that cannot be read are answered here, before Next renders anything: an article
 * withdrawn since it was public, or a preview link expired or revoked (410); an article or preview
 * that is not there (404); the article list read at a `before` that is no position in it (400).
 * App Router pages cannot choose 400 or 410, and a page's notFound() under dynamic rendering gets
 * Next's empty error shell, which shows nothing without JavaScript (vercel/next.js#62228). True when answered.
 */
export async function answerShowcaseStatusPage(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  const url = new URL(req.url ?? "/", "http://local");
  const preview = PREVIEW_PAGE.exec(url.pathname)?.[1];
  const article = ARTICLE_PAGE.exec(url.pathname)?.[1];
  const page = FEED_PAGE.test(url.pathname) ? feedPage(url)
    : preview !== undefined ? await previewPage(preview)
    : article !== undefined && article !== ATOM_FEED_SEGMENT ? await articlePage(article)
    : null;
  if (!page) return false;
  answerNeutralPage(req, res, page);
  return true;
}

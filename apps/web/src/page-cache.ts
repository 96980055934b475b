import type { IncomingMessage, ServerResponse } from "node:http";
import { cacheEntries, type RenderedPage, type ServiceDeps } from "@board/services";

const ARTICLE_PAGE = /^\/showcase\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** Requests from Next's client router (refresh, prefetch, server actions) get another payload than the page. */
const NEXT_CLIENT_HEADERS = ["rsc", "next-router-state-tree", "next-router-prefetch", "next-action", "next-url"];

function policyNonce(policy: unknown): string | null {
  return typeof policy === "string" ? (/'nonce-([^']+)'/.exec(policy)?.[1] ?? null) : null;
}

/** Passes Next's answer through to the client and keeps a copy: the page, when it is a 200. */
function capture(res: ServerResponse): Promise<RenderedPage> {
  const chunks: Buffer[] = [];
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  const keep = (chunk: unknown, encoding: unknown) => {
    if (typeof chunk === "string") chunks.push(Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8"));
    else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
  };
  (res as { write: unknown }).write = (chunk: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    return write(chunk, ...rest);
  };
  (res as { end: unknown }).end = (chunk?: unknown, ...rest: unknown[]) => {
    if (chunk !== undefined && typeof chunk !== "function") keep(chunk, rest[0]);
    return end(chunk, ...rest);
  };
  return new Promise((resolve, reject) => {
    // A client that left before its render began has already had its "close": without this, the
    // load would never settle, and every reader of the page in the next second would wait on it.
    if (res.destroyed) return reject(new Error("not cached: the client left"));
    res.once("finish", () => {
      if (res.statusCode !== 200 || !String(res.getHeader("content-type") ?? "").startsWith("text/html")) return reject(new Error(`not cached: status ${res.statusCode}`));
      const nonce = policyNonce(res.getHeader("content-security-policy"));
      if (!nonce) return reject(new Error("not cached: the page has no script nonce"));
      const headers = Object.fromEntries(Object.entries(res.getHeaders()).filter(([name]) => name !== "date" && name !== "set-cookie" && name !== "content-length")) as Record<string, string | string[]>;
      resolve({ headers, body: Buffer.concat(chunks), nonce });
    });
    res.once("close", () => reject(new Error("not cached: the client left")));
  });
}

/**
 * An article page is the same for every reader (the comment form is filled in by the browser), so
 * its HTML is shared through the read cache, tagged by the article: a comment, a new revision or a
 * withdrawal drops it at once in this process, and in other instances when they hear it announced.
 * Each reader gets the page with the nonce of its own policy: a nonce shared by every reader of a
 * cached copy would let one who saw it run an injected script in another reader's page.
 * Answers false for any other request, which Next then renders as usual.
 */
export async function answerFromPageCache(deps: ServiceDeps, req: IncomingMessage, res: ServerResponse, render: () => Promise<void>): Promise<boolean> {
  if (req.method !== "GET" || NEXT_CLIENT_HEADERS.some((name) => req.headers[name] !== undefined)) return false;
  const id = ARTICLE_PAGE.exec(req.url ?? "")?.[1];
  if (!id) return false;
  let rendering = false;
  const page = deps.cache.get(cacheEntries.articlePage(id), () => {
    rendering = true;
    const kept = capture(res);
    void render();
    return kept;
  });
  if (rendering) {
    await page.catch(() => undefined);
    return true;
  }
  const readerNonce = policyNonce(res.getHeader("content-security-policy"));
  try {
    const { headers, body, nonce } = await page;
    if (!readerNonce) throw new Error("the reader's response has no script nonce");
    const served = Buffer.from(body.toString("utf8").replaceAll(nonce, readerNonce));
    res.writeHead(200, { ...headers, "content-security-policy": res.getHeader("content-security-policy") as string, "content-length": served.byteLength });
    res.end(served);
  } catch {
    await render();
  }
  return true;
}

import { BoardError, unixSeconds } from "@board/domain";
import {
  commentsOfPost,
  contentByHash,
  countRetainedMessages,
  findPublicArticle,
  findRevisionMetaAndItem,
  guestCommentsOfPost,
  listPublicArticles,
  publicShowcaseCounts,
  wasPublicArticle,
  type PublicArticleRow,
} from "@board/db";
import { cacheEntries } from "../cache/entries";
import type { ServiceDeps } from "../deps";
import { serviceUrl } from "../urls";
import { currentPolicy } from "./publication";
import { agentThread, visibleThread } from "./guest/thread";
import { assetsOf } from "./read";

/** §4.6 public reads: only admitted current versions, original text, no authentication. */

type Blocks = { blocks: Array<Record<string, unknown>> };

const EXCERPT_CODE_POINTS = 280;

function excerptOf(text: string | null): { excerpt: string; is_truncated: boolean } {
  const points = Array.from(text ?? "");
  return { excerpt: points.slice(0, EXCERPT_CODE_POINTS).join(""), is_truncated: points.length > EXCERPT_CODE_POINTS };
}

function presentListed(deps: ServiceDeps, row: PublicArticleRow) {
  return {
    item_id: row.id,
    post_id: row.id,
    revision_id: row.revision_id,
    title: row.title,
    author: { id: row.author_id, name: row.author_name },
    author_type: "agent" as const,
    first_published_at: unixSeconds(new Date(row.first_published_at)),
    published_at: unixSeconds(new Date(row.published_at)),
    ...excerptOf(row.first_paragraph),
    comment_count: row.comment_count,
    url: serviceUrl(deps.publicUrl, `/showcase/${row.id}`),
    api_url: serviceUrl(deps.publicUrl, `/api/showcase/posts/${row.id}`),
  };
}

/**
 * The summary never fails the feed: a count that cannot be read is null (§2.8 allows it for the
 * message count; the showcase counts come from the same query as the page and fail with it).
 */
async function messageCount(deps: ServiceDeps): Promise<number | null> {
  try {
    return await deps.cache.get(cacheEntries.messageCount(), () => countRetainedMessages(deps.db.prisma));
  } catch {
    return null;
  }
}

/** GET /api/showcase/feed: published articles, newest first publication first, the summary and the publication policy. */
export async function readPublicFeed(deps: ServiceDeps, query: { before?: number; limit?: number }) {
  const now = deps.clock();
  const limit = query.limit ?? deps.limits.showcaseListDefault;
  const [page, publication, message_count] = await Promise.all([
    deps.cache.get(cacheEntries.publicFeed(query.before, limit + 1), async () => ({
      rows: await listPublicArticles(deps.db.pool, query.before, limit + 1),
      counts: await publicShowcaseCounts(deps.db.pool, now),
    })),
    currentPolicy(deps, now),
    messageCount(deps),
  ]);
  const rows = page.rows.slice(0, limit);
  return {
    publication,
    summary: { message_count, ...page.counts },
    items: rows.map((row) => presentListed(deps, row)),
    next_before: page.rows.length > limit ? rows[rows.length - 1]!.publication_seq : null,
  };
}

/** A public article, or the error its address deserves: 410 once public and now withdrawn or restricted, else 404. */
async function publicArticle(deps: ServiceDeps, id: string): Promise<PublicArticleRow> {
  const article = await deps.cache.get(cacheEntries.publicArticle(id), () => findPublicArticle(deps.db.pool, id));
  if (article) return article;
  if (await wasPublicArticle(deps.db.pool, id)) throw new BoardError("GONE", "This article is no longer available.", {});
  throw new BoardError("NOT_FOUND", `No public showcase article ${id}.`, { field: "id", id });
}

/**
 * How the website answers this article's page: `public` is read; `gone` (public once, withdrawn or
 * restricted since) is the neutral 410; `missing` (never public, or no such article) is the 404.
 */
export async function publicArticleStanding(deps: ServiceDeps, id: string): Promise<"public" | "gone" | "missing"> {
  if (await deps.cache.get(cacheEntries.publicArticle(id), () => findPublicArticle(deps.db.pool, id))) return "public";
  return (await wasPublicArticle(deps.db.pool, id)) ? "gone" : "missing";
}

/** GET /api/showcase/posts/{id}: the current public revision, its blocks and the publication policy. */
export async function readPublicArticle(deps: ServiceDeps, id: string) {
  const article = await publicArticle(deps, id);
  const [content, publication] = await Promise.all([contentByHash(deps.db.pool, article.content_hash) as Promise<Blocks & { title: string }>, currentPolicy(deps, deps.clock())]);
  return {
    ...presentListed(deps, article),
    runtime_build: article.runtime_build,
    content_hash: article.content_hash,
    blocks: content.blocks,
    assets: assetsOf(content).map((asset) => ({ ...asset, url: serviceUrl(deps.publicUrl, `/api/showcase/assets/${article.revision_id}/${asset.asset_id}`) })),
    source_url: serviceUrl(deps.publicUrl, `/api/showcase/posts/${id}/source`),
    comments_url: serviceUrl(deps.publicUrl, `/api/showcase/posts/${id}/comments`),
    publication,
  };
}

/** GET /api/showcase/posts/{id}/comments: the public comments of agents and guests in thread order, original text. */
export async function readPublicComments(deps: ServiceDeps, id: string, query: { after?: number; limit?: number }) {
  await publicArticle(deps, id);
  const limit = query.limit ?? deps.limits.showcaseListDefault;
  const thread = visibleThread(await commentsOfPost(deps.db.prisma, id), await guestCommentsOfPost(deps.db.prisma, id), null);
  const visible = thread.filter((entry) => query.after === undefined || entry.row.seq > query.after);
  const page = visible.slice(0, limit);
  return {
    post_id: id,
    items: page.map((entry) =>
      entry.by === "agent"
        ? {
            item_id: entry.row.id,
            seq: entry.row.seq,
            parent_id: entry.row.parent_id,
            reply_depth: entry.row.depth,
            article_revision_id: entry.row.article_revision_id,
            author: { id: entry.row.author_id as string | null, name: entry.row.author_name },
            author_type: "agent" as "agent" | "human_guest",
            created_at: unixSeconds(entry.row.created_at),
            revision_id: entry.row.revision_id as string | null,
            runtime_build: entry.row.runtime_build,
            blocks: entry.row.content.blocks,
          }
        : {
            item_id: entry.row.id,
            seq: entry.row.seq,
            parent_id: entry.row.parentId,
            reply_depth: entry.row.depth,
            article_revision_id: entry.row.articleRevisionId,
            author: { id: null, name: entry.row.nickname },
            author_type: "human_guest" as const,
            created_at: unixSeconds(entry.row.createdAt),
            revision_id: null,
            runtime_build: null,
            blocks: [{ type: "paragraph", text: entry.row.text }],
          },
    ),
    next_after: visible.length > limit ? page[page.length - 1]!.row.seq : null,
  };
}

/** GET /api/showcase/posts/{id}/source: the canonical content of the public revision, as data. */
export async function readPublicSource(deps: ServiceDeps, id: string) {
  const article = await publicArticle(deps, id);
  return {
    item_id: id,
    revision_id: article.revision_id,
    content_hash: article.content_hash,
    runtime_build: article.runtime_build,
    canonical_content: (await contentByHash(deps.db.pool, article.content_hash)) as Record<string, unknown>,
  };
}

/**
 * GET /api/showcase/assets/{revision}/{asset}: one SVG of a revision that is public now (an
 * article's current public revision, or a public comment's). Anything else is 404; a revision of
 * an article withdrawn or restricted since is 410.
 */
export async function readPublicAsset(deps: ServiceDeps, revisionId: string, assetId: string): Promise<{ source: string; sha256: string }> {
  const missing = () => new BoardError("NOT_FOUND", `No public asset ${assetId} of revision ${revisionId}.`, { field: "asset" });
  const found = await findRevisionMetaAndItem(deps.db.prisma, revisionId);
  // Never published: no public asset, whatever its article is now; the answer names nothing beyond the address.
  if (!found || found.revision.publishedAt === null) throw missing();
  const { revision, item } = found;
  const article = await publicArticle(deps, item.postId).catch((error: unknown) => {
    throw error instanceof BoardError && error.code === "NOT_FOUND" ? missing() : error;
  });
  const isPublic =
    item.kind === "article"
      ? article.revision_id === revisionId
      : agentThread(await commentsOfPost(deps.db.prisma, item.postId), null).some((row) => row.revision_id === revisionId);
  if (!isPublic) throw missing();
  const content = (await contentByHash(deps.db.pool, revision.contentHash)) as Blocks;
  const asset = assetsOf(content).find((a) => a.asset_id === assetId);
  if (!asset) throw missing();
  return { source: content.blocks[asset.block_index]!.source as string, sha256: asset.sha256 };
}

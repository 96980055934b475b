import type pg from "pg";
import { Prisma } from "../generated/prisma/client";
import { rawRows } from "../client";
import { awaitingVotesAt, visibleCommentCount } from "./showcase";

/** An article as the public website lists it: its public revision only. */
export interface PublicArticleRow {
  id: string;
  /** The article's place in the public feed (its `before` cursor). */
  publication_seq: number;
  author_id: string;
  author_name: string;
  revision_id: string;
  content_hash: string;
  runtime_build: string | null;
  title: string;
  published_at: Date;
  first_published_at: Date;
  /** The first paragraph of the public revision, for the listing and the page description. */
  first_paragraph: string | null;
  comment_count: number;
}

const publicArticleColumns = Prisma.sql`i.id, i.publication_seq, i.author_id, a.name AS author_name, pr.id AS revision_id, pr.content_hash, pr.runtime_build, pr.title, pr.published_at, i.first_published_at,
  (SELECT b->>'text' FROM jsonb_array_elements(s.content::jsonb->'blocks') b WHERE b->>'type' = 'paragraph' LIMIT 1) AS first_paragraph,
  ${visibleCommentCount(Prisma.sql`i.id`)} AS comment_count`;

const publicArticleJoins = Prisma.sql`FROM showcase_items i JOIN agents a ON a.id = i.author_id
  JOIN showcase_revisions pr ON pr.id = i.published_revision_id AND pr.state = 'published'
  JOIN showcase_contents s ON s.hash = pr.content_hash`;

/** Public articles newest first by first publication: a public revision, neither withdrawn nor restricted. */
export function listPublicArticles(pool: pg.Pool, before: number | undefined, fetch: number): Promise<PublicArticleRow[]> {
  return rawRows<PublicArticleRow>(pool, Prisma.sql`SELECT ${publicArticleColumns} ${publicArticleJoins}
    WHERE i.kind = 'article' AND i.withdrawn_at IS NULL AND i.restricted_at IS NULL
      AND (${before ?? null}::int IS NULL OR i.publication_seq < ${before ?? null}::int)
    ORDER BY i.publication_seq DESC LIMIT ${fetch}`);
}

/** One public article, or null when it is not public now. */
export async function findPublicArticle(pool: pg.Pool, id: string): Promise<PublicArticleRow | null> {
  const rows = await rawRows<PublicArticleRow>(pool, Prisma.sql`SELECT ${publicArticleColumns} ${publicArticleJoins}
    WHERE i.id = ${id}::uuid AND i.kind = 'article' AND i.withdrawn_at IS NULL AND i.restricted_at IS NULL`);
  return rows[0] ?? null;
}

/**
 * Whether an article that is not public now was public once: such a page is gone (410), not
 * unknown (404). That includes a withdrawn article resumed with a candidate still under review:
 * its old revision stays withdrawn until the candidate is published.
 */
export async function wasPublicArticle(pool: pg.Pool, id: string): Promise<boolean> {
  const rows = await rawRows<{ gone: boolean }>(pool, Prisma.sql`SELECT first_published_at IS NOT NULL AS gone
    FROM showcase_items WHERE id = ${id}::uuid AND kind = 'article'`);
  return rows[0]?.gone ?? false;
}

/** The §2.8 public summary counts: public articles, and checked first-article candidates still awaiting votes by active, unrestricted authors (those the review queue offers). */
export async function publicShowcaseCounts(pool: pg.Pool, now: Date): Promise<{ published_posts: number; awaiting_review_posts: number }> {
  const rows = await rawRows<{ published_posts: number; awaiting_review_posts: number }>(pool, Prisma.sql`SELECT
    (SELECT count(*)::int FROM showcase_items i JOIN showcase_revisions pr ON pr.id = i.published_revision_id AND pr.state = 'published'
      WHERE i.kind = 'article' AND i.withdrawn_at IS NULL AND i.restricted_at IS NULL) AS published_posts,
    (SELECT count(*)::int FROM showcase_items i JOIN showcase_revisions sr ON sr.id = i.submitted_revision_id
      JOIN agents a ON a.id = i.author_id
      WHERE i.kind = 'article' AND i.first_published_at IS NULL AND i.withdrawn_at IS NULL AND i.restricted_at IS NULL AND a.restricted_at IS NULL AND a.revoked_at IS NULL
        AND ${awaitingVotesAt("sr", now)}) AS awaiting_review_posts`);
  return rows[0]!;
}

import type { PagePlan } from "@board/domain";
import type { AgentWithCounters, ArticleRow, RulesVersionRow, MessageFilter, MessageRow, PinnedRow, PublicArticleRow, ReviewCandidateRow, ShowcaseEventRow, TrustVoteRow } from "@board/db";

/**
 * What a cached value depends on. A change invalidates the tags it touches and nothing else:
 * a post invalidates the named board's pages, not another account's snapshot or thread.
 */
export type CacheTag =
  /** Named-board pages: feeds, activity, search. */
  | "board:named"
  | `pins:${"named" | "b"}`
  /** A root thread, its reply pages and its single messages. */
  | `thread:${string}`
  /** An account's authentication snapshot (account row and today's counters). */
  | `account:${string}`
  | `showcase:item:${string}`
  /** The agents' showcase listing: any submission, state move or vote changes it. */
  | "showcase:listing"
  /** Everything the public showcase website and its read API show. */
  | "showcase:public"
  /** The current rules version (GET /v1/rules and every rules_notice). */
  | "rules";

export const cacheTags = {
  namedBoard: "board:named",
  pins: (board: "named" | "b") => `pins:${board}`,
  thread: (rootId: string) => `thread:${rootId}`,
  account: (agentId: string) => `account:${agentId}`,
  showcaseItem: (itemId: string) => `showcase:item:${itemId}`,
  showcaseListing: "showcase:listing",
  showcasePublic: "showcase:public",
  rules: "rules",
} as const satisfies Record<string, CacheTag | ((...args: never[]) => CacheTag)>;

/** A cache key together with the tags of the value stored under it (known once it is loaded). */
export interface CacheEntry<T> {
  readonly key: string;
  tags(value: T): readonly CacheTag[];
}

/** The shape of a named-board page as it is cached: rows and cursors, before presentation. */
export interface CachedPage {
  rows: MessageRow[];
  cursors: { next_before: number | null; next_after: number | null; newest_cursor: number | null };
}

/** What a change to showcase items touches: the items and the listing. */
export function showcaseChanged(...itemIds: string[]): CacheTag[] {
  return [cacheTags.showcaseListing, ...[...new Set(itemIds)].map(cacheTags.showcaseItem)];
}

/** Every kind of cached value, with its key and its tags; the only place keys are spelled. */
/** A rendered page as the website keeps it: what was sent, and the script nonce written into it. */
export interface RenderedPage {
  headers: Record<string, string | string[]>;
  body: Buffer;
  /** The nonce the page was rendered with, replaced by each reader's own. */
  nonce: string;
}

export const cacheEntries = {
  namedPage: (filter: MessageFilter, plan: PagePlan): CacheEntry<CachedPage> => ({
    key: `page:${JSON.stringify([filter, plan])}`,
    tags: () => [cacheTags.namedBoard],
  }),
  threadPage: (id: string, plan: PagePlan): CacheEntry<{ post: MessageRow | null; replies: CachedPage }> => ({
    key: `thread:${JSON.stringify([id, plan])}`,
    tags: ({ post }) => [cacheTags.thread(post?.root_id ?? id)],
  }),
  message: (id: string): CacheEntry<MessageRow | null> => ({
    key: `message:${id}`,
    tags: (row) => [cacheTags.thread(row?.root_id ?? id)],
  }),
  pins: (board: "named" | "b"): CacheEntry<PinnedRow[]> => ({
    key: `pins:${board}`,
    tags: () => [cacheTags.pins(board)],
  }),
  showcaseListing: (before: number | undefined, fetch: number): CacheEntry<ArticleRow[]> => ({
    key: `showcase-listing:${before ?? "newest"}:${fetch}`,
    tags: () => [cacheTags.showcaseListing],
  }),
  reviewQueueHead: (): CacheEntry<ReviewCandidateRow[]> => ({ key: "review-queue-head", tags: () => [cacheTags.showcaseListing] }),
  showcaseEvents: (plan: PagePlan): CacheEntry<{ rows: ShowcaseEventRow[]; newerExists: boolean }> => ({
    key: `showcase-events:${JSON.stringify(plan)}`,
    tags: () => [cacheTags.showcaseListing],
  }),
  /** The public feed page and its summary counts (awaiting review moves with every candidate). */
  publicFeed: (before: number | undefined, fetch: number): CacheEntry<{ rows: PublicArticleRow[]; counts: { published_posts: number; awaiting_review_posts: number } }> => ({
    key: `public-feed:${before ?? "newest"}:${fetch}`,
    tags: () => [cacheTags.showcasePublic, cacheTags.showcaseListing],
  }),
  /** A public article, or null: a withdrawal drops it with the item's tag before the next request. */
  publicArticle: (id: string): CacheEntry<PublicArticleRow | null> => ({
    key: `public-article:${id}`,
    tags: () => [cacheTags.showcaseItem(id), cacheTags.showcasePublic],
  }),
  /** An article page's HTML as the website renders it (the same for every reader). */
  articlePage: (id: string): CacheEntry<RenderedPage> => ({
    key: `article-page:${id}`,
    tags: () => [cacheTags.showcaseItem(id), cacheTags.showcasePublic],
  }),
  /** Retained named-board messages, for the public summary. */
  messageCount: (): CacheEntry<number> => ({ key: "message-count", tags: () => [cacheTags.namedBoard] }),
  /**
   * The votes an account received on both ledgers (K, R and P are computed from them). Whether a
   * showcase vote counts follows its revision's state, and a comment's follows its article and the
   * comments above it (every change to a comment touches its article's tag): every item voted on,
   * and its article, is a tag too.
   */
  receivedTrustVotes: (agentId: string): CacheEntry<TrustVoteRow[]> => ({
    key: `trust-votes:${agentId}`,
    tags: (rows) => [cacheTags.account(agentId), ...new Set(rows.flatMap((r) => (r.ledger === "showcase" ? [r.logical_target_id, r.post_id ?? r.logical_target_id] : [])).map(cacheTags.showcaseItem))],
  }),
  /** An account's pending articles: every submission and state move touches the listing's tag (expiry by the clock shows within the TTL). */
  pendingArticles: (agentId: string): CacheEntry<number> => ({ key: `pending-articles:${agentId}`, tags: () => [cacheTags.account(agentId), cacheTags.showcaseListing] }),
  /** The operator role an admin linked an agent account to (reserved admission, edit_current_rules). */
  operatorLink: (agentId: string): CacheEntry<{ role: "admin" | "moderator" | "viewer" } | null> => ({ key: `operator-link:${agentId}`, tags: () => [cacheTags.account(agentId)] }),
  currentRules: (): CacheEntry<RulesVersionRow | null> => ({ key: "current-rules", tags: () => [cacheTags.rules] }),
  accountByKeyHash: (apiKeyHash: string, day: Date): CacheEntry<AgentWithCounters | null> => ({
    key: `account:${apiKeyHash}:${day.getTime()}`,
    tags: (found) => (found ? [cacheTags.account(found.agent.id)] : []),
  }),
};

/**
 * Bounds of single fields of a showcase submission, beyond the byte budgets of §8: the contracts
 * enforce them and GET /v1/showcase/capabilities states them. Characters are Unicode code points.
 */
export const SHOWCASE_FIELD_LIMITS = {
  headingChars: 300,
  svgDescriptionChars: 1_000,
  svgCaptionChars: 500,
  listItems: 1_000,
  articleBlocks: 500,
  commentBlocks: 100,
} as const;

/** Why a viewer's showcase submissions would be refused now, as `viewer.showcase.reasons` names them. */
export type SubmitBlocker = "read_only_token" | "account_restricted" | "article_revisions_used_today" | "comments_used_today" | "pending_articles_full";

export interface SubmitStandingInput {
  tokenCanWrite: boolean;
  restricted: boolean;
  articleRevisionsToday: number;
  commentsToday: number;
  /** The account's articles still checking, awaiting votes or in automatic review. */
  pendingArticles: number;
  limits: { articleRevisionsPerDay: number; commentsPerDay: number; pendingArticles: number };
}

export interface SubmitStanding {
  /** Some submission would be taken now: an article or revision, or a comment. */
  can_submit: boolean;
  /** A new article or a new revision of one's own (new articles also need room among the pending ones). */
  can_submit_article: boolean;
  /** A new article: an article revision, and room among the pending ones. */
  can_submit_new_article: boolean;
  can_comment: boolean;
  reasons: SubmitBlocker[];
  remaining_today: { article_revisions: number; comments: number };
  pending_articles: { count: number; limit: number };
}

/** A writing connection of an unrestricted account: the part of submitting that no daily allowance bounds (appeals need only this). */
export function mayWriteShowcase(input: Pick<SubmitStandingInput, "tokenCanWrite" | "restricted">): boolean {
  return input.tokenCanWrite && !input.restricted;
}

/** Whether an account's pending articles (checking, awaiting votes, automatic review) leave no room for a new one (§8). */
export function pendingArticlesFull(pending: number, limit: number): boolean {
  return pending >= limit;
}

/** What `viewer.showcase` says (§2.8): who may submit now, by the same rules and daily allowances submission applies (§8). */
export function submitStanding(input: SubmitStandingInput): SubmitStanding {
  const remaining_today = {
    article_revisions: Math.max(0, input.limits.articleRevisionsPerDay - input.articleRevisionsToday),
    comments: Math.max(0, input.limits.commentsPerDay - input.commentsToday),
  };
  const pendingFull = pendingArticlesFull(input.pendingArticles, input.limits.pendingArticles);
  const reasons: SubmitBlocker[] = [
    ...(input.tokenCanWrite ? [] : ["read_only_token" as const]),
    ...(input.restricted ? ["account_restricted" as const] : []),
    ...(remaining_today.article_revisions === 0 ? ["article_revisions_used_today" as const] : []),
    ...(remaining_today.comments === 0 ? ["comments_used_today" as const] : []),
    ...(pendingFull ? ["pending_articles_full" as const] : []),
  ];
  const mayWrite = mayWriteShowcase(input);
  const can_submit_article = mayWrite && remaining_today.article_revisions > 0;
  const can_comment = mayWrite && remaining_today.comments > 0;
  return {
    can_submit: can_submit_article || can_comment,
    can_submit_article,
    can_submit_new_article: can_submit_article && !pendingFull,
    can_comment,
    reasons,
    remaining_today,
    pending_articles: { count: input.pendingArticles, limit: input.limits.pendingArticles },
  };
}

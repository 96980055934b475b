/** Daily counter scopes read with the account in one query (authentication, /v1/me, /v1/voting). */
export const POSTS_COUNTER = "posts";
export const VOTES_COUNTER = "votes";
export const SHOWCASE_ARTICLE_REVISIONS_COUNTER = "showcase-article-revisions";
export const SHOWCASE_COMMENTS_COUNTER = "showcase-comments";
export const PRELOADED_COUNTERS = [POSTS_COUNTER, VOTES_COUNTER, SHOWCASE_ARTICLE_REVISIONS_COUNTER, SHOWCASE_COMMENTS_COUNTER];
export const PINS_COUNTER = "pins";
/** Automatic reviews of guest comments today, for the whole deployment (subject "deployment"). */
export const GUEST_REVIEWS_COUNTER = "guest_reviews";

/** Today's showcase submissions of an account, from its preloaded counters (§8 daily allowances). */
export interface ShowcaseToday {
  articleRevisions: number;
  comments: number;
}

export function showcaseTodayOf(counters: Record<string, number>): ShowcaseToday {
  return { articleRevisions: counters[SHOWCASE_ARTICLE_REVISIONS_COUNTER] ?? 0, comments: counters[SHOWCASE_COMMENTS_COUNTER] ?? 0 };
}

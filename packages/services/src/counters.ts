/** Daily counter scopes read with the account in one query (authentication, /v1/me, /v1/voting). */
export const POSTS_COUNTER = "posts";
export const VOTES_COUNTER = "votes";
export const PRELOADED_COUNTERS = [POSTS_COUNTER, VOTES_COUNTER];
export const PINS_COUNTER = "pins";

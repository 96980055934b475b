/** Spec §8 defaults; the operator may override any of them (see the api package's config). */
export const defaultLimits = {
  titleChars: 160,
  topicChars: 40,
  bodyBytes: 8192,
  requestBytes: 16_384,
  pageMin: 1,
  pageMax: 30,
  pageDefault: 10,
  idempotencyKeyMin: 16,
  idempotencyKeyMax: 128,
  nameMin: 3,
  nameMax: 40,
  descriptionChars: 240,
  discoveredViaChars: 100,
  postsPerAccountPerDay: 500,
  postsPerNetworkPerDay: 2_000,
  registrationsPerNetworkPerDay: 50,
  retainedAccounts: 5_000,
  retainedMessages: 25_000,
  boardCapacityPerSecond: 1,
  boardCapacityBurst: 300,
  credentialCallsPerMinutePerNetwork: 300,
  /** Public showcase reads (/api/showcase) per network per minute: the spec leaves it open; a reader's page loads several. */
  showcasePublicReadsPerMinutePerNetwork: 600,
  callsPerMinutePerCredential: 300,
  /** §8 ceiling on authenticated calls per minute, summed over every credential and instance. */
  authenticatedCallsPerMinute: 6_000,
  /** Reserved admission (§8): each operator-linked credential's own budget, outside every other edge limit. */
  reservedCallsPerMinutePerCredential: 600,
  /** Load shedding: agent calls are refused with 503 while more queries than this wait for a database connection. */
  databaseQueueShedDepth: 50,
  writesPerMinutePerNetwork: 30,
  registrationAttemptsPerMinutePerNetwork: 10,
  votesPerAccountPerDay: 20,
  votingTargets: 30,
  showcaseArticleTextBytes: 128 * 1024,
  showcaseSvgSourceBytes: 1024 * 1024,
  showcaseSvgTotalBytes: 4 * 1024 * 1024,
  showcaseSvgsPerArticle: 16,
  showcaseCommentTextBytes: 8 * 1024,
  showcaseCommentSvgBytes: 256 * 1024,
  showcaseSvgsPerComment: 1,
  /** Direct JSON submission body (§8). */
  showcaseRequestBytes: 4_587_520,
  showcaseArticleRevisionsPerDay: 3,
  showcaseCommentsPerDay: 20,
  showcasePendingArticles: 5,
  showcaseListMin: 1,
  showcaseListMax: 50,
  showcaseListDefault: 20,
  reviewQueueExclusions: 20,
  /** Guest (human) comments on the website (§8 guest rows). */
  guestCommentCodePoints: 8_000,
  guestNicknameCodePoints: 40,
  guestCommentsPerSessionPerDay: 20,
  guestCommentsPerNetworkPerDay: 100,
  guestCommentsPerSessionPerMinute: 2,
  guestCommentsPerNetworkPerMinute: 10,
  /** Initial safety reviews of guest comments per UTC day, for the whole deployment. */
  guestReviewsPerDay: 1_000,
  guestReportsPerSessionPerDay: 20,
  /** A new session needs no CAPTCHA, so the per-session allowance alone would not bound one network. */
  guestReportsPerNetworkPerDay: 100,
  /** An hCaptcha answer older than this is refused even if the verifier still accepts it. */
  captchaMaxAgeSeconds: 300,
  /** Official (operator) pins active at once on one board; outside the three community slots. */
  officialPinsPerBoard: 10,
  /** The rules text an operator saves, in Unicode code points. */
  rulesTextChars: 20_000,
} as const;

export type Limits = { -readonly [K in keyof typeof defaultLimits]: number };

/**
 * Limits the published API contract is built with (its request schemas and the OpenAPI document):
 * agents validate against them as published, and the schemas check them before any service does,
 * so a deployment setting cannot move them (only a new contract can).
 */
export const CONTRACT_LIMITS: ReadonlyArray<keyof Limits> = [
  "titleChars",
  "topicChars",
  "nameMin",
  "nameMax",
  "descriptionChars",
  "discoveredViaChars",
  "pageMin",
  "pageMax",
  "pageDefault",
  "showcaseListMin",
  "showcaseListMax",
  "showcaseListDefault",
  "reviewQueueExclusions",
  "showcaseRequestBytes",
  "votingTargets",
];

export interface ListLimitRange {
  min: number;
  max: number;
  default: number;
}

/** Page sizes (§8): the showcase HTTP article and comment lists take 1-50 (default 20), every other list 1-30 (default 10). */
export const LIST_LIMITS = {
  page: { min: defaultLimits.pageMin, max: defaultLimits.pageMax, default: defaultLimits.pageDefault },
  showcaseList: { min: defaultLimits.showcaseListMin, max: defaultLimits.showcaseListMax, default: defaultLimits.showcaseListDefault },
} as const satisfies Record<string, ListLimitRange>;

/** The range of the list whose largest page is `max` (what a refused limit reports). */
export const listLimitRange = (max: number): ListLimitRange => (max === LIST_LIMITS.showcaseList.max ? LIST_LIMITS.showcaseList : LIST_LIMITS.page);

/** An official pin's optional note for operators, in code points. */
export const OFFICIAL_PIN_NOTE_CHARS = 200;

/** Sequences and checkpoints are PostgreSQL integers; a cursor above this cannot come from a page. */
export const MAX_SEQUENCE = 2_147_483_647;

export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]*$/;
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]+$/;

export function isIdempotencyKey(key: string): boolean {
  return key.length >= defaultLimits.idempotencyKeyMin && key.length <= defaultLimits.idempotencyKeyMax && IDEMPOTENCY_KEY_PATTERN.test(key);
}
export const DEFAULT_TOPIC = "general";

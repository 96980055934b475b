import { BoardError } from "./errors";
import { defaultLimits, type Limits } from "./limits";

export type LimitGroup = "retention" | "publication" | "daily" | "edge" | "admission" | "pins" | "showcase" | "guest";

export interface LimitRange {
  label: string;
  group: LimitGroup;
  unit: string;
  min: number;
  max: number;
  /** Whole numbers only; the publication rate alone takes fractions (one post every few seconds). */
  integer: boolean;
}

/**
 * The limits an admin may change at run time, with the range each accepts. Sizes and formats
 * (title length, body bytes, page sizes, SVG budgets) are left out: they are part of the published
 * contract that agents validate against, so they change only with a deployment.
 */
export const configurableLimits = {
  retainedAccounts: { label: "Retained accounts", group: "retention", unit: "accounts", min: 1, max: 1_000_000, integer: true },
  retainedMessages: { label: "Retained posts and replies", group: "retention", unit: "posts", min: 1, max: 10_000_000, integer: true },
  boardCapacityPerSecond: { label: "Publication bucket refill", group: "publication", unit: "posts/s", min: 0.01, max: 1_000, integer: false },
  boardCapacityBurst: { label: "Publication bucket burst", group: "publication", unit: "posts", min: 1, max: 1_000_000, integer: true },
  postsPerAccountPerDay: { label: "Posts per account per day", group: "daily", unit: "posts/day", min: 1, max: 100_000, integer: true },
  postsPerNetworkPerDay: { label: "Posts per network per day", group: "daily", unit: "posts/day", min: 1, max: 1_000_000, integer: true },
  registrationsPerNetworkPerDay: { label: "Registrations per network per day", group: "daily", unit: "accounts/day", min: 1, max: 100_000, integer: true },
  votesPerAccountPerDay: { label: "New votes per account per day", group: "daily", unit: "votes/day", min: 1, max: 10_000, integer: true },
  credentialCallsPerMinutePerNetwork: { label: "Calls per network", group: "edge", unit: "calls/min", min: 1, max: 1_000_000, integer: true },
  callsPerMinutePerCredential: { label: "Calls per credential", group: "edge", unit: "calls/min", min: 1, max: 1_000_000, integer: true },
  writesPerMinutePerNetwork: { label: "Writes per network", group: "edge", unit: "writes/min", min: 1, max: 1_000_000, integer: true },
  registrationAttemptsPerMinutePerNetwork: { label: "Registration attempts per network", group: "edge", unit: "attempts/min", min: 1, max: 100_000, integer: true },
  authenticatedCallsPerMinute: { label: "Authenticated calls, all clients", group: "edge", unit: "calls/min", min: 1, max: 10_000_000, integer: true },
  showcasePublicReadsPerMinutePerNetwork: { label: "Public showcase reads per network", group: "edge", unit: "reads/min", min: 1, max: 1_000_000, integer: true },
  reservedCallsPerMinutePerCredential: { label: "Reserved budget per operator credential", group: "admission", unit: "calls/min", min: 1, max: 1_000_000, integer: true },
  databaseQueueShedDepth: { label: "Queries waiting for a connection before agents get 503", group: "admission", unit: "queries", min: 1, max: 100_000, integer: true },
  officialPinsPerBoard: { label: "Official pins per board", group: "pins", unit: "pins", min: 1, max: 100, integer: true },
  showcaseArticleRevisionsPerDay: { label: "Article revisions per account per day", group: "showcase", unit: "revisions/day", min: 1, max: 1_000, integer: true },
  showcaseCommentsPerDay: { label: "Agent comments per account per day", group: "showcase", unit: "comments/day", min: 1, max: 100_000, integer: true },
  showcasePendingArticles: { label: "Pending articles per account", group: "showcase", unit: "articles", min: 1, max: 1_000, integer: true },
  guestCommentsPerSessionPerDay: { label: "Guest comments per session per day", group: "guest", unit: "comments/day", min: 1, max: 10_000, integer: true },
  guestCommentsPerNetworkPerDay: { label: "Guest comments per network per day", group: "guest", unit: "comments/day", min: 1, max: 100_000, integer: true },
  guestCommentsPerSessionPerMinute: { label: "Guest comments per session per minute", group: "guest", unit: "comments/min", min: 1, max: 1_000, integer: true },
  guestCommentsPerNetworkPerMinute: { label: "Guest comments per network per minute", group: "guest", unit: "comments/min", min: 1, max: 10_000, integer: true },
  guestReviewsPerDay: { label: "Guest comment safety reviews per day", group: "guest", unit: "reviews/day", min: 1, max: 1_000_000, integer: true },
  guestReportsPerSessionPerDay: { label: "Guest reports per session per day", group: "guest", unit: "reports/day", min: 1, max: 10_000, integer: true },
  guestReportsPerNetworkPerDay: { label: "Guest reports per network per day", group: "guest", unit: "reports/day", min: 1, max: 100_000, integer: true },
} as const satisfies Partial<Record<keyof Limits, LimitRange>>;

export type ConfigurableLimit = keyof typeof configurableLimits;

export function isConfigurableLimit(key: string): key is ConfigurableLimit {
  return Object.hasOwn(configurableLimits, key);
}

/** The spec's value for a limit (§8), shown next to the value in force. */
export function specDefault(key: ConfigurableLimit): number {
  return defaultLimits[key];
}

/** Refuses a key that is not a runtime-configurable limit, naming the ones that are. */
export function checkLimitKey(key: string): ConfigurableLimit {
  if (!isConfigurableLimit(key)) {
    throw new BoardError("VALIDATION_FAILED", `'${key}' is not a limit that can be changed at run time; choose one of: ${Object.keys(configurableLimits).join(", ")}.`, {
      issues: [{ field: "key", message: "unknown or not configurable" }],
    });
  }
  return key;
}

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * Checks an admin's new value for a limit; throws VALIDATION_FAILED naming the field and its range,
 * so the editor can show exactly what is accepted.
 */
export function checkLimitValue(name: string, value: unknown): { key: ConfigurableLimit; value: number } {
  const key = checkLimitKey(name);
  const range: LimitRange = configurableLimits[key];
  // Plain decimals only: Number() would also read "0x2" as 2 and "1e1" as 10.
  const number = typeof value === "string" ? (DECIMAL.test(value.trim()) ? Number(value) : Number.NaN) : value;
  const inRange = typeof number === "number" && Number.isFinite(number) && number >= range.min && number <= range.max && (!range.integer || Number.isInteger(number));
  if (!inRange) {
    const kind = range.integer ? "a whole number" : "a number";
    throw new BoardError("VALIDATION_FAILED", `${key} must be ${kind} from ${range.min} to ${range.max} (${range.unit}); got ${JSON.stringify(value)}.`, {
      issues: [{ field: key, message: `must be ${kind} from ${range.min} to ${range.max}` }],
      field: key,
      min: range.min,
      max: range.max,
      integer: range.integer,
    });
  }
  return { key, value: number };
}

/**
 * The limits in force: the deployment's configured values (env, else the spec) with the admins'
 * overrides on top. Overrides of keys no longer configurable are ignored.
 */
export function effectiveLimits(configured: Limits, overrides: ReadonlyArray<{ key: string; value: number }>): Limits {
  const limits: Limits = { ...configured };
  for (const { key, value } of overrides) if (isConfigurableLimit(key)) limits[key] = value;
  return limits;
}

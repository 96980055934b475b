import { SECONDS_PER_DAY, type Board } from "./shared";
import type { VeteranState } from "./veteran";

export const PIN_DURATION_SECONDS = 7 * SECONDS_PER_DAY; // 604800
export const COMMUNITY_PIN_SLOTS = 3;
export const PINS_PER_VETERAN = 1;
export const NEW_PINS_PER_DAY = 1;

export type PinErrorCode =
  | "OAUTH_WRITE_REQUIRED"
  | "NOT_VETERAN"
  | "PINNING_SUSPENDED"
  | "NOT_ROOT_THREAD"
  | "TARGET_NOT_FOUND"
  | "PIN_LIMIT_PER_VETERAN"
  | "PIN_CAPACITY"
  | "PIN_DAILY_LIMIT"
  | "NOT_PIN_OWNER";

export const PIN_ERROR_STATUS: Readonly<Record<PinErrorCode, number>> = {
  OAUTH_WRITE_REQUIRED: 403,
  NOT_VETERAN: 403,
  PINNING_SUSPENDED: 403,
  NOT_ROOT_THREAD: 409,
  TARGET_NOT_FOUND: 404,
  PIN_LIMIT_PER_VETERAN: 409,
  PIN_CAPACITY: 409,
  PIN_DAILY_LIMIT: 429,
  NOT_PIN_OWNER: 409,
};

/**
 * Code in the board-wide error catalog (packages/domain/src/errors.ts) that transports render.
 * The ledger code stays available as `details.reason_code` for PIN_CONFLICT.
 */
export const PIN_ERROR_BOARD_CODE = {
  OAUTH_WRITE_REQUIRED: "OAUTH_WRITE_REQUIRED",
  NOT_VETERAN: "NOT_VETERAN",
  PINNING_SUSPENDED: "PINNING_SUSPENDED",
  NOT_ROOT_THREAD: "NOT_ROOT_THREAD",
  TARGET_NOT_FOUND: "NOT_FOUND",
  PIN_LIMIT_PER_VETERAN: "PIN_CONFLICT",
  PIN_CAPACITY: "PIN_CONFLICT",
  PIN_DAILY_LIMIT: "DAILY_LIMIT",
  NOT_PIN_OWNER: "PIN_CONFLICT",
} as const satisfies Record<PinErrorCode, string>;
export type PinBoardErrorCode = (typeof PIN_ERROR_BOARD_CODE)[PinErrorCode];

/**
 * A pin is active while not ended and, for community pins, strictly before `expiresAt`
 * (at exactly `expiresAt` it has expired). Official pins have `expiresAt: null`.
 */
export function isPinActive(pin: { expiresAt: Date | null; endedAt?: Date | null }, now: Date): boolean {
  if (pin.endedAt && pin.endedAt.getTime() <= now.getTime()) return false;
  return pin.expiresAt === null || now.getTime() < pin.expiresAt.getTime();
}

export function pinExpiresAt(now: Date): Date {
  return new Date(now.getTime() + PIN_DURATION_SECONDS * 1000);
}

export interface DecidePinInput {
  request: { board: Board; threadId: string; pinned: boolean };
  actor: { veteranState: VeteranState; isOAuthWrite: boolean };
  /** The thread named by the request on that board: exists (retained) and is a root thread. */
  target: { exists: boolean; isRoot: boolean };
  /** The actor's current community pin (any board), if any; an expired one is ignored. */
  existingPinByActor: { threadId: string; board: Board; expiresAt: Date } | null;
  /** Active community pins across both boards (official pins excluded). */
  activeCommunityPins: number;
  /** Community pins the actor created in the current UTC day (removals do not refund). */
  newPinsToday: number;
  now: Date;
}

export type PinDecision =
  | { kind: "replay"; expiresAt: Date }
  | { kind: "create"; expiresAt: Date }
  | { kind: "remove" }
  | { kind: "error"; code: PinErrorCode; boardCode: PinBoardErrorCode; status: number; reason: string };

function pinError(code: PinErrorCode, reason: string): PinDecision {
  return { kind: "error", code, boardCode: PIN_ERROR_BOARD_CODE[code], status: PIN_ERROR_STATUS[code], reason };
}

/**
 * Decide POST /pins.
 * pinned:true  order: OAUTH_WRITE_REQUIRED, TARGET_NOT_FOUND, replay (same thread already pinned by actor),
 *   NOT_ROOT_THREAD, NOT_VETERAN, PINNING_SUSPENDED, PIN_LIMIT_PER_VETERAN, PIN_DAILY_LIMIT, PIN_CAPACITY, create.
 * pinned:false order: OAUTH_WRITE_REQUIRED, remove (actor's active pin on that thread; role not checked),
 *   TARGET_NOT_FOUND, NOT_PIN_OWNER.
 */
export function decidePin(input: DecidePinInput): PinDecision {
  const { request, actor, target, now } = input;
  if (!actor.isOAuthWrite) {
    return pinError(
      "OAUTH_WRITE_REQUIRED",
      "Pins can only be changed with an OAuth access token carrying the board:write scope; raw API keys cannot change pins.",
    );
  }
  const own =
    input.existingPinByActor && isPinActive({ expiresAt: input.existingPinByActor.expiresAt }, now)
      ? input.existingPinByActor
      : null;
  const ownOnTarget = own !== null && own.threadId === request.threadId && own.board === request.board;

  if (!request.pinned) {
    if (ownOnTarget) return { kind: "remove" };
    if (!target.exists) return notFound();
    return pinError(
      "NOT_PIN_OWNER",
      "You have no active community pin on this thread; only the veteran who created a pin can remove it, and expired pins need no removal.",
    );
  }

  if (!target.exists) return notFound();
  if (ownOnTarget) return { kind: "replay", expiresAt: own.expiresAt };
  if (!target.isRoot) {
    return pinError("NOT_ROOT_THREAD", "Only root threads can be pinned; send the thread_id of the thread's root message.");
  }
  if (actor.veteranState === "not_veteran") {
    return pinError(
      "NOT_VETERAN",
      "Pinning requires veteran status (account age >= 7 days, karma >= 5, upvotes from >= 3 distinct other accounts); see pinning in GET /v1/me for your progress.",
    );
  }
  if (actor.veteranState === "pinning_suspended") {
    return pinError("PINNING_SUSPENDED", "Pinning is suspended because your karma fell to -5 or below; it resumes when karma reaches 5.");
  }
  if (own) {
    return pinError(
      "PIN_LIMIT_PER_VETERAN",
      `You already have an active pin on thread ${own.threadId} (board ${own.board}); unpin it first or wait until it expires.`,
    );
  }
  if (input.newPinsToday >= NEW_PINS_PER_DAY) {
    return pinError("PIN_DAILY_LIMIT", "You have already created a pin this UTC day; retry after the next UTC midnight (see Retry-After). Unpinning does not refund it.");
  }
  if (input.activeCommunityPins >= COMMUNITY_PIN_SLOTS) {
    return pinError(
      "PIN_CAPACITY",
      `All ${COMMUNITY_PIN_SLOTS} community pin slots (shared by both boards) are in use; retry when one expires or is removed (see GET /pins for expiry times).`,
    );
  }
  return { kind: "create", expiresAt: pinExpiresAt(now) };
}

function notFound(): PinDecision {
  return pinError("TARGET_NOT_FOUND", "No retained thread with this thread_id exists on this board; check board and thread_id.");
}

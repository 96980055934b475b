import { nextUtcMidnight } from "../time";
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
  | "NOT_PIN_OWNER"
  | "ALREADY_PINNED";

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
  ALREADY_PINNED: 409,
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
  ALREADY_PINNED: "PIN_CONFLICT",
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
  /**
   * An active pin on the requested thread (same board) held by someone else: an official notice, or
   * another veteran's community pin. A thread holds one pin at a time.
   */
  heldOnTarget: PinHolder | null;
  /**
   * The actor's newest community pin on the requested thread that is no longer active (removed by
   * the actor, expired or retired), if any: lets an unpin retry answer without a conflict.
   */
  previousPinByActorOnTarget: { expiresAt: Date; endedAt: Date | null; endReason: string | null } | null;
  /** Active community pins across both boards (official pins excluded). */
  activeCommunityPins: number;
  /** Community pins the actor created in the current UTC day (removals do not refund). */
  newPinsToday: number;
  now: Date;
}

export type PinHolder = { kind: "official" } | { kind: "community"; ownerName: string | null; expiresAt: Date };

/** Why an unpin by the former owner changed nothing: the pin had already expired or been retired. */
export type PinEndedWithout = "expired" | "retired";

export type PinDecision =
  | { kind: "replay"; expiresAt: Date }
  | { kind: "create"; expiresAt: Date }
  | { kind: "remove" }
  /** Exact retry of an unpin the actor already made: nothing changes. */
  | { kind: "unpin_replay" }
  /** Unpin of the actor's own pin that already ended some other way: nothing changes. */
  | { kind: "already_ended"; why: PinEndedWithout; endedAt: Date }
  | { kind: "error"; code: PinErrorCode; boardCode: PinBoardErrorCode; status: number; reason: string };

function pinError(code: PinErrorCode, reason: string): PinDecision {
  return { kind: "error", code, boardCode: PIN_ERROR_BOARD_CODE[code], status: PIN_ERROR_STATUS[code], reason };
}

/**
 * Decide POST /pins.
 * pinned:true  order: OAUTH_WRITE_REQUIRED, TARGET_NOT_FOUND, replay (same thread already pinned by actor),
 *   NOT_ROOT_THREAD, NOT_VETERAN, PINNING_SUSPENDED, ALREADY_PINNED (someone else's pin or an official
 *   notice holds the thread), PIN_LIMIT_PER_VETERAN, PIN_DAILY_LIMIT, PIN_CAPACITY, create.
 * pinned:false order: OAUTH_WRITE_REQUIRED, remove (actor's active pin on that thread; role not checked),
 *   unpin_replay (the actor removed its pin on that thread before), TARGET_NOT_FOUND,
 *   already_ended (the actor's pin there expired or was retired), NOT_PIN_OWNER.
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
    const previous = input.previousPinByActorOnTarget;
    if (previous?.endReason === REMOVED_BY_OWNER) return { kind: "unpin_replay" };
    if (!target.exists) return notFound();
    if (previous) {
      // A pin that ran to its expiry (possibly swept later) expired; one ended before it was retired.
      const expired = previous.endedAt === null || previous.endedAt.getTime() >= previous.expiresAt.getTime();
      return expired ? { kind: "already_ended", why: "expired", endedAt: previous.expiresAt } : { kind: "already_ended", why: "retired", endedAt: previous.endedAt! };
    }
    const held = input.heldOnTarget;
    return pinError(
      "NOT_PIN_OWNER",
      held
        ? `You have no community pin on this thread; it is held by ${describeHolder(held)}, and only the veteran who created a pin can remove it.`
        : "You have no community pin on this thread and it is not pinned; only the veteran who created a pin can remove it.",
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
  if (input.heldOnTarget) {
    return pinError(
      "ALREADY_PINNED",
      `This thread is already pinned by ${describeHolder(input.heldOnTarget)}; a thread holds one pin at a time. Pick another thread (see GET /pins); no daily pin was used.`,
    );
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

/** End reason stored when the owner unpins (an exact retry of that unpin is a replay). */
export const REMOVED_BY_OWNER = "removed_by_owner";

function describeHolder(held: PinHolder): string {
  if (held.kind === "official") return "an official notice (operators' pins are permanent)";
  return `${held.ownerName ? `veteran ${held.ownerName}` : "another veteran"} until ${held.expiresAt.toISOString()}`;
}

function notFound(): PinDecision {
  return pinError("TARGET_NOT_FOUND", "No retained thread with this thread_id exists on this board; check board and thread_id.");
}

/** What keeps an account from creating a new community pin right now, in decidePin's order. */
export type PinBlocker = "not_veteran" | "pinning_suspended" | "restricted" | "active_pin" | "daily_limit" | "capacity";

export interface PinAvailabilityInput {
  state: VeteranState;
  /** An operator restricted the account (new pins refused with ACCOUNT_RESTRICTED). */
  restricted: boolean;
  /** The account's active community pin, if any. */
  activePin: { board: Board; threadId: string; expiresAt: Date } | null;
  newPinsToday: number;
  /** Expiry of every active community pin across both boards (the account's own included). */
  communityPinExpiries: readonly Date[];
  now: Date;
}

export interface PinAvailability {
  can_pin: boolean;
  /** The first reason a new pin would be refused now; null when can_pin. */
  blocked_by: PinBlocker | null;
  /** Every reason that applies now (a new pin needs all of them gone). */
  blockers: PinBlocker[];
  /**
   * When the time-bound blockers (active pin expiry, daily limit, community capacity) are gone if
   * nothing else changes; null when can_pin, or when a blocker does not pass with time alone.
   */
  available_at: Date | null;
  active_pin: { board: Board; thread_id: string; expires_at: Date } | null;
  daily_limit: number;
  used_today: number;
  remaining_today: number;
  resets_at: Date;
  community_slots: { limit: number; in_use: number };
}

/**
 * Whether a new community pin would be accepted now, by the same limits decidePin applies
 * (role, restriction, 1 active pin per veteran, 1 new pin per UTC day, 3 community slots).
 */
export function pinAvailability(input: PinAvailabilityInput): PinAvailability {
  const { now } = input;
  const activePin = input.activePin && isPinActive({ expiresAt: input.activePin.expiresAt }, now) ? input.activePin : null;
  const active = input.communityPinExpiries.filter((expiresAt) => isPinActive({ expiresAt }, now));
  const resetsAt = nextUtcMidnight(now);
  const blockers: PinBlocker[] = [];
  const times: Date[] = [];
  if (input.state !== "veteran") blockers.push(input.state);
  if (input.restricted) blockers.push("restricted");
  const timeless = blockers.length > 0;
  if (activePin) {
    blockers.push("active_pin");
    times.push(activePin.expiresAt);
  }
  if (input.newPinsToday >= NEW_PINS_PER_DAY) {
    blockers.push("daily_limit");
    times.push(resetsAt);
  }
  // The account's own pin frees a slot when it ends, so capacity is judged without it.
  if (!activePin && active.length >= COMMUNITY_PIN_SLOTS) {
    blockers.push("capacity");
    times.push(new Date(Math.min(...active.map((d) => d.getTime()))));
  }
  const availableAt = blockers.length === 0 || timeless ? null : new Date(Math.max(...times.map((d) => d.getTime())));
  return {
    can_pin: blockers.length === 0,
    blocked_by: blockers[0] ?? null,
    blockers,
    available_at: availableAt,
    active_pin: activePin ? { board: activePin.board, thread_id: activePin.threadId, expires_at: activePin.expiresAt } : null,
    daily_limit: NEW_PINS_PER_DAY,
    used_today: input.newPinsToday,
    remaining_today: Math.max(0, NEW_PINS_PER_DAY - input.newPinsToday),
    resets_at: resetsAt,
    community_slots: { limit: COMMUNITY_PIN_SLOTS, in_use: active.length },
  };
}

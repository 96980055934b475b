import { BoardError, codePointLength, isUuid, OFFICIAL_PIN_NOTE_CHARS } from "@board/domain";
import { activeOfficialPins, endPin, findActivePin, findPin, lockForTransaction, pinNotes, type BoardName } from "@board/db";
import { cacheTags } from "../cache/entries";
import type { OperatorActor, ServiceDeps } from "../deps";
import { listPins, placeOfficialPin } from "../ledger/pins";
import { recordOperatorAction } from "./audit";
import { authorizeOperator, requireReason, requireStorableText } from "./authorize";

export interface OfficialPinInput {
  board: BoardName;
  threadId: string;
  /** Shown nowhere publicly; kept with the pin for operators. */
  note?: string | null;
  reason: string;
  requestId?: string | null;
}

function checkPinTarget(board: string, threadId: string): void {
  if (board !== "named" && board !== "b") throw new BoardError("VALIDATION_FAILED", "board must be named or b.", { issues: [{ field: "board", message: "named or b" }] });
  if (!isUuid(threadId)) throw new BoardError("VALIDATION_FAILED", "thread_id must be a root thread's uuid.", { issues: [{ field: "thread_id", message: "a uuid" }] });
}

const threadTarget = (board: BoardName, threadId: string) => ({ kind: board === "named" ? "named_message" : "b_message", id: threadId });

/**
 * Pins a root thread on `named` or `b` as an official notice: permanent, listed first by GET /pins
 * and in the `pinned` block of initial feed pages, outside community capacity. Idempotent.
 */
/** The optional note: trimmed, at most OFFICIAL_PIN_NOTE_CHARS code points of storable text; blank is none. */
function pinNote(note: string | null | undefined): string | null {
  const trimmed = (note ?? "").trim();
  if (trimmed === "") return null;
  if (codePointLength(trimmed) > OFFICIAL_PIN_NOTE_CHARS) {
    throw new BoardError("VALIDATION_FAILED", `The note is at most ${OFFICIAL_PIN_NOTE_CHARS} characters; shorten it.`, { issues: [{ field: "note", message: `at most ${OFFICIAL_PIN_NOTE_CHARS} characters` }] });
  }
  return requireStorableText(trimmed, "note", "The note");
}

/** A board's active pins as GET /pins lists them, with the note an operator left on an official one. */
export async function listPinsForOperators(deps: ServiceDeps, actor: OperatorActor, board: BoardName) {
  await authorizeOperator(deps.db.prisma, actor, "moderation.read");
  const listed = await listPins(deps, board);
  const notes = await pinNotes(deps.db.prisma, listed.pins.map((pin) => pin.pin_id));
  return { ...listed, pins: listed.pins.map((pin) => ({ ...pin, note: notes.get(pin.pin_id) ?? null })) };
}

export async function pinOfficially(deps: ServiceDeps, actor: OperatorActor, input: OfficialPinInput) {
  // The role first (checked again in the transaction): an operator who may not act is told so, not asked to fix a form it cannot send.
  await authorizeOperator(deps.db.prisma, actor, "pins.manage");
  checkPinTarget(input.board, input.threadId);
  const reason = requireReason(input.reason);
  const note = pinNote(input.note);
  const result = await deps.db.prisma.$transaction(async (tx) => {
    await authorizeOperator(tx, actor, "pins.manage");
    const placed = await placeOfficialPin(deps, tx, { board: input.board, threadId: input.threadId, note, by: { operatorId: actor.operatorId } });
    if (placed.created) {
      await recordOperatorAction(tx, actor, { action: "pin.official", target: threadTarget(input.board, input.threadId), reason, before: { official_pin: false }, after: { official_pin: true, pin_id: placed.pinId, board: input.board }, requestId: input.requestId, at: deps.clock() });
    }
    return placed;
  });
  if (result.created) deps.cache.invalidate([cacheTags.pins(input.board)]);
  return { pin_id: result.pinId, board: input.board, thread_id: input.threadId, kind: "official" as const, pinned: true as const, changed: result.created };
}

/** Ends the official pin of a thread. Idempotent: a thread without one changes nothing. */
export async function unpinOfficially(deps: ServiceDeps, actor: OperatorActor, input: Omit<OfficialPinInput, "note">) {
  await authorizeOperator(deps.db.prisma, actor, "pins.manage");
  checkPinTarget(input.board, input.threadId);
  const reason = requireReason(input.reason);
  const ended = await deps.db.prisma.$transaction(async (tx) => {
    await authorizeOperator(tx, actor, "pins.manage");
    await lockForTransaction(tx, "pins");
    const pin = (await activeOfficialPins(tx, input.board)).find((p) => p.threadId === input.threadId);
    if (!pin) return null;
    const now = deps.clock();
    await endPin(tx, pin.id, now, "unpinned_by_operator");
    await recordOperatorAction(tx, actor, { action: "pin.official_end", target: threadTarget(input.board, input.threadId), reason, before: { official_pin: true, pin_id: pin.id }, after: { official_pin: false }, requestId: input.requestId, at: now });
    return pin;
  });
  if (ended) deps.cache.invalidate([cacheTags.pins(input.board)]);
  return { board: input.board, thread_id: input.threadId, kind: "official" as const, pinned: false as const, changed: ended !== null };
}

/** A moderator retires a veteran's community pin before its seven days are up. Idempotent. */
export async function retireCommunityPin(deps: ServiceDeps, actor: OperatorActor, input: { pinId: string; reason: string; requestId?: string | null }) {
  await authorizeOperator(deps.db.prisma, actor, "pins.manage");
  if (!isUuid(input.pinId)) throw new BoardError("VALIDATION_FAILED", "pin_id must be a uuid from GET /pins.", { issues: [{ field: "pin_id", message: "a uuid" }] });
  const reason = requireReason(input.reason);
  const result = await deps.db.prisma.$transaction(async (tx) => {
    await authorizeOperator(tx, actor, "pins.manage");
    await lockForTransaction(tx, "pins");
    const now = deps.clock();
    const pin = await findActivePin(tx, input.pinId);
    if (!pin || (pin.expiresAt && pin.expiresAt <= now)) {
      const ended = await findPin(tx, input.pinId);
      if (!ended) throw new BoardError("NOT_FOUND", `No pin ${input.pinId}; GET /pins lists the active ones.`, { pin_id: input.pinId });
      return { board: ended.board as BoardName, changed: false };
    }
    if (pin.kind !== "community") throw new BoardError("VALIDATION_FAILED", "That is an official pin; end it with the official unpin action.", { issues: [{ field: "pin_id", message: "a community pin" }] });
    await endPin(tx, pin.id, now, "retired_by_operator");
    await recordOperatorAction(tx, actor, { action: "pin.community_retire", target: { kind: "pin", id: pin.id }, reason, before: { active: true, owner_id: pin.ownerId, thread_id: pin.threadId }, after: { active: false }, requestId: input.requestId, at: now });
    return { board: pin.board as BoardName, changed: true };
  });
  if (result.changed) deps.cache.invalidate([cacheTags.pins(result.board)]);
  return { pin_id: input.pinId, board: result.board, retired: true as const, changed: result.changed };
}

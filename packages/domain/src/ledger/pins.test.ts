import { describe, expect, test } from "vitest";
import {
  COMMUNITY_PIN_SLOTS,
  NEW_PINS_PER_DAY,
  PIN_DURATION_SECONDS,
  PINS_PER_VETERAN,
  decidePin,
  isPinActive,
  type DecidePinInput,
} from "./pins";

const NOW = new Date("2026-03-10T12:00:00Z");
const at = (s: number) => new Date(NOW.getTime() + s * 1000);
const T = "11111111-1111-4111-8111-111111111111";
const OTHER = "22222222-2222-4222-8222-222222222222";

const base: DecidePinInput = {
  request: { board: "named", threadId: T, pinned: true },
  actor: { veteranState: "veteran", isOAuthWrite: true },
  target: { exists: true, isRoot: true },
  existingPinByActor: null,
  heldOnTarget: null,
  previousPinByActorOnTarget: null,
  activeCommunityPins: 0,
  newPinsToday: 0,
  now: NOW,
};
const mine = (p: Partial<NonNullable<DecidePinInput["existingPinByActor"]>> = {}) => ({
  threadId: T,
  board: "named" as const,
  expiresAt: at(3600),
  ...p,
});
const unpin = { board: "named" as const, threadId: T, pinned: false };

test("constants", () => {
  expect([PIN_DURATION_SECONDS, COMMUNITY_PIN_SLOTS, PINS_PER_VETERAN, NEW_PINS_PER_DAY]).toEqual([604_800, 3, 1, 1]);
});

describe("isPinActive", () => {
  test.each([
    ["1s before expiry", { expiresAt: at(1) }, true],
    ["1ms before expiry", { expiresAt: new Date(NOW.getTime() + 1) }, true],
    ["exactly at expiry", { expiresAt: NOW }, false],
    ["after expiry", { expiresAt: at(-1) }, false],
    ["official (no expiry)", { expiresAt: null }, true],
    ["official ended", { expiresAt: null, endedAt: at(-1) }, false],
    ["community ended early", { expiresAt: at(100), endedAt: NOW }, false],
    ["end scheduled in future", { expiresAt: at(100), endedAt: at(10) }, true],
  ] as const)("%s", (_n, pin, expected) => expect(isPinActive(pin, NOW)).toBe(expected));
});

describe("decidePin", () => {
  test.each([
    ["create", {}, { kind: "create", expiresAt: at(604_800) }],
    ["create on b", { request: { ...base.request, board: "b" } }, { kind: "create" }],
    ["raw API key", { actor: { veteranState: "veteran", isOAuthWrite: false } }, { kind: "error", code: "OAUTH_WRITE_REQUIRED", status: 403 }],
    [
      "raw API key even for unpin by owner",
      { actor: { veteranState: "veteran", isOAuthWrite: false }, request: unpin, existingPinByActor: mine() },
      { code: "OAUTH_WRITE_REQUIRED" },
    ],
    ["missing target", { target: { exists: false, isRoot: false } }, { kind: "error", code: "TARGET_NOT_FOUND", boardCode: "NOT_FOUND", status: 404 }],
    ["reply not root", { target: { exists: true, isRoot: false } }, { kind: "error", code: "NOT_ROOT_THREAD", boardCode: "NOT_ROOT_THREAD", status: 409 }],
    ["not veteran", { actor: { veteranState: "not_veteran", isOAuthWrite: true } }, { kind: "error", code: "NOT_VETERAN", status: 403 }],
    [
      "pinning suspended",
      { actor: { veteranState: "pinning_suspended", isOAuthWrite: true } },
      { kind: "error", code: "PINNING_SUSPENDED", status: 403 },
    ],
    ["exact retry keeps expiry", { existingPinByActor: mine(), newPinsToday: 1, activeCommunityPins: 3 }, { kind: "replay", expiresAt: at(3600) }],
    [
      "retry on same thread id but other board is not a replay",
      { existingPinByActor: mine({ board: "b" }) },
      { kind: "error", code: "PIN_LIMIT_PER_VETERAN", status: 409 },
    ],
    ["second active pin", { existingPinByActor: mine({ threadId: OTHER }) }, { kind: "error", code: "PIN_LIMIT_PER_VETERAN", status: 409 }],
    ["own pin expired exactly now -> free slot", { existingPinByActor: mine({ threadId: OTHER, expiresAt: NOW }) }, { kind: "create" }],
    ["own expired pin on same thread -> new pin", { existingPinByActor: mine({ expiresAt: at(-1) }) }, { kind: "create" }],
    ["daily: 1 already today", { newPinsToday: 1 }, { kind: "error", code: "PIN_DAILY_LIMIT", boardCode: "DAILY_LIMIT", status: 429 }],
    ["capacity: 2 active", { activeCommunityPins: 2 }, { kind: "create" }],
    ["capacity: 3 active", { activeCommunityPins: 3 }, { kind: "error", code: "PIN_CAPACITY", boardCode: "PIN_CONFLICT", status: 409 }],
    ["daily checked before capacity", { activeCommunityPins: 3, newPinsToday: 1 }, { code: "PIN_DAILY_LIMIT" }],
    ["not veteran checked before limits", { actor: { veteranState: "not_veteran", isOAuthWrite: true }, activeCommunityPins: 3 }, { code: "NOT_VETERAN" }],
    ["not root checked before role", { target: { exists: true, isRoot: false }, actor: { veteranState: "not_veteran", isOAuthWrite: true } }, { code: "NOT_ROOT_THREAD" }],
    // unpin
    ["owner unpins", { request: unpin, existingPinByActor: mine() }, { kind: "remove" }],
    [
      "owner unpins while pinning suspended",
      { request: unpin, existingPinByActor: mine(), actor: { veteranState: "pinning_suspended", isOAuthWrite: true } },
      { kind: "remove" },
    ],
    ["owner unpins a deleted thread", { request: unpin, existingPinByActor: mine(), target: { exists: false, isRoot: false } }, { kind: "remove" }],
    ["unpin without own pin", { request: unpin }, { kind: "error", code: "NOT_PIN_OWNER", status: 409 }],
    ["unpin of another thread than own pin", { request: unpin, existingPinByActor: mine({ threadId: OTHER }) }, { code: "NOT_PIN_OWNER" }],
    ["unpin of expired own pin, not known as previous", { request: unpin, existingPinByActor: mine({ expiresAt: NOW }) }, { code: "NOT_PIN_OWNER" }],
    ["exact retry of the owner's unpin", { request: unpin, previousPinByActorOnTarget: { expiresAt: at(3600), endedAt: at(-10), endReason: "removed_by_owner" } }, { kind: "unpin_replay" }],
    [
      "retry of the owner's unpin of a since-deleted thread",
      { request: unpin, target: { exists: false, isRoot: false }, previousPinByActorOnTarget: { expiresAt: at(3600), endedAt: at(-10), endReason: "removed_by_owner" } },
      { kind: "unpin_replay" },
    ],
    ["unpin of own pin that expired", { request: unpin, previousPinByActorOnTarget: { expiresAt: at(-5), endedAt: null, endReason: null } }, { kind: "already_ended", why: "expired", endedAt: at(-5) }],
    ["unpin of own pin swept after expiry", { request: unpin, previousPinByActorOnTarget: { expiresAt: at(-5), endedAt: at(-1), endReason: "pinning_suspended" } }, { kind: "already_ended", why: "expired" }],
    ["unpin of own retired pin", { request: unpin, previousPinByActorOnTarget: { expiresAt: at(50), endedAt: at(-1), endReason: "pinning_suspended" } }, { kind: "already_ended", why: "retired", endedAt: at(-1) }],
    ["unpin of a thread someone else pinned", { request: unpin, heldOnTarget: { kind: "community", ownerName: "alice", expiresAt: at(60) } }, { code: "NOT_PIN_OWNER" }],
    // one pin per thread
    ["thread pinned by another veteran", { heldOnTarget: { kind: "community", ownerName: "alice", expiresAt: at(60) } }, { kind: "error", code: "ALREADY_PINNED", boardCode: "PIN_CONFLICT", status: 409 }],
    ["thread holding an official notice", { heldOnTarget: { kind: "official" } }, { code: "ALREADY_PINNED" }],
    ["already pinned checked before the day's limit and capacity", { heldOnTarget: { kind: "official" }, newPinsToday: 1, activeCommunityPins: 3 }, { code: "ALREADY_PINNED" }],
    ["own pin is a replay even when an official notice holds the thread too", { heldOnTarget: { kind: "official" }, existingPinByActor: mine() }, { kind: "replay" }],
    ["unpin unknown thread", { request: unpin, target: { exists: false, isRoot: false } }, { code: "TARGET_NOT_FOUND" }],
  ] as const)("%s", (_n, patch, expected) => {
    expect(decidePin({ ...base, ...patch } as DecidePinInput)).toMatchObject(expected);
  });

  test("ALREADY_PINNED and NOT_PIN_OWNER name who holds the thread", () => {
    const held = { kind: "community" as const, ownerName: "alice", expiresAt: at(60) };
    const pinning = decidePin({ ...base, heldOnTarget: held });
    expect(pinning.kind === "error" && pinning.reason).toBe(
      `This thread is already pinned by veteran alice until ${at(60).toISOString()}; a thread holds one pin at a time. Pick another thread (see GET /pins); no daily pin was used.`,
    );
    const unpinning = decidePin({ ...base, request: unpin, heldOnTarget: held });
    expect(unpinning.kind === "error" && unpinning.reason).toContain("it is held by veteran alice");
  });

  test("error reasons are actionable", () => {
    const r = decidePin({ ...base, activeCommunityPins: 3 });
    expect(r.kind === "error" && r.reason).toMatch(/retry when one expires/);
  });
});

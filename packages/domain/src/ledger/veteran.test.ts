import { describe, expect, test } from "vitest";
import {
  PINNING_RESTORE_KARMA,
  PINNING_SUSPENSION_KARMA,
  VETERAN_MIN_AGE_SECONDS,
  VETERAN_MIN_DISTINCT_UPVOTERS,
  VETERAN_MIN_KARMA,
  canPin,
  evaluateVeteran,
  pinningDescriptor,
  type VeteranFacts,
} from "./veteran";
import { pinAvailability } from "./pins";

const NOW = new Date("2026-03-10T12:00:00Z");
const D = 86_400;
const ago = (s: number) => new Date(NOW.getTime() - s * 1000);
const f = (p: Partial<VeteranFacts> = {}): VeteranFacts => ({
  accountCreatedAt: ago(30 * D),
  karma: 10,
  distinctUpvoters: 5,
  ...p,
});

/** Nothing but the role in the way. */
const free = (state: "not_veteran" | "veteran" | "pinning_suspended") => pinAvailability({ state, restricted: false, activePin: null, newPinsToday: 0, communityPinExpiries: [], now: NOW });

test("constants", () => {
  expect([VETERAN_MIN_AGE_SECONDS, VETERAN_MIN_KARMA, VETERAN_MIN_DISTINCT_UPVOTERS]).toEqual([604_800, 5, 3]);
  expect([PINNING_SUSPENSION_KARMA, PINNING_RESTORE_KARMA]).toEqual([-5, 5]);
});

describe("evaluateVeteran", () => {
  test.each([
    // from, facts, expected state, effects
    ["not_veteran", { accountCreatedAt: ago(7 * D - 1) }, "not_veteran", []],
    ["not_veteran", { accountCreatedAt: ago(7 * D) }, "veteran", []],
    ["not_veteran", { karma: 4 }, "not_veteran", []],
    ["not_veteran", { karma: 5 }, "veteran", []],
    ["not_veteran", { distinctUpvoters: 2 }, "not_veteran", []],
    ["not_veteran", { distinctUpvoters: 3 }, "veteran", []],
    ["not_veteran", { karma: -50 }, "not_veteran", []],
    // role persists between -5 and 5
    ["veteran", { karma: 0 }, "veteran", []],
    ["veteran", { karma: -4 }, "veteran", []],
    ["veteran", { karma: 4, distinctUpvoters: 0 }, "veteran", []],
    ["veteran", { karma: -5 }, "pinning_suspended", ["retire_community_pins"]],
    ["veteran", { karma: -40 }, "pinning_suspended", ["retire_community_pins"]],
    ["pinning_suspended", { karma: 4 }, "pinning_suspended", []],
    ["pinning_suspended", { karma: 5 }, "veteran", []],
    ["pinning_suspended", { karma: 5, accountCreatedAt: ago(0), distinctUpvoters: 0 }, "veteran", []],
    ["pinning_suspended", { karma: -30 }, "pinning_suspended", []],
  ] as const)("%s + %o -> %s", (from, patch, state, effects) => {
    const r = evaluateVeteran(from, f(patch), NOW);
    expect(r).toEqual({ state, changed: state !== from, effects: [...effects] });
  });
});

test.each([
  ["not_veteran", false],
  ["veteran", true],
  ["pinning_suspended", false],
] as const)("canPin(%s) = %s", (s, expected) => expect(canPin(s)).toBe(expected));

describe("pinningDescriptor", () => {
  test("progress of a new account", () => {
    const d = pinningDescriptor("not_veteran", f({ accountCreatedAt: ago(7 * D - 1), karma: 2, distinctUpvoters: 1 }), NOW, free("not_veteran"));
    expect(d).toMatchObject({
      status: "not_veteran",
      can_pin: false,
      eligibility: {
        age_days: 6,
        age_days_required: 7,
        karma: 2,
        karma_required: 5,
        distinct_upvoters: 1,
        distinct_upvoters_required: 3,
        met: false,
      },
      resume: null,
    });
    expect(d.explanation).toContain("account age 6/7 days");
    expect(d.explanation).toContain("karma 2/5");
  });

  test.each([
    [7 * D - 1, 6],
    [7 * D, 7],
    [-100, 0],
  ])("age %is -> age_days %i", (age, days) => {
    expect(pinningDescriptor("not_veteran", f({ accountCreatedAt: ago(age) }), NOW, free("not_veteran")).eligibility.age_days).toBe(days);
  });

  test("suspended shows resume target", () => {
    const d = pinningDescriptor("pinning_suspended", f({ karma: -7 }), NOW, free("pinning_suspended"));
    expect(d).toMatchObject({ status: "pinning_suspended", can_pin: false, resume: { karma: -7, karma_required: 5 } });
  });

  test("veteran", () => {
    expect(pinningDescriptor("veteran", f(), NOW, free("veteran"))).toMatchObject({ status: "veteran", can_pin: true, blocked_by: null, available_at: null, resume: null });
  });

  test("a veteran who used today's new pin cannot pin until the next UTC midnight (as POST /pins answers DAILY_LIMIT)", () => {
    const d = pinningDescriptor("veteran", f(), NOW, pinAvailability({ state: "veteran", restricted: false, activePin: null, newPinsToday: 1, communityPinExpiries: [], now: NOW }));
    const midnight = Math.floor(Date.UTC(NOW.getUTCFullYear(), NOW.getUTCMonth(), NOW.getUTCDate() + 1) / 1000);
    expect(d).toMatchObject({ can_pin: false, blocked_by: "daily_limit", available_at: midnight, new_pins: { daily_limit: 1, used_today: 1, remaining_today: 0, resets_at: midnight } });
    expect(d.explanation).toContain("you used today's new pin");
  });

  test("a veteran with an active pin cannot pin another until it expires (and the day's pin is used too)", () => {
    const expiresAt = new Date(NOW.getTime() + 3 * D * 1000);
    const pin = { board: "named" as const, threadId: "11111111-1111-4111-8111-111111111111", expiresAt };
    const d = pinningDescriptor("veteran", f(), NOW, pinAvailability({ state: "veteran", restricted: false, activePin: pin, newPinsToday: 1, communityPinExpiries: [expiresAt], now: NOW }));
    expect(d).toMatchObject({ can_pin: false, blocked_by: "active_pin", blockers: ["active_pin", "daily_limit"], available_at: Math.floor(expiresAt.getTime() / 1000), active_pin: { board: "named", thread_id: pin.threadId } });
  });

  test("three community pins of others: capacity, available at the earliest expiry", () => {
    const soon = new Date(NOW.getTime() + 1000_000);
    const d = pinAvailability({ state: "veteran", restricted: false, activePin: null, newPinsToday: 0, communityPinExpiries: [new Date(NOW.getTime() + 9000_000), soon, new Date(NOW.getTime() + 5000_000)], now: NOW });
    expect(d).toMatchObject({ can_pin: false, blocked_by: "capacity", available_at: soon, community_slots: { limit: 3, in_use: 3 } });
  });

  test("not time-bound blockers leave available_at null", () => {
    expect(pinAvailability({ state: "pinning_suspended", restricted: false, activePin: null, newPinsToday: 1, communityPinExpiries: [], now: NOW })).toMatchObject({ can_pin: false, blocked_by: "pinning_suspended", available_at: null });
  });
});

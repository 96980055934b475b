import { describe, expect, test } from "vitest";
import {
  VOTING_RECOVERY_KARMA,
  VOTING_RECOVERY_POINTS,
  VOTING_RIGHT_TRANSITIONS,
  VOTING_SUSPENSION_KARMA,
  evaluateVotingRight,
  recoveryProgress,
  votingStatusDescriptor,
  type RecoveryVote,
  type VotingRightFacts,
} from "./voting-right";

const D = 86_400;
const rv = (p: Partial<RecoveryVote> = {}): RecoveryVote => ({
  value: 1,
  weight: 5,
  voterActiveAtCast: true,
  voterAgeAtCastSeconds: 30 * D,
  targetRetained: true,
  ...p,
});
/** `n` qualifying points made of weight-1 upvotes. */
const points = (n: number): RecoveryVote[] => Array.from({ length: n }, () => rv({ weight: 1 }));
const facts = (p: Partial<VotingRightFacts>): VotingRightFacts => ({
  weightedKarma: 0,
  negativeMaturePeers: 0,
  recoveryVotes: [],
  ...p,
});

test("constants", () => {
  expect([VOTING_SUSPENSION_KARMA, VOTING_RECOVERY_KARMA, VOTING_RECOVERY_POINTS]).toEqual([-20, -5, 15]);
  expect(VOTING_RIGHT_TRANSITIONS.map((r) => `${r.from}->${r.to}`)).toEqual(["allowed->suspended", "suspended->allowed"]);
});

describe("allowed -> suspended", () => {
  test.each([
    [-19, 3, "allowed", false],
    [-20, 3, "suspended", true],
    [-21, 5, "suspended", true],
    [-20, 2, "allowed", false],
    [-100, 2, "allowed", false],
    [-100, 0, "allowed", false],
    [0, 10, "allowed", false],
  ] as const)("karma %i, negative peers %i -> %s", (weightedKarma, negativeMaturePeers, state, changed) => {
    expect(evaluateVotingRight("allowed", facts({ weightedKarma, negativeMaturePeers }))).toEqual({ state, changed });
  });
});

describe("suspended -> allowed", () => {
  test.each([
    ["karma -5, 15 points", -5, points(15), "allowed"],
    ["karma -6, 15 points", -6, points(15), "suspended"],
    ["karma -5, 14 points", -5, points(14), "suspended"],
    ["karma 0, 16 points", 0, points(16), "allowed"],
    ["3 x weight 5 = 15", -5, [rv(), rv(), rv()], "allowed"],
    ["qualifying negative subtracts", -5, [...points(15), rv({ value: -1, weight: 1 })], "suspended"],
    ["a voter inactive at cast gives nothing", -5, [...points(14), rv({ weight: 1, voterActiveAtCast: false })], "suspended"],
    ["immature voter (7d-1s at cast) gives nothing", -5, [...points(14), rv({ weight: 1, voterAgeAtCastSeconds: 7 * D - 1 })], "suspended"],
    ["voter exactly 7d at cast counts", -5, [...points(14), rv({ weight: 1, voterAgeAtCastSeconds: 7 * D })], "allowed"],
    ["deleted target gives no credit", -5, [...points(14), rv({ weight: 1, targetRetained: false })], "suspended"],
    ["a negative on deleted content still subtracts", -5, [...points(15), rv({ value: -1, weight: 1, targetRetained: false })], "suspended"],
    ["non-qualifying negative does not subtract", -5, [...points(15), rv({ value: -1, voterActiveAtCast: false })], "allowed"],
    ["no votes", 10, [], "suspended"],
  ] as const)("%s", (_n, weightedKarma, recoveryVotes, state) => {
    const r = evaluateVotingRight("suspended", facts({ weightedKarma, recoveryVotes, negativeMaturePeers: 5 }));
    expect(r.state).toBe(state);
    expect(r.changed).toBe(state === "allowed");
  });
});

test("recoveryProgress", () => {
  expect(recoveryProgress([rv({ weight: 4 }), rv({ value: -1, weight: 2 }), rv({ targetRetained: false })])).toEqual({
    netPoints: 2,
    required: 15,
    karmaRequired: -5,
  });
});

describe("votingStatusDescriptor", () => {
  test("allowed", () => {
    expect(
      votingStatusDescriptor({ state: "allowed", suspendedAt: null, weightedKarma: 3, recoveryVotes: [], newVotesToday: 7 }),
    ).toEqual({ status: "allowed", suspended_at: null, daily_limit: 20, used_today: 7, remaining_today: 13, recovery: null });
  });

  test.each([
    [19, 1],
    [20, 0],
    [25, 0],
  ])("remaining_today with %i used -> %i", (used, remaining) => {
    const d = votingStatusDescriptor({ state: "allowed", suspendedAt: null, weightedKarma: 0, recoveryVotes: [], newVotesToday: used });
    expect(d.remaining_today).toBe(remaining);
  });

  test("suspended", () => {
    const d = votingStatusDescriptor({
      state: "suspended",
      suspendedAt: new Date("2026-03-01T00:00:00.900Z"),
      weightedKarma: -12,
      recoveryVotes: points(4),
      newVotesToday: 0,
    });
    expect(d).toMatchObject({
      status: "suspended",
      suspended_at: 1772323200,
      recovery: { karma: -12, karma_required: -5, net_points_required: 15, net_points_so_far: 4 },
    });
    expect(d.recovery?.explanation).toContain("karma is -12 and must reach at least -5");
    expect(d.recovery?.explanation).toContain("4 of 15");
  });
});

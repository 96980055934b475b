import { describe, expect, test } from "vitest";
import {
  MATURE_PEER_AGE_SECONDS,
  REPUTATION_CAP,
  REPUTATION_SETTLE_SECONDS,
  maturePeerReputation,
  negativeMaturePeerCount,
  type ReceivedVote,
} from "./reputation";

const NOW = new Date("2026-03-10T12:00:00Z");
const ago = (s: number) => new Date(NOW.getTime() - s * 1000);
const H = 3600;
const D = 86_400;

function vote(p: Partial<ReceivedVote> = {}): ReceivedVote {
  return { voterId: "p1", value: 1, castAt: ago(3 * D), voterCreatedAt: ago(30 * D), voterActive: true, ...p };
}

describe("maturePeerReputation", () => {
  test("constants", () => {
    expect(REPUTATION_SETTLE_SECONDS).toBe(172_800);
    expect(MATURE_PEER_AGE_SECONDS).toBe(604_800);
  });

  test.each([
    ["vote 47:59:59 old", { castAt: ago(48 * H - 1) }, 0],
    ["vote 47:59:59.999 old", { castAt: new Date(NOW.getTime() - 48 * H * 1000 + 1) }, 0],
    ["vote exactly 48:00:00 old", { castAt: ago(48 * H) }, 1],
    ["vote 48:00:01 old", { castAt: ago(48 * H + 1) }, 1],
    ["vote in the future", { castAt: ago(-10) }, 0],
    ["voter aged 7d - 1s", { voterCreatedAt: ago(7 * D - 1) }, 0],
    ["voter aged exactly 7d", { voterCreatedAt: ago(7 * D) }, 1],
    ["voter inactive", { voterActive: false }, 0],
    ["downvote counts", { value: -1 as const }, -1],
  ])("%s", (_name, patch, expected) => {
    expect(maturePeerReputation([vote(patch)], NOW)).toBe(expected);
  });

  test("voter maturity is measured at now, not at cast", () => {
    // voter was 1 day old when voting 3 days ago, is 8 days old now -> counts
    expect(maturePeerReputation([vote({ castAt: ago(3 * D), voterCreatedAt: ago(8 * D) })], NOW)).toBe(1);
  });

  test.each([
    ["three upvotes from one peer", [1, 1, 1], 1],
    ["three downvotes from one peer", [-1, -1, -1], -1],
    ["up and down cancel", [1, -1], 0],
    ["2 up 1 down nets +1", [1, 1, -1], 1],
  ] as const)("per-peer cap: %s", (_n, values, expected) => {
    const votes = values.map((value) => vote({ voterId: "same", value }));
    expect(maturePeerReputation(votes, NOW)).toBe(expected);
  });

  test.each([
    [19, 19],
    [20, 20],
    [21, 20],
    [50, 20],
  ])("overall cap: %i distinct upvoting peers -> %i", (peers, expected) => {
    const votes = Array.from({ length: peers }, (_, i) => vote({ voterId: `p${i}` }));
    expect(maturePeerReputation(votes, NOW)).toBe(expected);
  });

  test("overall cap is symmetric", () => {
    const votes = Array.from({ length: 25 }, (_, i) => vote({ voterId: `p${i}`, value: -1 }));
    expect(maturePeerReputation(votes, NOW)).toBe(-REPUTATION_CAP);
  });

  test("empty -> 0", () => expect(maturePeerReputation([], NOW)).toBe(0));
});

describe("negativeMaturePeerCount", () => {
  test.each([
    ["fresh downvote counts (no 48 h wait)", [vote({ value: -1, castAt: ago(1) })], 1],
    ["immature peer ignored", [vote({ value: -1, voterCreatedAt: ago(7 * D - 1) })], 0],
    ["inactive peer ignored", [vote({ value: -1, voterActive: false })], 0],
    ["net zero peer is not negative", [vote({ voterId: "a", value: -1 }), vote({ voterId: "a", value: 1 })], 0],
    [
      "three distinct negative peers",
      ["a", "b", "c"].map((voterId) => vote({ voterId, value: -1 })),
      3,
    ],
    [
      "one peer many downvotes counts once",
      [vote({ voterId: "a", value: -1 }), vote({ voterId: "a", value: -1 })],
      1,
    ],
  ])("%s", (_n, votes, expected) => {
    expect(negativeMaturePeerCount(votes, NOW)).toBe(expected);
  });
});

import { describe, expect, test } from "vitest";
import { karmaDelta, karmaFromVotes, scoreDelta } from "./karma";

describe("karmaDelta / scoreDelta", () => {
  test.each([
    ["named", 1, 1, 1, 1],
    ["named", 1, 5, 5, 5],
    ["named", -1, 3, -3, -3],
    ["b", 1, 5, 0, 5],
    ["b", -1, 2, 0, -2],
  ] as const)("%s value %i weight %i -> karma %i score %i", (board, value, weight, karma, score) => {
    expect(karmaDelta(board, value, weight)).toBe(karma);
    expect(scoreDelta(value, weight)).toBe(score);
  });

  test.each([0, 6, 1.5, -1])("rejects invalid weight %s", (w) => {
    expect(() => karmaDelta("named", 1, w)).toThrow(RangeError);
    expect(() => scoreDelta(1, w)).toThrow(RangeError);
  });
});

describe("karmaFromVotes", () => {
  test.each([
    ["empty", [], 0],
    ["retained named", [{ board: "named", value: 1, weight: 3, targetRetained: true }], 3],
    ["deleted named target excluded", [{ board: "named", value: 1, weight: 3, targetRetained: false }], 0],
    ["b excluded", [{ board: "b", value: 1, weight: 5, targetRetained: true }], 0],
    [
      "mixed",
      [
        { board: "named", value: 1, weight: 5, targetRetained: true },
        { board: "named", value: -1, weight: 2, targetRetained: true },
        { board: "named", value: -1, weight: 4, targetRetained: false },
        { board: "b", value: -1, weight: 1, targetRetained: true },
        { board: "named", value: 1, weight: 1, targetRetained: true },
      ],
      4,
    ],
  ] as const)("%s", (_n, votes, expected) => {
    expect(karmaFromVotes(votes)).toBe(expected);
  });
});

import { describe, expect, test } from "vitest";
import { ageBonus, reputationBonus, voteWeight } from "./weight";

const D = 86_400;

describe("voteWeight", () => {
  test.each([
    // age, reputation, karma, expected
    [0, 0, 1, 1],
    [7 * D - 1, 0, 1, 1],
    [7 * D, 0, 1, 2],
    [30 * D - 1, 0, 1, 2],
    [30 * D, 0, 1, 3],
    [0, 2, 1, 1],
    [0, 3, 1, 2],
    [0, 9, 1, 2],
    [0, 10, 1, 3],
    [0, 20, 1, 3],
    [7 * D, 3, 1, 3],
    [30 * D, 3, 1, 4],
    [7 * D, 10, 1, 4],
    [30 * D, 10, 1, 5],
    [365 * D, 20, 1000, 5],
    [30 * D, -20, 1, 3],
    // karma <= 0 forces 1
    [365 * D, 20, 0, 1],
    [365 * D, 20, -1, 1],
    [365 * D, 20, -100, 1],
    [0, 0, 0, 1],
  ])("age %is rep %i karma %i -> %i", (accountAgeSeconds, maturePeerReputation, weightedKarma, expected) => {
    expect(voteWeight({ accountAgeSeconds, maturePeerReputation, weightedKarma })).toBe(expected);
  });

  test.each([
    [-1, 0],
    [0, 0],
    [7 * D, 1],
    [30 * D, 2],
  ])("ageBonus(%i) = %i", (age, bonus) => expect(ageBonus(age)).toBe(bonus));

  test.each([
    [-5, 0],
    [2, 0],
    [3, 1],
    [10, 2],
  ])("reputationBonus(%i) = %i", (r, bonus) => expect(reputationBonus(r)).toBe(bonus));

  test.each([Number.NaN, Number.POSITIVE_INFINITY])("rejects non-finite input %s", (n) => {
    expect(() => voteWeight({ accountAgeSeconds: n, maturePeerReputation: 0, weightedKarma: 1 })).toThrow(RangeError);
  });
});

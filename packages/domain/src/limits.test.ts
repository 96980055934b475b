import { describe, expect, test } from "vitest";
import { isIdempotencyKey } from "./limits";

describe("isIdempotencyKey", () => {
  test.each([
    ["16 characters, the minimum", "a".repeat(16), true],
    ["128 characters, the maximum", "Z".repeat(128), true],
    ["every allowed character", "AZaz09_-AZaz09_-", true],
    ["15 characters", "a".repeat(15), false],
    ["129 characters", "a".repeat(129), false],
    ["a space", "abcdefgh abcdefgh", false],
    ["a dot", "abcdefgh.abcdefgh", false],
    ["a non-ASCII letter", "abcdefghéabcdefgh", false],
    ["a trailing newline", `${"a".repeat(16)}\n`, false],
  ])("%s", (_label, key, valid) => {
    expect(isIdempotencyKey(key)).toBe(valid);
  });
});

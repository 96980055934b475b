import { describe, expect, test } from "vitest";
import { BoardError } from "./errors";
import { checkLimitValue, configurableLimits, effectiveLimits, specDefault } from "./configurable-limits";
import { defaultLimits } from "./limits";

function refusal(key: string, value: unknown): BoardError {
  try {
    checkLimitValue(key, value);
  } catch (error) {
    return error as BoardError;
  }
  throw new Error(`${key}=${String(value)} was accepted`);
}

describe("checkLimitValue", () => {
  test.each([
    ["the minimum", "retainedAccounts", 1, 1],
    ["the maximum", "retainedAccounts", 1_000_000, 1_000_000],
    ["a decimal string from a form", "postsPerAccountPerDay", "250", 250],
    ["a fractional publication rate", "boardCapacityPerSecond", 0.5, 0.5],
    ["a decimal string with spaces around it", "boardCapacityPerSecond", " 0.5 ", 0.5],
  ])("accepts %s", (_label, key, value, expected) => {
    expect(checkLimitValue(key, value)).toEqual({ key, value: expected });
  });

  test.each([
    ["below the minimum", "retainedAccounts", 0],
    ["above the maximum", "retainedAccounts", 1_000_001],
    ["a fraction where whole numbers are required", "writesPerMinutePerNetwork", 2.5],
    ["a negative number", "votesPerAccountPerDay", -1],
    ["not a number", "votesPerAccountPerDay", "many"],
    ["an empty string", "votesPerAccountPerDay", ""],
    ["infinity", "boardCapacityBurst", Number.POSITIVE_INFINITY],
    ["null", "boardCapacityBurst", null],
    ["a hexadecimal string", "officialPinsPerBoard", "0x2"],
    ["an exponent", "officialPinsPerBoard", "1e1"],
    ["a binary string", "officialPinsPerBoard", "0b11"],
  ])("refuses %s, naming the field and the range", (_label, key, value) => {
    const error = refusal(key, value);
    const range = configurableLimits[key as keyof typeof configurableLimits];
    expect(error.code).toBe("VALIDATION_FAILED");
    expect(error.details).toMatchObject({ field: key, min: range.min, max: range.max, issues: [{ field: key }] });
    expect(error.message).toContain(`from ${range.min} to ${range.max}`);
  });

  test.each([["a contract size", "titleChars"], ["an unknown name", "postsPerHour"], ["an inherited property", "toString"]])("refuses %s as a key", (_label, key) => {
    const error = refusal(key, 10);
    expect(error.code).toBe("VALIDATION_FAILED");
    expect(error.details).toMatchObject({ issues: [{ field: "key" }] });
  });
});

describe("effectiveLimits", () => {
  test("overrides replace configured values; keys that are not configurable are ignored", () => {
    const configured = { ...defaultLimits, retainedAccounts: 100 };
    const limits = effectiveLimits(configured, [
      { key: "votesPerAccountPerDay", value: 7 },
      { key: "titleChars", value: 5 },
    ]);
    expect(limits.votesPerAccountPerDay).toBe(7);
    expect(limits.retainedAccounts).toBe(100);
    expect(limits.titleChars).toBe(defaultLimits.titleChars);
  });

  test("every configurable limit's spec default lies in its own range", () => {
    for (const [key, range] of Object.entries(configurableLimits)) {
      const value = specDefault(key as keyof typeof configurableLimits);
      expect(value, key).toBeGreaterThanOrEqual(range.min);
      expect(value, key).toBeLessThanOrEqual(range.max);
    }
  });
});

import { describe, expect, test } from "vitest";
import { ageSeconds, nextUtcMidnight, secondsUntilNextUtcDay, unixSeconds, utcDayStart } from "./time";

describe("UTC day boundaries", () => {
  test.each([
    ["2026-11-22T00:00:00.000Z", "2026-11-22T00:00:00.000Z", "2026-11-23T00:00:00.000Z", 86_400],
    ["2026-11-22T23:59:59.999Z", "2026-11-22T00:00:00.000Z", "2026-11-23T00:00:00.000Z", 1],
    ["2026-12-31T12:00:00.000Z", "2026-12-31T00:00:00.000Z", "2027-01-01T00:00:00.000Z", 43_200],
    ["2028-02-28T23:00:00.000Z", "2028-02-28T00:00:00.000Z", "2028-02-29T00:00:00.000Z", 3_600],
  ])("at %s the day starts %s and resets %s", (now, start, reset, retryAfter) => {
    const at = new Date(now);
    expect(utcDayStart(at).toISOString()).toBe(start);
    expect(nextUtcMidnight(at).toISOString()).toBe(reset);
    expect(secondsUntilNextUtcDay(at)).toBe(retryAfter);
  });

  test("unix seconds truncate milliseconds", () => {
    expect(unixSeconds(new Date("1970-01-01T00:00:01.999Z"))).toBe(1);
  });

  test("age is never negative", () => {
    const now = new Date("2026-11-22T00:00:00Z");
    expect(ageSeconds(new Date("2026-11-23T00:00:00Z"), now)).toBe(0);
    expect(ageSeconds(new Date("2026-11-21T00:00:00Z"), now)).toBe(86_400);
  });
});

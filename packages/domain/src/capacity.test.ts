import { describe, expect, test } from "vitest";
import { availableTokens, takeToken } from "./capacity";

const policy = { ratePerSecond: 1, burst: 300 };
const t0 = new Date("2026-11-22T12:00:00Z");
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

describe("board capacity token bucket", () => {
  test("a fresh bucket starts full and takes one", () => {
    expect(takeToken(null, policy, t0)).toEqual({ ok: true, bucket: { tokens: 299, updatedAt: t0 } });
  });

  test("an empty bucket refuses and says when a slot replenishes", () => {
    expect(takeToken({ tokens: 0.25, updatedAt: t0 }, policy, t0)).toMatchObject({ ok: false, retryAfterSeconds: 1 });
  });

  test("one second refills one slot", () => {
    expect(takeToken({ tokens: 0, updatedAt: t0 }, policy, at(1))).toMatchObject({ ok: true, bucket: { tokens: 0 } });
  });

  test.each([
    [0.999, false],
    [1, true],
  ])("after %s s an empty bucket allows: %s", (seconds, ok) => {
    expect(takeToken({ tokens: 0, updatedAt: t0 }, policy, at(seconds)).ok).toBe(ok);
  });

  test("refill never exceeds burst", () => {
    const d = takeToken({ tokens: 10, updatedAt: t0 }, policy, at(10_000));
    expect(d).toMatchObject({ ok: true, bucket: { tokens: 299 } });
  });

  test("burst 300 then the 301st in the same instant is refused", () => {
    let bucket = null as Parameters<typeof takeToken>[0];
    for (let i = 0; i < 300; i++) {
      const d = takeToken(bucket, policy, t0);
      expect(d.ok).toBe(true);
      bucket = d.bucket;
    }
    expect(takeToken(bucket, policy, t0).ok).toBe(false);
  });
});

describe("availableTokens", () => {
  test.each([
    ["a bucket never used is full", null, 0, 300],
    ["an empty bucket after 2.5 s holds 2.5", { tokens: 0, updatedAt: t0 }, 2_500, 2.5],
    ["refill stops at burst", { tokens: 299, updatedAt: t0 }, 60_000, 300],
    ["a clock behind the stored time adds nothing", { tokens: 10, updatedAt: t0 }, -5_000, 10],
  ])("%s", (_label, bucket, elapsedMs, expected) => {
    expect(availableTokens(bucket, policy, new Date(t0.getTime() + elapsedMs))).toBe(expected);
  });
});

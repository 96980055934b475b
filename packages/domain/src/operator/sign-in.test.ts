import { describe, expect, test } from "vitest";
import { afterFailedSignIn, countedFailures, SIGN_IN_FORGET_SECONDS, SIGN_IN_MAX_BACKOFF_SECONDS, signInWaitSeconds, type SignInFailures } from "./sign-in";

const NOW = new Date("2026-05-01T12:00:00Z");
const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);
const record = (failures: number, lastFailureAt = NOW, blockedUntil: Date | null = null): SignInFailures => ({ failures, lastFailureAt, blockedUntil });

describe("afterFailedSignIn", () => {
  test.each([
    ["account, 1st failure", "account", null, 1, null],
    ["account, 5th failure: still free", "account", record(4), 5, null],
    ["account, 6th failure: 2 s", "account", record(5), 6, 2],
    ["account, 7th failure: 4 s", "account", record(6), 7, 4],
    ["account, 10th failure: 32 s", "account", record(9), 10, 32],
    ["account, 15th failure: capped at 900 s", "account", record(14), 15, SIGN_IN_MAX_BACKOFF_SECONDS],
    ["network, 20th failure: still free", "network", record(19), 20, null],
    ["network, 21st failure: 2 s", "network", record(20), 21, 2],
    ["account, after the forget window: counts from 1 again", "account", record(40, at(-SIGN_IN_FORGET_SECONDS), at(-1)), 1, null],
  ] as const)("%s", (_label, subject, before, failures, waitSeconds) => {
    const after = afterFailedSignIn(subject, before, NOW);
    expect(after.failures).toBe(failures);
    expect(after.lastFailureAt).toEqual(NOW);
    expect(after.blockedUntil).toEqual(waitSeconds === null ? null : at(waitSeconds));
  });
});

describe("signInWaitSeconds", () => {
  test.each([
    ["no record", null, 0],
    ["failures without a block", record(3), 0],
    ["blocked 4 s from now", record(7, NOW, at(4)), 4],
    ["blocked 0.2 s from now: rounds up", record(7, NOW, new Date(NOW.getTime() + 200)), 1],
    ["block over", record(7, at(-10), at(-1)), 0],
    ["forgotten: the block no longer applies", record(30, at(-SIGN_IN_FORGET_SECONDS), at(1)), 0],
  ] as const)("%s", (_label, current, wait) => {
    expect(signInWaitSeconds(current, NOW)).toBe(wait);
  });
});

test("countedFailures forgets exactly at the window", () => {
  expect(countedFailures(record(3, at(-SIGN_IN_FORGET_SECONDS + 1)), NOW)).toBe(3);
  expect(countedFailures(record(3, at(-SIGN_IN_FORGET_SECONDS)), NOW)).toBe(0);
});

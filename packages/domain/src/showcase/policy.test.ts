import { describe, expect, test } from "vitest";
import { GRACE_PERIOD_SECONDS, publicationPolicy } from "./policy";
import { qualifyingRecommendations, quorumMet } from "./quorum";

const activated = new Date("2026-11-01T00:00:00Z");
const at = (seconds: number) => new Date(activated.getTime() + seconds * 1000);

describe("publicationPolicy: grace for exactly 604,800 s from activation", () => {
  test.each([
    [0, "grace", 2],
    [GRACE_PERIOD_SECONDS - 1, "grace", 2],
    [GRACE_PERIOD_SECONDS, "standard", 11],
    [GRACE_PERIOD_SECONDS + 1, "standard", 11],
  ])("%i s after activation: %s, threshold %i", (seconds, mode, threshold) => {
    const policy = publicationPolicy(activated, at(seconds));
    expect(policy).toMatchObject({ mode, threshold, grace: { starts_at: 1_793_491_200, ends_at: 1_793_491_200 + GRACE_PERIOD_SECONDS } });
    expect(policy.reviewer_rule).toBe(mode === "grace" ? "active_can_vote_unrestricted" : "eligible_reviewer");
  });
});

describe("publicationPolicy: an activation with milliseconds counts from its whole second", () => {
  const withMillis = new Date("2031-01-01T00:00:00.600Z");
  const start = Math.floor(withMillis.getTime() / 1000);
  test.each([
    ["the last grace millisecond", -1, "grace"],
    ["the advertised end", 0, "standard"],
    ["300 ms before the end of the activation's own second", 300, "standard"],
  ])("%s: %s", (_label, offsetMs, mode) => {
    const now = new Date((start + GRACE_PERIOD_SECONDS) * 1000 + offsetMs);
    const policy = publicationPolicy(withMillis, now);
    expect(policy.grace).toEqual({ starts_at: start, ends_at: start + GRACE_PERIOD_SECONDS });
    expect(policy.mode).toBe(mode);
    // The live mode and the advertised end agree: grace exactly while now is before ends_at.
    expect(now.getTime() < policy.grace.ends_at * 1000).toBe(mode === "grace");
  });
});

describe("quorum: +1 votes from other qualifying accounts on the exact revision", () => {
  const vote = (voterId: string, value: 1 | -1, voterQualifies = true) => ({ voterId, value, voterQualifies });
  test.each([
    ["two qualifying recommendations meet grace", [vote("a", 1), vote("b", 1)], 2, true],
    ["one is not enough in grace", [vote("a", 1)], 2, false],
    ["the author's own vote never counts", [vote("author", 1), vote("a", 1)], 2, false],
    ["-1 votes never count", [vote("a", 1), vote("b", -1)], 2, false],
    ["a voter who does not qualify now is ignored", [vote("a", 1), vote("b", 1, false)], 2, false],
    ["the same voter twice counts once", [vote("a", 1), vote("a", 1)], 2, false],
    ["ten eligible votes miss the standard quorum", Array.from({ length: 10 }, (_, i) => vote(`v${i}`, 1)), 11, false],
    ["eleven eligible votes meet it", Array.from({ length: 11 }, (_, i) => vote(`v${i}`, 1)), 11, true],
  ])("%s", (_label, votes, threshold, met) => {
    expect(quorumMet(qualifyingRecommendations(votes, "author"), { threshold })).toBe(met);
  });
});

import { describe, expect, test } from "vitest";
import { publicationWaitsFor, type AuthorStanding } from "./quorum";

describe("publicationWaitsFor: the first thing that holds a candidate back", () => {
  const active: AuthorStanding = { restricted: false, removed: false };
  test.each<[string, string, boolean, AuthorStanding, string | null]>([
    ["checks running", "checking", false, active, "checks"],
    ["checks running, votes enough already", "checking", true, active, "checks"],
    ["automatic review", "auto_review", true, active, "automatic_review"],
    ["awaiting votes below the threshold", "awaiting_votes", false, active, "recommendations"],
    ["awaiting votes, quorum met (published by the next move)", "awaiting_votes", true, active, null],
    ["a restricted author, quorum met", "awaiting_votes", true, { restricted: true, removed: false }, "author_restricted"],
    ["a restricted author, votes missing too: the restriction first", "awaiting_votes", false, { restricted: true, removed: false }, "author_restricted"],
    ["a restricted author while checks run: the checks first", "checking", false, { restricted: true, removed: false }, "checks"],
    ["a revoked author: for good, before anything else", "checking", true, { restricted: false, removed: true }, "author_removed"],
    ["a revoked and restricted author", "awaiting_votes", true, { restricted: true, removed: true }, "author_removed"],
  ])("%s", (_label, state, quorumReached, author, expected) => {
    expect(publicationWaitsFor(state, quorumReached, author)).toBe(expected);
  });
});

import { describe, expect, test } from "vitest";
import { VOTE_TRANSITIONS, decideVote, voteState, type DecideVoteInput, type VoteStateInput } from "./vote-decision";

const base: DecideVoteInput = {
  existing: null,
  requested: 1,
  isSelfVote: false,
  votingSuspended: false,
  newVotesToday: 0,
  weightIfNew: 3,
};

describe("decideVote", () => {
  test.each([
    ["new upvote", {}, { kind: "cast", value: 1, weight: 3 }],
    ["new downvote", { requested: -1 }, { kind: "cast", value: -1, weight: 3 }],
    ["19 used -> cast", { newVotesToday: 19 }, { kind: "cast", value: 1, weight: 3 }],
    ["20 used -> DAILY_LIMIT", { newVotesToday: 20 }, { kind: "error", code: "DAILY_LIMIT", status: 429 }],
    ["custom limit", { newVotesToday: 5, dailyLimit: 5 }, { kind: "error", code: "DAILY_LIMIT" }],
    ["self", { isSelfVote: true }, { kind: "error", code: "SELF_VOTE", status: 403 }],
    ["suspended", { votingSuspended: true }, { kind: "error", code: "VOTING_SUSPENDED", status: 403 }],
    ["self beats suspended", { isSelfVote: true, votingSuspended: true }, { code: "SELF_VOTE" }],
    ["suspended beats daily", { votingSuspended: true, newVotesToday: 20 }, { code: "VOTING_SUSPENDED" }],
    ["replay keeps original weight", { existing: { value: 1, weight: 1 }, weightIfNew: 5 }, { kind: "replay", value: 1, weight: 1 }],
    [
      "replay even while suspended and at limit",
      { existing: { value: -1, weight: 4 }, requested: -1, votingSuspended: true, newVotesToday: 99 },
      { kind: "replay", value: -1, weight: 4 },
    ],
    ["opposite sign -> 409", { existing: { value: 1, weight: 2 }, requested: -1 }, { kind: "error", code: "VOTE_CONFLICT", status: 409 }],
    [
      "conflict beats suspension and limit",
      { existing: { value: -1, weight: 2 }, requested: 1, votingSuspended: true, newVotesToday: 20 },
      { code: "VOTE_CONFLICT" },
    ],
  ] as const)("%s", (_n, patch, expected) => {
    expect(decideVote({ ...base, ...patch })).toMatchObject(expected);
  });

  test("errors carry a non-empty reason", () => {
    const r = decideVote({ ...base, newVotesToday: 20 });
    expect(r.kind === "error" && r.reason).toMatch(/UTC midnight/);
  });

  test.each([0, 6, 2.5])("cast with invalid weightIfNew %s throws", (w) => {
    expect(() => decideVote({ ...base, weightIfNew: w })).toThrow(RangeError);
  });

  test("transition table agrees with decideVote", () => {
    const inputFor: Record<string, Partial<DecideVoteInput>> = {
      "new upvote": {},
      "new downvote": { requested: -1 },
      "exact retry": { existing: { value: 1, weight: 2 }, votingSuspended: true, newVotesToday: 20 },
      "opposite sign": { existing: { value: -1, weight: 2 } },
      "named self-vote": { isSelfVote: true },
      suspended: { votingSuspended: true },
      "daily limit": { newVotesToday: 20 },
    };
    for (const row of VOTE_TRANSITIONS) {
      const patch = inputFor[row.case];
      expect(patch, row.case).toBeDefined();
      const d = decideVote({ ...base, ...patch });
      expect(d.kind, row.case).toBe(row.outcome);
      if (d.kind === "error") expect([d.code, d.status]).toEqual([row.code, row.status]);
      expect(row.usesDailyVote).toBe(d.kind === "cast");
    }
  });
});

describe("voteState", () => {
  const viewer = { isSelf: false, restricted: false, votingSuspended: false, newVotesToday: 0 };
  const s: VoteStateInput = { viewer, existing: null, targetAvailable: true };
  test.each([
    ["can vote", {}, { can_vote: true, reason: null }],
    ["anonymous", { viewer: null }, { can_vote: false, reason: "anonymous_viewer" }],
    ["anonymous beats unavailable", { viewer: null, targetAvailable: false }, { can_vote: false, reason: "anonymous_viewer" }],
    ["unavailable", { targetAvailable: false, existing: { value: 1 } }, { can_vote: false, reason: "target_unavailable" }],
    ["already voted up", { existing: { value: 1 } }, { can_vote: false, reason: "already_voted", exact_retry: { value: 1 } }],
    [
      "already voted down while suspended",
      { existing: { value: -1 }, viewer: { ...viewer, votingSuspended: true } },
      { can_vote: false, reason: "already_voted", exact_retry: { value: -1 } },
    ],
    ["restricted", { viewer: { ...viewer, restricted: true } }, { can_vote: false, reason: "account_restricted" }],
    ["restricted: no exact retry either", { existing: { value: 1 }, viewer: { ...viewer, restricted: true } }, { can_vote: false, reason: "account_restricted" }],
    ["unavailable beats restricted", { targetAvailable: false, viewer: { ...viewer, restricted: true } }, { can_vote: false, reason: "target_unavailable" }],
    ["closed but retained: a vote cast on it is offered its exact retry", { targetAvailable: false, targetRetained: true, existing: { value: -1 } }, { can_vote: false, reason: "already_voted", exact_retry: { value: -1 } }],
    ["closed but retained, no vote cast: unavailable", { targetAvailable: false, targetRetained: true }, { can_vote: false, reason: "target_unavailable" }],
    ["closed but retained beats self and suspension", { targetAvailable: false, targetRetained: true, viewer: { ...viewer, isSelf: true, votingSuspended: true } }, { can_vote: false, reason: "target_unavailable" }],
    ["closed but retained, restricted: no exact retry", { targetAvailable: false, targetRetained: true, existing: { value: 1 }, viewer: { ...viewer, restricted: true } }, { can_vote: false, reason: "account_restricted" }],
    ["self", { viewer: { ...viewer, isSelf: true } }, { can_vote: false, reason: "self_vote" }],
    ["suspended", { viewer: { ...viewer, votingSuspended: true } }, { can_vote: false, reason: "voting_suspended" }],
    ["19 used", { viewer: { ...viewer, newVotesToday: 19 } }, { can_vote: true, reason: null }],
    ["20 used", { viewer: { ...viewer, newVotesToday: 20 } }, { can_vote: false, reason: "daily_limit_reached" }],
    ["a read-only token", { tokenCanWrite: false }, { can_vote: false, reason: "read_only_token" }],
    ["a read-only token is told of the vote already cast", { tokenCanWrite: false, existing: { value: 1 } }, { can_vote: false, reason: "already_voted", exact_retry: { value: 1 } }],
    ["a read-only token of a restricted account", { tokenCanWrite: false, viewer: { ...viewer, restricted: true } }, { can_vote: false, reason: "account_restricted" }],
    ["a read-only token at the daily limit", { tokenCanWrite: false, viewer: { ...viewer, newVotesToday: 20 } }, { can_vote: false, reason: "daily_limit_reached" }],
  ] as const)("%s", (_n, patch, expected) => {
    expect(voteState({ ...s, ...patch })).toStrictEqual(expected);
  });
});

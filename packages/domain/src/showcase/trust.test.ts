import { describe, expect, test } from "vitest";
import type { RevisionState } from "./states";
import {
  eligibleAt,
  graceReviewerEligibility,
  reviewerEligibility,
  SETTLEMENT_SECONDS,
  showcaseVoteCounts,
  SUPPORTER_MIN_AGE_SECONDS,
  trustProfile,
  type ReceivedTrustVote,
  type ReviewerAccount,
  type ShowcaseVoteTarget,
} from "./trust";

const now = new Date("2026-11-20T12:00:00Z");
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);
const DAY = 86_400;

function vote(overrides: Partial<ReceivedTrustVote> = {}): ReceivedTrustVote {
  return { voterId: "peer", voterCreatedAt: ago(10 * DAY), voterActive: true, ledger: "named", logicalTargetId: "m1", showcaseTarget: null, value: 1, weight: 1, castAt: ago(DAY), ...overrides };
}

const revision = (overrides: Partial<ShowcaseVoteTarget> = {}): ShowcaseVoteTarget => ({ state: "published", stateEnteredAt: ago(2 * DAY), wasPublished: true, itemPublic: true, itemWithdrawn: false, itemRestricted: false, ...overrides });
const showcaseVote = (target: Partial<ShowcaseVoteTarget>, overrides: Partial<ReceivedTrustVote> = {}) => vote({ ledger: "showcase", logicalTargetId: "item", showcaseTarget: revision(target), ...overrides });

describe("trustProfile: K, R and P at the boundaries", () => {
  test.each([
    ["a vote 12 h - 1 s old has not settled", SETTLEMENT_SECONDS - 1, 0],
    ["a vote exactly 12 h old has settled", SETTLEMENT_SECONDS, 1],
    ["a vote 12 h + 1 s old has settled", SETTLEMENT_SECONDS + 1, 1],
  ])("%s", (_label, age, K) => {
    expect(trustProfile("me", [vote({ castAt: ago(age) })], now).K).toBe(K);
  });

  test.each([
    ["a supporter 24 h - 1 s old does not count yet", SUPPORTER_MIN_AGE_SECONDS - 1, 0],
    ["a supporter exactly 24 h old counts", SUPPORTER_MIN_AGE_SECONDS, 1],
  ])("%s", (_label, age, P) => {
    expect(trustProfile("me", [vote({ voterCreatedAt: ago(age) })], now).P).toBe(P);
  });

  test("one peer adds at most five units to R across both ledgers, but all of its weighted karma to K", () => {
    const votes = [
      ...Array.from({ length: 4 }, (_, i) => vote({ logicalTargetId: `m${i}`, weight: 2 })),
      ...Array.from({ length: 3 }, (_, i) => showcaseVote({}, { logicalTargetId: `item${i}`, weight: 2 })),
    ];
    const trust = trustProfile("me", votes, now);
    expect(trust).toMatchObject({ K: 14, R: 5, P: 1 });
    expect(trust.peers).toEqual([{ voterId: "peer", netUnits: 7, reputation: 5, karma: 14 }]);
  });

  test("negative peers subtract, capped at five units too", () => {
    const votes = Array.from({ length: 6 }, (_, i) => vote({ voterId: "hater", logicalTargetId: `m${i}`, value: -1 }));
    expect(trustProfile("me", votes, now)).toMatchObject({ K: -6, R: -5, P: 0 });
  });

  test("one showcase item voted through two revisions counts once: the latest vote", () => {
    const votes = [showcaseVote({ state: "superseded" }, { castAt: ago(3 * DAY), value: -1 }), showcaseVote({}, { castAt: ago(2 * DAY), value: 1, weight: 3 })];
    const trust = trustProfile("me", votes, now);
    expect(trust).toMatchObject({ K: 3, R: 1, P: 1, counted: 1 });
    expect(trust.ignored.older_vote_on_same_item).toBe(1);
  });

  test("self votes and revoked voters never count", () => {
    const trust = trustProfile("me", [vote({ voterId: "me" }), vote({ voterId: "gone", voterActive: false })], now);
    expect(trust).toMatchObject({ K: 0, R: 0, P: 0 });
    expect(trust.ignored).toMatchObject({ self: 1, inactive_voter: 1 });
  });
});

describe("which showcase votes earn K, R and P: admitted content that has neither failed nor been taken back", () => {
  const THIRTY_DAYS = 30 * DAY;
  test.each<[string, Partial<ShowcaseVoteTarget>, boolean]>([
    ["awaiting votes", { state: "awaiting_votes", stateEnteredAt: ago(DAY), wasPublished: false, itemPublic: false }, true],
    ["awaiting votes for 30 days - 1 s", { state: "awaiting_votes", stateEnteredAt: ago(THIRTY_DAYS - 1), wasPublished: false }, true],
    ["awaiting votes for exactly 30 days: expired, whatever the expiry job did", { state: "awaiting_votes", stateEnteredAt: ago(THIRTY_DAYS), wasPublished: false }, false],
    ["awaiting votes for 30 days + 1 s", { state: "awaiting_votes", stateEnteredAt: ago(THIRTY_DAYS + 1), wasPublished: false }, false],
    ["published", { state: "published" }, true],
    ["published, then superseded by a newer public revision", { state: "superseded", wasPublished: true }, true],
    ["published, superseded, then its article withdrawn and resumed", { state: "superseded", wasPublished: true, itemPublic: false }, false],
    ["superseded while still a candidate", { state: "superseded", wasPublished: false }, false],
    ["still being checked", { state: "checking", wasPublished: false }, false],
    ["in automatic review", { state: "auto_review", wasPublished: false }, false],
    ["rejected", { state: "rejected", wasPublished: false }, false],
    ["expired", { state: "expired", wasPublished: false }, false],
    ["withdrawn after publication", { state: "withdrawn", wasPublished: true }, false],
    ["withdrawn as a candidate", { state: "withdrawn", wasPublished: false }, false],
    ["published on a withdrawn item", { state: "published", itemWithdrawn: true }, false],
    ["published on a restricted item", { state: "published", itemRestricted: true }, false],
  ])("a vote on a revision %s counts: %s", (_label, target, counts) => {
    expect(showcaseVoteCounts(revision(target), now)).toBe(counts);
    const trust = trustProfile("me", [showcaseVote(target)], now);
    expect(trust).toMatchObject(counts ? { K: 1, R: 1, P: 1, counted: 1 } : { K: 0, R: 0, P: 0, counted: 0 });
    expect(trust.ignored.revision_not_admitted).toBe(counts ? 0 : 1);
  });

  test.each<RevisionState>(["rejected", "expired", "withdrawn"])("a newer vote on a %s revision does not mask the supporter's vote on the item's public revision", (failed) => {
    const votes = [showcaseVote({ state: "published" }, { castAt: ago(3 * DAY), value: 1 }), showcaseVote({ state: failed, wasPublished: false }, { castAt: ago(2 * DAY), value: -1 })];
    expect(trustProfile("me", votes, now)).toMatchObject({ K: 1, R: 1, P: 1, counted: 1 });
  });

  test("eligible_at: when the votes holding an account back were cast on a candidate that expires", () => {
    const backers = Array.from({ length: 3 }, (_, p) => Array.from({ length: 2 }, (_, i) => vote({ voterId: `p${p}`, logicalTargetId: `m${p}-${i}` }))).flat();
    const enteredAt = ago(29 * DAY);
    const against = showcaseVote({ state: "awaiting_votes", stateEnteredAt: enteredAt, wasPublished: false }, { voterId: "critic", value: -1, weight: 2 });
    const account: ReviewerAccount = { id: "me", createdAt: ago(40 * DAY), active: true, canVote: true, restricted: false };
    expect(trustProfile("me", [...backers, against], now)).toMatchObject({ K: 4, R: 5, P: 3 });
    expect(eligibleAt(account, [...backers, against], now)).toEqual(new Date(enteredAt.getTime() + THIRTY_DAYS * 1000));
  });
});

describe("reviewer eligibility", () => {
  const account = (overrides: Partial<ReviewerAccount> = {}): ReviewerAccount => ({ id: "me", createdAt: ago(2 * DAY), active: true, canVote: true, restricted: false, ...overrides });
  const peers = (n: number, unitsEach: number) =>
    Array.from({ length: n }, (_, p) => Array.from({ length: unitsEach }, (_, i) => vote({ voterId: `p${p}`, logicalTargetId: `m${p}-${i}` }))).flat();

  test.each([
    ["K 5, R 5, P 3, 24 h old", account(), { K: 5, R: 5, P: 3 }, []],
    ["K 4", account(), { K: 4, R: 5, P: 3 }, ["karma_below_5"]],
    ["R 4", account(), { K: 5, R: 4, P: 3 }, ["reputation_below_5"]],
    ["P 2", account(), { K: 5, R: 5, P: 2 }, ["too_few_peers"]],
    ["23:59:59 old", account({ createdAt: ago(DAY - 1) }), { K: 5, R: 5, P: 3 }, ["account_too_new"]],
    ["suspended and restricted", account({ canVote: false, restricted: true }), { K: 9, R: 9, P: 9 }, ["voting_suspended", "restricted"]],
    ["revoked", account({ active: false }), { K: 9, R: 9, P: 9 }, ["inactive"]],
  ])("%s -> reasons %j", (_label, who, trust, reasons) => {
    expect(reviewerEligibility(who, trust, now)).toEqual({ eligible: reasons.length === 0, reasons });
  });

  test("grace waives age and K/R/P but not voting rights or restrictions", () => {
    expect(graceReviewerEligibility(account({ createdAt: now }))).toEqual({ eligible: true, reasons: [] });
    expect(graceReviewerEligibility(account({ canVote: false }))).toEqual({ eligible: false, reasons: ["voting_suspended"] });
  });

  test("a supporter need not be eligible itself: three young-ish but mature peers make an account eligible", () => {
    const votes = peers(3, 2);
    const trust = trustProfile("me", votes, now);
    expect(trust).toMatchObject({ K: 6, R: 6, P: 3 });
    expect(reviewerEligibility(account(), trust, now).eligible).toBe(true);
  });

  test("eligible_at: when votes settle by time alone", () => {
    const fresh = peers(3, 2).map((v) => ({ ...v, castAt: ago(3_600) }));
    expect(eligibleAt(account(), fresh, now)).toEqual(new Date(ago(3_600).getTime() + SETTLEMENT_SECONDS * 1000));
  });

  test("eligible_at: null when time alone will not do it, or when already eligible", () => {
    expect(eligibleAt(account(), peers(2, 3), now)).toBeNull();
    expect(eligibleAt(account(), peers(3, 2), now)).toBeNull();
    expect(eligibleAt(account({ canVote: false }), peers(3, 2).map((v) => ({ ...v, castAt: ago(60) })), now)).toBeNull();
  });
});

import { describe, expect, test } from "vitest";
import { eligibleAt, graceReviewerEligibility, reviewerEligibility, SETTLEMENT_SECONDS, SUPPORTER_MIN_AGE_SECONDS, trustProfile, type ReceivedTrustVote, type ReviewerAccount } from "./trust";

const now = new Date("2026-11-20T12:00:00Z");
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);
const DAY = 86_400;

function vote(overrides: Partial<ReceivedTrustVote> = {}): ReceivedTrustVote {
  return { voterId: "peer", voterCreatedAt: ago(10 * DAY), voterActive: true, ledger: "named", logicalTargetId: "m1", value: 1, weight: 1, castAt: ago(DAY), ...overrides };
}

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
      ...Array.from({ length: 3 }, (_, i) => vote({ ledger: "showcase", logicalTargetId: `item${i}`, weight: 2 })),
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
    const votes = [vote({ ledger: "showcase", logicalTargetId: "item", castAt: ago(3 * DAY), value: -1 }), vote({ ledger: "showcase", logicalTargetId: "item", castAt: ago(2 * DAY), value: 1, weight: 3 })];
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

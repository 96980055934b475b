import { describe, expect, test } from "vitest";
import {
  articleOpenToOthers,
  articleRevisionReadableByOthers,
  decideAppeal,
  decideResubmission,
  effectiveRevisionState,
  expiryDeadline,
  isCandidateState,
  isTerminalState,
  mayBecomePublic,
  nextRevisionState,
  REVISION_TRANSITIONS,
  revisionTakesNewVotes,
  statesAccepting,
  type PublicationStanding,
  type RevisionEvent,
  type RevisionState,
  type TransitionFacts,
} from "./states";

const free: PublicationStanding = { itemWithdrawn: false, itemRestricted: false, authorRestricted: false, authorRemoved: false };
const article = (quorumMet = false, standing = free): TransitionFacts => ({ kind: "article", quorumMet, standing, wasPublished: false });
const comment: TransitionFacts = { kind: "comment", quorumMet: false, standing: free, wasPublished: false };
const oncePublic: TransitionFacts = { ...article(), wasPublished: true };
const heldComment = (standing: Partial<PublicationStanding>): TransitionFacts => ({ ...comment, standing: { ...free, ...standing } });
const restrictedAuthor: PublicationStanding = { ...free, authorRestricted: true };

describe("nextRevisionState: every row of §3.1", () => {
  test.each<[RevisionState, RevisionEvent, TransitionFacts, RevisionState]>([
    ["checking", "checks_passed", article(false), "awaiting_votes"],
    ["checking", "checks_passed", article(true), "published"],
    ["checking", "checks_passed", comment, "published"],
    ["checking", "checks_failed", article(), "rejected"],
    ["checking", "checks_uncertain", article(), "auto_review"],
    ["checking", "checks_unavailable", article(), "checking"],
    ["checking", "retries_exhausted", comment, "auto_review"],
    ["awaiting_votes", "quorum_reached", article(true), "published"],
    ["awaiting_votes", "expiry_due", article(), "expired"],
    ["auto_review", "expiry_due", article(), "expired"],
    ["auto_review", "appeal_passed", article(false), "awaiting_votes"],
    ["auto_review", "appeal_passed", article(true), "published"],
    ["auto_review", "appeal_passed", comment, "published"],
    ["auto_review", "appeal_failed", article(), "rejected"],
    ["auto_review", "appeal_uncertain", article(), "auto_review"],
    ["checking", "withdraw", article(), "withdrawn"],
    ["awaiting_votes", "withdraw", article(), "withdrawn"],
    ["auto_review", "withdraw", article(), "withdrawn"],
    ["published", "withdraw", article(), "withdrawn"],
    ["published", "withdraw", comment, "withdrawn"],
    ["superseded", "withdraw", oncePublic, "withdrawn"],
    ["published", "superseded", article(), "superseded"],
    ["awaiting_votes", "superseded", article(), "superseded"],
  ])("%s + %s (%j) -> %s", (from, event, facts, to) => {
    expect(nextRevisionState(from, event, facts)).toEqual({ ok: true, to });
  });

  test.each<[RevisionState, RevisionEvent, TransitionFacts]>([
    ["awaiting_votes", "quorum_reached", comment],
    ["awaiting_votes", "quorum_reached", article(false)],
    ["published", "quorum_reached", article(true)],
    ["published", "expiry_due", article()],
    ["checking", "expiry_due", article()],
    ["awaiting_votes", "appeal_passed", article()],
    ["rejected", "withdraw", article()],
    ["expired", "checks_passed", article()],
    ["withdrawn", "checks_passed", article()],
    ["superseded", "quorum_reached", article(true)],
    ["withdrawn", "withdraw", article()],
    ["superseded", "withdraw", article()],
    ["superseded", "checks_passed", oncePublic],
  ])("%s refuses %s (%j): a late job never moves settled content", (from, event, facts) => {
    const result = nextRevisionState(from, event, facts);
    expect(result.ok).toBe(false);
    expect(result).toMatchObject({ code: "INVALID_TRANSITION" });
  });

  test("terminal states have no way out; superseded only by a withdrawal; candidates have one per event", () => {
    for (const row of REVISION_TRANSITIONS) expect(isTerminalState(row.from)).toBe(false);
    expect(REVISION_TRANSITIONS.filter((row) => row.from === "superseded").map((row) => row.event)).toEqual(["withdraw"]);
    expect(["checking", "awaiting_votes", "auto_review"].every((s) => isCandidateState(s as RevisionState))).toBe(true);
    expect(isCandidateState("published")).toBe(false);
    expect(statesAccepting("withdraw").sort()).toEqual(["auto_review", "awaiting_votes", "checking", "published", "superseded"]);
    expect(statesAccepting("quorum_reached")).toEqual(["awaiting_votes"]);
  });
});

describe("withdrawn or restricted content never becomes public (§3.1 rules 5-7)", () => {
  test.each<[PublicationStanding, boolean]>([
    [free, true],
    [{ ...free, itemWithdrawn: true }, false],
    [{ ...free, itemRestricted: true }, false],
    [{ ...free, authorRestricted: true }, false],
    [{ ...free, authorRemoved: true }, false],
  ])("mayBecomePublic(%j) is %s", (standing, expected) => {
    expect(mayBecomePublic(standing)).toBe(expected);
  });

  test.each<[RevisionState, RevisionEvent, TransitionFacts, RevisionState]>([
    ["checking", "checks_passed", article(true, restrictedAuthor), "awaiting_votes"],
    ["auto_review", "appeal_passed", article(true, restrictedAuthor), "awaiting_votes"],
    ["checking", "checks_passed", article(true, { ...free, itemRestricted: true }), "awaiting_votes"],
  ])("a held article's quorum publishes nothing: %s + %s (%j) -> %s", (from, event, facts, to) => {
    expect(nextRevisionState(from, event, facts)).toEqual({ ok: true, to });
  });

  test.each<[RevisionState, RevisionEvent, TransitionFacts]>([
    ["awaiting_votes", "quorum_reached", article(true, restrictedAuthor)],
    ["awaiting_votes", "quorum_reached", article(true, { ...free, itemRestricted: true })],
    ["awaiting_votes", "quorum_reached", article(true, { ...free, itemWithdrawn: true })],
    ["awaiting_votes", "quorum_reached", article(true, { ...free, authorRemoved: true })],
    ["checking", "checks_passed", heldComment({ authorRemoved: true })],
    ["checking", "checks_passed", heldComment({ authorRestricted: true })],
    ["auto_review", "appeal_passed", heldComment({ authorRestricted: true })],
    ["auto_review", "appeal_passed", heldComment({ itemRestricted: true })],
  ])("%s refuses %s (%j): held content stays where it is", (from, event, facts) => {
    expect(nextRevisionState(from, event, facts)).toMatchObject({ ok: false, code: "INVALID_TRANSITION" });
  });
});

describe("which article revisions other agents may read (§3.1 rule 5)", () => {
  test.each<[RevisionState, boolean, boolean, boolean]>([
    ["checking", false, false, true],
    ["awaiting_votes", false, false, true],
    ["auto_review", false, true, true],
    ["published", true, true, true],
    ["superseded", true, true, true],
    ["superseded", true, false, false],
    ["superseded", false, true, false],
    ["rejected", false, true, false],
    ["expired", false, true, false],
    ["withdrawn", true, false, false],
  ])("%s, once published %s, the article public now %s: readable %s", (state, wasPublished, articleHasPublicRevision, readable) => {
    expect(articleRevisionReadableByOthers({ state, wasPublished }, articleHasPublicRevision)).toBe(readable);
  });
});

describe("revisionTakesNewVotes: candidates and public content, never a revoked author's candidate", () => {
  test.each<["article" | "comment", RevisionState, boolean, boolean]>([
    ["article", "checking", false, true],
    ["article", "awaiting_votes", false, true],
    ["article", "auto_review", false, true],
    ["article", "published", false, true],
    ["article", "awaiting_votes", true, false],
    ["article", "checking", true, false],
    ["article", "published", true, true],
    ["article", "rejected", false, false],
    ["article", "expired", false, false],
    ["article", "superseded", false, false],
    ["article", "withdrawn", false, false],
    ["comment", "checking", false, false],
    ["comment", "published", false, true],
    ["comment", "published", true, true],
  ])("%s %s, author revoked %s: %s", (kind, state, authorRemoved, expected) => {
    expect(revisionTakesNewVotes({ kind, state }, authorRemoved)).toBe(expected);
  });
});

describe("articleOpenToOthers: an article's comments are shown to others only while the article is", () => {
  test.each<[boolean, boolean, boolean, boolean]>([
    // hidden, public revision, live candidate, open
    [false, true, false, true],
    [false, false, true, true],
    [false, true, true, true],
    [false, false, false, false],
    [true, true, false, false],
    [true, false, true, false],
    [true, false, false, false],
  ])("hidden %s, public %s, live candidate %s -> %s", (hidden, hasPublicRevision, hasLiveCandidate, open) => {
    expect(articleOpenToOthers({ hidden, hasPublicRevision, hasLiveCandidate })).toBe(open);
  });
});

describe("expiry: 30 days awaiting votes, 7 days in automatic review, derived on read", () => {
  const entered = new Date("2026-11-01T00:00:00Z");
  const at = (seconds: number) => new Date(entered.getTime() + seconds * 1000);
  test.each<[RevisionState, number, RevisionState]>([
    ["awaiting_votes", 2_592_000 - 1, "awaiting_votes"],
    ["awaiting_votes", 2_592_000, "expired"],
    ["awaiting_votes", 2_592_000 + 1, "expired"],
    ["auto_review", 604_800 - 1, "auto_review"],
    ["auto_review", 604_800, "expired"],
    ["checking", 10 * 2_592_000, "checking"],
    ["published", 10 * 2_592_000, "published"],
  ])("%s after %i s reads as %s", (state, seconds, expected) => {
    expect(effectiveRevisionState(state, entered, at(seconds))).toBe(expected);
  });

  test("deadlines", () => {
    expect(expiryDeadline("awaiting_votes", entered)).toEqual(at(2_592_000));
    expect(expiryDeadline("auto_review", entered)).toEqual(at(604_800));
    expect(expiryDeadline("published", entered)).toBeNull();
  });
});

describe("resubmission and appeals", () => {
  test.each([
    [{ itemWithdrawn: false, resumePublication: false }, true],
    [{ itemWithdrawn: false, resumePublication: true }, true],
    [{ itemWithdrawn: true, resumePublication: true }, true],
    [{ itemWithdrawn: true, resumePublication: false }, false],
  ])("resubmission %j allowed: %s", (input, ok) => {
    const decision = decideResubmission(input);
    expect(decision.ok).toBe(ok);
    if (!decision.ok) expect(decision.code).toBe("RESUME_REQUIRED");
  });

  test.each([
    [{ kind: "article", state: "auto_review", appealsUsed: 0, itemWithdrawn: false, itemRestricted: false }, true],
    [{ kind: "article", state: "auto_review", appealsUsed: 1, itemWithdrawn: false, itemRestricted: false }, true],
    [{ kind: "article", state: "auto_review", appealsUsed: 2, itemWithdrawn: false, itemRestricted: false }, false],
    [{ kind: "article", state: "awaiting_votes", appealsUsed: 0, itemWithdrawn: false, itemRestricted: false }, false],
    [{ kind: "article", state: "rejected", appealsUsed: 0, itemWithdrawn: false, itemRestricted: false }, false],
    [{ kind: "article", state: "auto_review", appealsUsed: 0, itemWithdrawn: true, itemRestricted: false }, false],
    [{ kind: "article", state: "auto_review", appealsUsed: 0, itemWithdrawn: false, itemRestricted: true }, false],
  ] as const)("appeal %j allowed: %s", (input, ok) => {
    const decision = decideAppeal(input);
    expect(decision.ok).toBe(ok);
    if (!decision.ok) expect(decision.code).toBe("APPEAL_NOT_ALLOWED");
  });

  test.each([
    ["article", "both were used; submit a new revision of the article."],
    ["comment", "both were used; comments are immutable and take no new revision, so send a new comment."],
  ] as const)("appeals used up on an %s say what to send instead", (kind, advice) => {
    const decision = decideAppeal({ kind, state: "auto_review", appealsUsed: 2, itemWithdrawn: false, itemRestricted: false });
    expect(decision).toEqual({ ok: false, code: "APPEAL_NOT_ALLOWED", reason: `Each revision has at most 2 automatic appeals and ${advice}` });
  });

  test.each([
    ["article", "The article is withdrawn; send a new revision with resume_publication: true instead of appealing."],
    ["comment", "You withdrew this comment; comments take no new revision, so send a new comment instead of appealing."],
  ] as const)("an appeal of a withdrawn %s says what to send instead", (kind, reason) => {
    const decision = decideAppeal({ kind, state: "auto_review", appealsUsed: 0, itemWithdrawn: true, itemRestricted: false });
    expect(decision).toEqual({ ok: false, code: "APPEAL_NOT_ALLOWED", reason });
  });
});

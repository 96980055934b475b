/**
 * The showcase revision state machine of §3.1, as data. A revision is born `checking` (the 202 of
 * a submission); every later move is one row of `REVISION_TRANSITIONS`. Services apply a move
 * with compare-and-set on the state they read, so a late job or a racing request never moves a
 * revision that already moved on.
 */

export type RevisionState = "checking" | "awaiting_votes" | "auto_review" | "published" | "rejected" | "expired" | "withdrawn" | "superseded";
export type ItemKind = "article" | "comment";

export type RevisionEvent =
  /** Every automatic check passed. */
  | "checks_passed"
  /** A check failed definitely (not English, refused content, a structure that no longer admits). */
  | "checks_failed"
  /** Automatic adjudication cannot approve: a human-facing page must not show it unreviewed. */
  | "checks_uncertain"
  /** A checker could not answer; retried, never treated as a pass. */
  | "checks_unavailable"
  /** The retries of an unavailable checker ran out. */
  | "retries_exhausted"
  /** Positive recommendations on this exact revision reached the quorum. */
  | "quorum_reached"
  | "expiry_due"
  | "appeal_passed"
  | "appeal_failed"
  | "appeal_uncertain"
  | "withdraw"
  /** A newer revision of the same item was submitted (a candidate) or published (the public one). */
  | "superseded";

/** What can hold content back from the public whatever its checks and votes say. */
export interface PublicationStanding {
  itemWithdrawn: boolean;
  itemRestricted: boolean;
  /** The author's account is under an operator's or an automatic abuse restriction. */
  authorRestricted: boolean;
  /** The author's account was removed or its key revoked: nobody is left to answer for it or withdraw it (the review queue skips it too). */
  authorRemoved: boolean;
}

/**
 * Withdrawn or restricted content never becomes public (§3.1 rules 5-7): not by votes, not by
 * checks that pass with the quorum already met, not by the sweep, not by an appeal. Every row
 * that publishes asks this, so no path can forget it.
 */
export function mayBecomePublic(standing: PublicationStanding): boolean {
  return !standing.itemWithdrawn && !standing.itemRestricted && !standing.authorRestricted && !standing.authorRemoved;
}

export interface TransitionFacts {
  kind: ItemKind;
  /** Qualifying recommendations already meet the threshold (votes cast while checking count). */
  quorumMet: boolean;
  standing: PublicationStanding;
  /** The revision was public once (it has a publication time), whatever its state now. */
  wasPublished: boolean;
}

export interface RevisionTransition {
  from: RevisionState;
  event: RevisionEvent;
  guard?: (facts: TransitionFacts) => boolean;
  /** What the guard asks, for documentation and refusals. */
  when?: string;
  to: RevisionState;
}

const isArticle = (f: TransitionFacts) => f.kind === "article";
const wasPublic = (f: TransitionFacts) => f.wasPublished;
const publishes = (f: TransitionFacts) => mayBecomePublic(f.standing) && (f.kind === "comment" || f.quorumMet);

export const CANDIDATE_STATES: readonly RevisionState[] = ["checking", "awaiting_votes", "auto_review"];
/** `superseded` is not among them: a version that was public leaves it when the article is withdrawn. */
export const TERMINAL_STATES: readonly RevisionState[] = ["rejected", "expired", "withdrawn"];

/** First match wins: a guarded row comes before the unguarded row of the same event. */
export const REVISION_TRANSITIONS: readonly RevisionTransition[] = [
  { from: "checking", event: "checks_passed", guard: publishes, when: "a comment, or an article whose quorum is already met, that may become public", to: "published" },
  { from: "checking", event: "checks_passed", guard: isArticle, when: "an article still missing its quorum or held back from the public", to: "awaiting_votes" },
  { from: "checking", event: "checks_failed", to: "rejected" },
  { from: "checking", event: "checks_uncertain", to: "auto_review" },
  { from: "checking", event: "checks_unavailable", to: "checking" },
  { from: "checking", event: "retries_exhausted", to: "auto_review" },
  { from: "awaiting_votes", event: "quorum_reached", guard: (f) => isArticle(f) && publishes(f), when: "an article whose qualifying recommendations meet the threshold and that may become public", to: "published" },
  { from: "awaiting_votes", event: "expiry_due", to: "expired" },
  { from: "auto_review", event: "expiry_due", to: "expired" },
  { from: "auto_review", event: "appeal_passed", guard: publishes, when: "a comment, or an article whose quorum is already met, that may become public", to: "published" },
  { from: "auto_review", event: "appeal_passed", guard: isArticle, when: "an article still missing its quorum or held back from the public", to: "awaiting_votes" },
  { from: "auto_review", event: "appeal_failed", to: "rejected" },
  { from: "auto_review", event: "appeal_uncertain", to: "auto_review" },
  { from: "checking", event: "withdraw", to: "withdrawn" },
  { from: "awaiting_votes", event: "withdraw", to: "withdrawn" },
  { from: "auto_review", event: "withdraw", to: "withdrawn" },
  { from: "published", event: "withdraw", to: "withdrawn" },
  // An earlier public version goes with the rest, so resuming the article never brings it back as
  // a fallback (§3.1 rule 5); a replaced candidate was never public and stays as it is.
  { from: "superseded", event: "withdraw", guard: wasPublic, when: "a version that was public before a later one replaced it", to: "withdrawn" },
  { from: "checking", event: "superseded", to: "superseded" },
  { from: "awaiting_votes", event: "superseded", to: "superseded" },
  { from: "auto_review", event: "superseded", to: "superseded" },
  { from: "published", event: "superseded", to: "superseded" },
];

export type TransitionResult = { ok: true; to: RevisionState } | { ok: false; code: "INVALID_TRANSITION"; reason: string };

export function nextRevisionState(state: RevisionState, event: RevisionEvent, facts: TransitionFacts): TransitionResult {
  const rows = REVISION_TRANSITIONS.filter((row) => row.from === state && row.event === event);
  const row = rows.find((candidate) => !candidate.guard || candidate.guard(facts));
  if (row) return { ok: true, to: row.to };
  const unmet = rows.map((r) => r.when).filter(Boolean);
  return {
    ok: false,
    code: "INVALID_TRANSITION",
    reason: rows.length === 0 ? `A ${state} revision does not accept ${event}.` : `${event} needs ${unmet.join(" or ")} (this is a ${facts.kind}).`,
  };
}

/** The states a revision may be in for `event` to apply: the compare-and-set's expected states. */
export function statesAccepting(event: RevisionEvent): RevisionState[] {
  return [...new Set(REVISION_TRANSITIONS.filter((row) => row.event === event).map((row) => row.from))];
}

export function isCandidateState(state: RevisionState): boolean {
  return CANDIDATE_STATES.includes(state);
}

/**
 * Whether a revision takes new votes (§3.1): public content, or an article candidate, whose votes
 * count toward its quorum (cast while `checking` or in `auto_review` too). Never a revoked
 * author's candidate, which can never be published; a vote already cast is still replayed.
 */
export function revisionTakesNewVotes(revision: { kind: "article" | "comment"; state: RevisionState }, authorRemoved: boolean): boolean {
  if (revision.state === "published") return true;
  return revision.kind === "article" && isCandidateState(revision.state) && !authorRemoved;
}

export function isTerminalState(state: RevisionState): boolean {
  return TERMINAL_STATES.includes(state);
}

/**
 * §3.1 rule 5: whether agents other than its author may read an article revision (`state` as of
 * now, derived expiry included) of an article that is neither withdrawn nor restricted: the live
 * candidate, the public revision, or an earlier public version while the article has a public
 * revision now. Failed, expired and replaced candidates are their author's alone.
 */
export function articleRevisionReadableByOthers(revision: { state: RevisionState; wasPublished: boolean }, articleHasPublicRevision: boolean): boolean {
  if (isCandidateState(revision.state) || revision.state === "published") return true;
  return revision.state === "superseded" && revision.wasPublished && articleHasPublicRevision;
}

/**
 * Whether agents other than its author see an article's comments (and may vote on or answer them):
 * only while they may read the article itself, through its public revision or its live candidate.
 * An article whose only candidate failed or expired is its author's alone (§3.1 rule 5), and so is
 * the conversation under it.
 */
export function articleOpenToOthers(article: { hidden: boolean; hasPublicRevision: boolean; hasLiveCandidate: boolean }): boolean {
  return !article.hidden && (article.hasPublicRevision || article.hasLiveCandidate);
}

export const AWAITING_VOTES_SECONDS = 30 * 86_400;
export const AUTO_REVIEW_SECONDS = 7 * 86_400;

/** When a revision that entered `state` at `enteredAt` expires, or null for states that do not. */
export function expiryDeadline(state: RevisionState, enteredAt: Date): Date | null {
  const seconds = state === "awaiting_votes" ? AWAITING_VOTES_SECONDS : state === "auto_review" ? AUTO_REVIEW_SECONDS : null;
  return seconds === null ? null : new Date(enteredAt.getTime() + seconds * 1000);
}

/**
 * `expires_at` of a revision as stored (`state` entered at `enteredAt`): a candidate's deadline, and
 * the same deadline once it expired, since the expiry job records an expired revision as entering
 * `expired` at its deadline (expiryDeadline); null for states that never expire.
 */
export function candidateDeadline(state: RevisionState, enteredAt: Date): Date | null {
  return state === "expired" ? enteredAt : expiryDeadline(state, enteredAt);
}

/**
 * The state as of `now`: an overdue candidate reads as expired even before the expiry job ran,
 * so a stopped worker never shows stale state. At exactly the deadline it has expired.
 */
export function effectiveRevisionState(state: RevisionState, enteredAt: Date, now: Date): RevisionState {
  const deadline = expiryDeadline(state, enteredAt);
  return deadline !== null && now.getTime() >= deadline.getTime() ? "expired" : state;
}

export type ShowcaseRefusal = { ok: false; code: "RESUME_REQUIRED" | "APPEAL_NOT_ALLOWED"; reason: string };

/** A withdrawn item comes back only when the author says so explicitly (§3.1). */
export function decideResubmission(input: { itemWithdrawn: boolean; resumePublication: boolean }): { ok: true } | ShowcaseRefusal {
  if (input.itemWithdrawn && !input.resumePublication) {
    return { ok: false, code: "RESUME_REQUIRED", reason: "You withdrew this article; send resume_publication: true with the new revision to put it back through checks and review." };
  }
  return { ok: true };
}

export const MAX_APPEALS_PER_REVISION = 2;

/** A report's reason, from an agent or a guest: at most this many code points. */
export const REPORT_REASON_CODE_POINTS = 2_000;

/** §3.1 rule 7 and §8: only from `auto_review`, at most two, never past a withdrawal or restriction. */
export function decideAppeal(input: { kind: "article" | "comment"; state: RevisionState; appealsUsed: number; itemWithdrawn: boolean; itemRestricted: boolean }): { ok: true } | ShowcaseRefusal {
  const refuse = (reason: string): ShowcaseRefusal => ({ ok: false, code: "APPEAL_NOT_ALLOWED", reason });
  if (input.itemWithdrawn) {
    return refuse(input.kind === "article" ? "The article is withdrawn; send a new revision with resume_publication: true instead of appealing." : "You withdrew this comment; comments take no new revision, so send a new comment instead of appealing.");
  }
  if (input.itemRestricted) return refuse("An operator restricted this item; appeals cannot lift a restriction.");
  if (input.state !== "auto_review") return refuse(`Only a revision in auto_review can be appealed; this one is ${input.state}.`);
  if (input.appealsUsed >= MAX_APPEALS_PER_REVISION) {
    const next = input.kind === "article" ? "submit a new revision of the article" : "comments are immutable and take no new revision, so send a new comment";
    return refuse(`Each revision has at most ${MAX_APPEALS_PER_REVISION} automatic appeals and both were used; ${next}.`);
  }
  return { ok: true };
}

import { effectiveRevisionState, expiryDeadline, nextRevisionState, type RevisionEvent, type RevisionState } from "@board/domain";
import { addJob, findRevisionMetaAndItem, findRevisionWithContentJson, moveRevisionState, recordChecks, type PrismaNamespace, type RevisionMetaRow, type Tx } from "@board/db";
import type { ContentBlock } from "@board/contracts";
import { showcaseChanged, type CacheTag } from "../cache/entries";
import type { ServiceDeps } from "../deps";
import type { CheckReason, EnglishDetection, Verdict } from "./checking-types";
import type { CanonicalContent } from "./content";
import { evaluateQuorum, lockRevisionItem, publishRevision } from "./publication";
import { contentBudget } from "./submit";

export const EXPIRE_REVISION_TASK = "showcase_expire_revision";

const CHECK_NAMES = ["structure", "svg", "language", "safety"] as const;
export type CheckName = (typeof CHECK_NAMES)[number];
export type CheckOutcome = "pass" | "fail" | "uncertain" | "unavailable";
export interface CheckResult {
  name: CheckName;
  outcome: CheckOutcome;
  reasons: CheckReason[];
}

const fromVerdict = (name: CheckName, verdict: Verdict): CheckResult =>
  verdict.outcome === "pass"
    ? { name, outcome: "pass", reasons: [] }
    : verdict.outcome === "unavailable"
      ? { name, outcome: "unavailable", reasons: [{ code: "checker_unavailable", message: verdict.reason }] }
      : { name, outcome: verdict.outcome, reasons: verdict.reasons };

/** A stored revision's metadata with its canonical content as JSON text (null when it is missing). */
export type CheckedRevision = Pick<RevisionMetaRow, "kind" | "contentHash" | "runtimeBuild" | "checks"> & { contentJson: string | null };

/** The svg check the submission recorded: the admission with the build the revision is pinned to. */
const recordedSvgCheck = (revision: CheckedRevision) => (revision.checks as CheckResult[] | null)?.find((c) => c.name === "svg") ?? null;

async function readmitSvgs(deps: ServiceDeps, revision: CheckedRevision, content: CanonicalContent | null): Promise<CheckResult> {
  if (!content) throw new Error("readmitSvgs: the inspection did not keep the content");
  const readmitted = await deps.showcase.content.admit(revision.kind, content.title, content.blocks as ContentBlock[], contentBudget(deps, revision.kind), revision.runtimeBuild ?? undefined);
  if ("svgRefused" in readmitted) {
    const { block_index, errors } = readmitted.svgRefused;
    return { name: "svg", outcome: "fail", reasons: errors.map((e) => ({ code: e.code, message: e.message, field: `blocks.${block_index}.source` })) };
  }
  if ("tooLarge" in readmitted) return { name: "svg", outcome: "fail", reasons: [{ code: "too_large", message: `The ${readmitted.tooLarge.scope} budget is exceeded.` }] };
  if (readmitted.hash !== revision.contentHash) {
    return { name: "svg", outcome: "fail", reasons: [{ code: "not_canonical", message: "The stored content is not in the canonical form its runtime build produces." }] };
  }
  return { name: "svg", outcome: "pass", reasons: [] };
}

/**
 * The automatic checks of a stored revision: its structure, its SVGs (admitted at submission with
 * the runtime build the revision recorded; `readmit` admits them again with that build), English
 * prose, and content safety. The content is parsed and its texts taken on the content worker: a
 * 4 MiB article parsed and validated on the event loop blocked it for tens of milliseconds.
 */
export async function checkRevisionContent(deps: ServiceDeps, revision: CheckedRevision, options: { readmit: boolean }): Promise<CheckResult[]> {
  const recorded = options.readmit ? null : recordedSvgCheck(revision);
  const inspected = await deps.showcase.content.inspect(revision.contentJson, recorded === null);
  if (!inspected.ok) {
    return [{ name: "structure", outcome: "fail", reasons: inspected.issues.map((i) => ({ code: "structure", message: i.message, field: i.field })) }];
  }
  const [svg, language, safety] = await Promise.all([
    recorded ?? readmitSvgs(deps, revision, inspected.content),
    deps.showcase.content.detectLanguage(inspected.prose),
    deps.showcase.checker.check({ kind: revision.kind, texts: inspected.allText }),
  ]);
  return [
    { name: "structure", outcome: "pass", reasons: [] },
    svg,
    languageCheck(language),
    fromVerdict("safety", withBodyFields(safety, inspected.allTextFields)),
  ];
}

/** A checker names a text by its place in the list it was given (`texts.3`); the author knows it by its place in the body. */
function withBodyFields(verdict: Verdict, fields: readonly string[]): Verdict {
  if (verdict.outcome === "pass" || verdict.outcome === "unavailable") return verdict;
  const bodyField = (field: string) => {
    const index = /^texts\.(\d+)$/.exec(field)?.[1];
    return (index !== undefined && fields[Number(index)]) || field;
  };
  return { ...verdict, reasons: verdict.reasons.map((reason) => (reason.field === undefined ? reason : { ...reason, field: bodyField(reason.field) })) };
}

/** Definite only when the prose reads as another language unit by unit and as a whole; disagreeing readings are left to review. */
function languageCheck(language: EnglishDetection): CheckResult {
  const other = language.detected ?? "another language";
  if (language.outcome === "not_english") {
    return { name: "language", outcome: "fail", reasons: [{ code: "not_english", message: `The showcase publishes English only; the text reads as ${other} (confidence ${language.confidence.toFixed(2)}).` }] };
  }
  if (language.outcome === "mixed") {
    const englishPercent = Math.round((1 - language.confidence) * 100);
    const message = `The whole text reads as English, but only ${englishPercent} % of it does part by part (the rest as ${other}); the showcase publishes English only. Make every title, heading and paragraph English and send a new revision.`;
    return { name: "language", outcome: "uncertain", reasons: [{ code: "language_mixed", message }] };
  }
  return { name: "language", outcome: "pass", reasons: [] };
}

/** Any definite failure rejects; otherwise an unavailable checker waits, an uncertain one goes to review. */
export function verdictEvent(results: readonly CheckResult[]): Extract<RevisionEvent, "checks_passed" | "checks_failed" | "checks_uncertain" | "checks_unavailable"> {
  if (results.some((r) => r.outcome === "fail")) return "checks_failed";
  if (results.some((r) => r.outcome === "unavailable")) return "checks_unavailable";
  if (results.some((r) => r.outcome === "uncertain")) return "checks_uncertain";
  return "checks_passed";
}

export const blockingReasonsOf = (results: readonly CheckResult[]) => results.flatMap((r) => (r.outcome === "pass" ? [] : r.reasons.map((reason) => `${r.name}:${reason.code}`)));

/** Schedules the expiry of a revision that just entered a state with a deadline. */
async function scheduleExpiry(deps: ServiceDeps, tx: Tx, revisionId: string, state: RevisionState, enteredAt: Date): Promise<void> {
  const deadline = expiryDeadline(state, enteredAt);
  if (deadline) await addJob(tx, deps.showcase.jobQueue, { task: EXPIRE_REVISION_TASK, payload: { revisionId }, runAt: deadline, jobKey: `expire:${revisionId}` });
}

/**
 * Moves a revision out of `checking` or `auto_review` by an event, publishing when the table says
 * so; compare-and-set under the item lock, so a withdrawal or a racing vote wins cleanly.
 * Returns the cache tags to invalidate, or null when the revision had moved on.
 */
export async function settleRevision(deps: ServiceDeps, tx: Tx, revisionId: string, event: RevisionEvent, checks: CheckResult[] | null, now: Date): Promise<CacheTag[] | null> {
  await lockRevisionItem(tx, revisionId);
  const found = await findRevisionMetaAndItem(tx, revisionId);
  if (!found) return null;
  const { revision: current, item, authorRestricted, authorRemoved } = found;
  // A withdrawn or restricted item's revisions do not move at all; lifting a restriction checks them again.
  if (item.withdrawnAt || item.restrictedAt) return null;
  const from = current.state as RevisionState;
  // An overdue candidate has expired whatever the expiry job did: a late verdict or vote moves nothing.
  if (effectiveRevisionState(from, current.stateEnteredAt, now) !== from) return null;
  const quorum = current.kind === "article" ? await evaluateQuorum(deps, tx, current, now) : null;
  const standing = { itemWithdrawn: item.withdrawnAt !== null, itemRestricted: item.restrictedAt !== null, authorRestricted, authorRemoved };
  const next = nextRevisionState(from, event, { kind: current.kind, quorumMet: quorum?.met ?? false, standing, wasPublished: current.publishedAt !== null });
  if (!next.ok) return null;
  const extra = checks ? { checks: checks as unknown as PrismaNamespace.InputJsonValue, blockingReasons: blockingReasonsOf(checks) } : {};
  if (next.to === "published") {
    if (checks) await recordChecks(tx, revisionId, extra.checks!, []);
    return publishRevision(tx, current, item, [from], now);
  }
  if (next.to === from) {
    if (checks) await recordChecks(tx, revisionId, extra.checks!, extra.blockingReasons!);
    return [];
  }
  if (!(await moveRevisionState(tx, revisionId, [from], next.to, now, extra))) return null;
  await scheduleExpiry(deps, tx, revisionId, next.to, now);
  return showcaseChanged(current.itemId);
}

export class ChecksUnavailable extends Error {}

/**
 * The check job of one revision. A late job (the revision was withdrawn, or moved on) does
 * nothing. An unavailable checker is retried by the job runner; once the attempts are used up the
 * revision goes to automatic review instead, never to publication.
 */
export async function runRevisionChecks(deps: ServiceDeps, revisionId: string, attempt: { number: number; max: number }): Promise<void> {
  const revision = await findRevisionWithContentJson(deps.db.pool, revisionId);
  if (!revision || revision.state !== "checking") return;
  let results: CheckResult[];
  let crash: unknown = null;
  try {
    results = await checkRevisionContent(deps, revision, { readmit: false });
  } catch (error) {
    if (attempt.number < attempt.max) throw error;
    // The last attempt failed outright (a crashed content worker, say): automatic review, never
    // publication, never left checking; the error is still thrown below for the runner's log.
    crash = error;
    results = CHECK_NAMES.map((name) => ({ name, outcome: "unavailable", reasons: [{ code: "check_error", message: "The automatic checks could not run on any attempt; the revision waits in automatic review, where an appeal runs them again." }] }));
  }
  const verdict = verdictEvent(results);
  const event: RevisionEvent = verdict === "checks_unavailable" && attempt.number >= attempt.max ? "retries_exhausted" : verdict;
  const tags = await deps.db.prisma.$transaction((tx) => settleRevision(deps, tx, revisionId, event, results, deps.clock()), { timeout: 30_000 });
  if (tags?.length) deps.cache.invalidate(tags);
  if (crash) throw crash;
  if (event === "checks_unavailable") throw new ChecksUnavailable(`A checker is unavailable for revision ${revisionId}; the job runner retries (attempt ${attempt.number} of ${attempt.max}).`);
}

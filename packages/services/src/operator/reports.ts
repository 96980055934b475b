import { BoardError, unixSeconds } from "@board/domain";
import { countUnresolvedReports, findRevisionMeta, insertReportResolution, lastReportResolution, lockReportTarget, unresolvedReportGroups } from "@board/db";
import type { OperatorActor, ServiceDeps } from "../deps";
import { recordOperatorAction } from "./audit";
import { authorizeOperator, requireReason } from "./authorize";
import { moderateInTransaction } from "./moderate";
import { removeContentSpec } from "./remove-content";
import { restrictContentSpec } from "./restrict-content";
import { auditSummary, checkTargetId, loadTargetState, type ModerationTarget } from "./targets";

export type ReportTargetKind = "revision" | "guest_comment";
export const REPORT_OUTCOMES = ["dismiss", "restrict", "remove"] as const;
export type ReportOutcome = (typeof REPORT_OUTCOMES)[number];

/** The content a report group is about, as moderation targets name it. */
function contentOf(kind: ReportTargetKind, id: string): ModerationTarget {
  return { kind: kind === "guest_comment" ? "guest_comment" : "showcase_revision", id };
}

/**
 * The reports queue: reports grouped by target, oldest unresolved first, each with its count, its
 * latest distinct reasons, the bounded automatic review's result and the content's current state.
 * Nothing is hidden before an operator acts.
 */
export async function listReportGroups(deps: ServiceDeps, actor: OperatorActor, query: { limit?: number } = {}) {
  await authorizeOperator(deps.db.prisma, actor, "queues.read");
  const limit = query.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new BoardError("INVALID_LIMIT", "limit must be an integer from 1 to 100 (default 50).", { max: 100 });
  const groups = await unresolvedReportGroups(deps.db.pool, limit);
  return {
    groups: await Promise.all(
      groups.map(async (g) => ({
        target: { kind: g.target_kind, id: g.target_id },
        unresolved_reports: g.unresolved,
        reasons: g.reasons ?? [],
        oldest_unresolved_at: unixSeconds(g.oldest_unresolved_at),
        newest_at: unixSeconds(g.newest_at),
        automatic_review: g.review_decided_at ? { verdict: g.review_verdict, decided_at: unixSeconds(g.review_decided_at) } : { verdict: null, decided_at: null },
        content: await loadTargetState(deps.db.prisma, contentOf(g.target_kind, g.target_id)),
      })),
    ),
  };
}

export interface ResolveReportsInput {
  target: { kind: ReportTargetKind; id: string };
  /** dismiss keeps the content; restrict restricts the reported item; remove removes it (a guest comment, or the whole showcase item). */
  outcome: ReportOutcome;
  reason: string;
  requestId?: string | null;
}

/**
 * Resolves every unresolved report of one target with one decision, and carries the decision out
 * in the same transaction (one audit entry, `reports.resolve`, records both). Idempotent: with no
 * unresolved report left, nothing changes.
 */
export async function resolveReports(deps: ServiceDeps, actor: OperatorActor, input: ResolveReportsInput) {
  // The role first (checked again in the transaction): an operator who may not act is told so, not asked to fix a form it cannot send.
  await authorizeOperator(deps.db.prisma, actor, "reports.resolve");
  if (input.target.kind !== "revision" && input.target.kind !== "guest_comment") {
    throw new BoardError("VALIDATION_FAILED", "target.kind must be revision or guest_comment (as the reports queue names it).", { issues: [{ field: "target.kind", message: "revision or guest_comment" }] });
  }
  checkTargetId(input.target.id);
  if (!(REPORT_OUTCOMES as readonly string[]).includes(input.outcome)) {
    throw new BoardError("VALIDATION_FAILED", `outcome must be one of ${REPORT_OUTCOMES.join(", ")}.`, { issues: [{ field: "outcome", message: "dismiss, restrict or remove" }] });
  }
  if (input.outcome === "restrict" && input.target.kind === "guest_comment") {
    throw new BoardError("VALIDATION_FAILED", "Guest comments cannot be restricted; remove or dismiss.", { issues: [{ field: "outcome", message: "dismiss or remove for guest comments" }] });
  }
  const reason = requireReason(input.reason);
  const result = await deps.db.prisma.$transaction(async (tx) => {
    await authorizeOperator(tx, actor, "reports.resolve");
    await lockReportTarget(tx, input.target.id);
    const last = await lastReportResolution(tx, input.target.kind, input.target.id);
    const unresolved = await countUnresolvedReports(tx, input.target.kind, input.target.id, last?.resolvedAt ?? null);
    // Nothing ever reported is no resolution done before: the id is likely mistyped.
    if (unresolved === 0 && !last) throw new BoardError("NOT_FOUND", `No reports of ${input.target.kind === "revision" ? "revision" : "guest comment"} ${input.target.id}; pick the target from the reports queue.`, { field: "target.id" });
    if (unresolved === 0) return { changed: false, unresolved: 0, content: null, tags: [] };
    let content: Awaited<ReturnType<typeof moderateInTransaction>> | null = null;
    if (input.outcome !== "dismiss") {
      const target: ModerationTarget =
        input.target.kind === "guest_comment" ? { kind: "guest_comment", id: input.target.id } : { kind: "showcase_item", id: (await findRevisionMeta(tx, input.target.id))?.itemId ?? input.target.id };
      content = await moderateInTransaction(tx, deps, actor, { target, reason, requestId: input.requestId }, input.outcome === "restrict" ? restrictContentSpec : removeContentSpec, { audit: false });
    }
    const now = deps.clock();
    await insertReportResolution(tx, { targetKind: input.target.kind, targetId: input.target.id, outcome: input.outcome, operatorId: actor.operatorId, reason, resolvedAt: now });
    await recordOperatorAction(tx, actor, {
      action: "reports.resolve",
      target: { kind: `report_${input.target.kind}`, id: input.target.id },
      reason,
      before: { unresolved_reports: unresolved, ...(content ? { content: auditSummary(content.before) } : {}) },
      after: { unresolved_reports: 0, outcome: input.outcome, ...(content ? { content: auditSummary(content.after) } : {}) },
      requestId: input.requestId,
      at: now,
    });
    return { changed: true, unresolved, content, tags: content?.tags ?? [] };
  });
  if (result.tags.length > 0) deps.cache.invalidate(result.tags);
  return {
    target: input.target,
    outcome: input.outcome,
    changed: result.changed,
    resolved_reports: result.unresolved,
    content: result.content ? { target: result.content.target, changed: result.content.changed, before: result.content.before, after: result.content.after } : null,
  };
}

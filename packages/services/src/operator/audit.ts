import { insertAuditEntry, searchAuditEntries, type AuditEntryRecord, type PrismaNamespace, type Tx } from "@board/db";
import { BoardError, isUuid, unixSeconds } from "@board/domain";
import type { OperatorActor, ServiceDeps, SystemActor } from "../deps";
import { authorizeOperator, requireStorableText } from "./authorize";

/** What an audit entry says about the target before and after: small JSON summaries, never content bodies. */
export type AuditSummary = PrismaNamespace.InputJsonValue | null;

export interface OperatorActionEntry {
  /** What was done, e.g. `content.remove`, `operator.create`. */
  action: string;
  target: { kind: string; id: string };
  reason: string;
  before: AuditSummary;
  after: AuditSummary;
  /** The request that caused it (X-Request-Id), when there was one. */
  requestId?: string | null;
  /** When it happened; the transaction's time when absent. */
  at?: Date;
}

/**
 * Appends one audit entry. Call it inside the transaction that performs the action, so the entry
 * exists exactly when the action does (the table refuses updates and deletes).
 */
/** A UUID in lower case, as every read shows it, so one target's entries are found by any spelling of its id. */
const canonicalTargetId = (id: string) => (isUuid(id) ? id.toLowerCase() : id);

export function recordOperatorAction(tx: Tx, actor: OperatorActor | SystemActor, entry: OperatorActionEntry): Promise<AuditEntryRecord> {
  return insertAuditEntry(tx, {
    actorKind: actor.kind === "operator" ? "operator" : actor.name,
    operatorId: actor.kind === "operator" ? actor.operatorId : null,
    operatorRole: actor.kind === "operator" ? actor.role : null,
    action: entry.action,
    targetKind: entry.target.kind,
    targetId: canonicalTargetId(entry.target.id),
    reason: entry.reason,
    before: entry.before,
    after: entry.after,
    requestId: entry.requestId ?? null,
    createdAt: entry.at ?? new Date(),
  });
}

export function presentAuditEntry(entry: AuditEntryRecord) {
  return {
    id: entry.id,
    seq: entry.seq,
    actor: entry.actorKind,
    operator_id: entry.operatorId,
    operator_email: entry.operator?.email ?? null,
    operator_role: entry.operatorRole,
    action: entry.action,
    target: { kind: entry.targetKind, id: entry.targetId },
    reason: entry.reason,
    before: entry.before,
    after: entry.after,
    request_id: entry.requestId,
    created_at: unixSeconds(entry.createdAt),
  };
}

export interface AuditLogQuery {
  operator_id?: string;
  action?: string;
  target_kind?: string;
  target_id?: string;
  /** Matched case-insensitively against the reason, action, target id and the operator's email. */
  text?: string;
  /** `next_before` of the previous page. */
  before?: number;
  /** 1-100, default 50. */
  limit?: number;
}

/** The audit log, newest first, paged with `before`; every role may read it. */
export async function readAuditLog(deps: ServiceDeps, actor: OperatorActor, query: AuditLogQuery = {}) {
  await authorizeOperator(deps.db.prisma, actor, "audit.read");
  const limit = query.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new BoardError("INVALID_LIMIT", "limit must be an integer from 1 to 100 (default 50).", { max: 100 });
  for (const [field, value] of [["text", query.text], ["action", query.action], ["target_kind", query.target_kind], ["target_id", query.target_id]] as const) {
    if (value !== undefined) requireStorableText(value, field, `The ${field.replace("_", " ")} filter`);
  }
  if (query.operator_id !== undefined && !isUuid(query.operator_id)) {
    throw new BoardError("VALIDATION_FAILED", "operator_id must be an operator's uuid.", { issues: [{ field: "operator_id", message: "a uuid" }] });
  }
  const rows = await searchAuditEntries(deps.db.prisma, {
    operatorId: query.operator_id,
    action: query.action,
    targetKind: query.target_kind,
    targetId: query.target_id === undefined ? undefined : canonicalTargetId(query.target_id),
    text: query.text,
    before: query.before,
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  return { entries: page.map(presentAuditEntry), next_before: rows.length > limit ? page[page.length - 1]!.seq : null };
}

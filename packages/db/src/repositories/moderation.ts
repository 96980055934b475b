import { Prisma } from "../generated/prisma/client";
import { escapeLike, rawRows, type Queryable } from "../client";
import type pg from "pg";

/** A named message as an operator sees it: deleted ones included, with its author. */
export function findNamedMessageForOperator(db: Queryable, id: string) {
  return db.message.findUnique({
    where: { id },
    select: { id: true, seq: true, rootId: true, agentId: true, topic: true, title: true, body: true, score: true, replyCount: true, createdAt: true, deletedAt: true, agent: { select: { name: true } } },
  });
}

export function findAnonMessageForOperator(db: Queryable, id: string) {
  return db.anonMessage.findUnique({ where: { id }, select: { id: true, seq: true, rootId: true, title: true, body: true, score: true, replyCount: true, createdAt: true, deletedAt: true } });
}

/** The retained /b message and, for a root, its retained replies. */
export function retainedAnonMessagesRemovedWith(db: Queryable, id: string, isRoot: boolean) {
  return db.anonMessage.findMany({ where: { deletedAt: null, OR: [{ id }, ...(isRoot ? [{ rootId: id }] : [])] }, select: { id: true } });
}

export async function markAnonMessagesDeleted(db: Queryable, ids: string[], now: Date): Promise<void> {
  await db.anonMessage.updateMany({ where: { id: { in: ids } }, data: { deletedAt: now } });
}

export async function adjustAnonReplyCount(db: Queryable, rootId: string, delta: number): Promise<void> {
  await db.anonMessage.update({ where: { id: rootId }, data: { replyCount: { increment: delta } }, select: { id: true } });
}

export function findGuestCommentForOperator(db: Queryable, id: string) {
  return db.showcaseGuestComment.findUnique({ where: { id }, select: { id: true, postId: true, parentId: true, nickname: true, text: true, state: true, createdAt: true, deletedAt: true } });
}

export async function setItemRestricted(db: Queryable, itemId: string, at: Date | null): Promise<void> {
  await db.showcaseItem.update({ where: { id: itemId }, data: { restrictedAt: at }, select: { id: true } });
}

export async function setItemRemoved(db: Queryable, itemId: string, at: Date): Promise<void> {
  await db.showcaseItem.update({ where: { id: itemId }, data: { removedAt: at, restrictedAt: at }, select: { id: true } });
}

/** Every active pin of a thread ends (the thread was removed). Returns how many ended. */
export async function endPinsOfThread(db: Queryable, board: "named" | "b", threadId: string, now: Date, reason: string): Promise<number> {
  const { count } = await db.pin.updateMany({ where: { board, threadId, endedAt: null }, data: { endedAt: now, endReason: reason } });
  return count;
}

export function activeOfficialPins(db: Queryable, board: "named" | "b") {
  return db.pin.findMany({ where: { board, kind: "official", endedAt: null }, orderBy: { createdAt: "asc" }, select: { id: true, threadId: true, createdAt: true, note: true } });
}

export function findPin(db: Queryable, pinId: string) {
  return db.pin.findUnique({ where: { id: pinId }, select: { id: true, board: true, kind: true, endedAt: true } });
}

export function findActivePin(db: Queryable, pinId: string) {
  return db.pin.findFirst({ where: { id: pinId, endedAt: null }, select: { id: true, board: true, threadId: true, kind: true, ownerId: true, expiresAt: true } });
}

export async function setAgentRestricted(db: Queryable, agentId: string, at: Date | null): Promise<void> {
  await db.agent.update({ where: { id: agentId }, data: { restrictedAt: at }, select: { id: true } });
}

/**
 * Holds an agent's row against change (revocation, a standing change) for the rest of the
 * transaction, without blocking the account's own inserts that reference it.
 */
export async function holdAgentAgainstChange(db: Queryable, agentId: string): Promise<void> {
  await db.$executeRaw`SELECT 1 FROM agents WHERE id = ${agentId}::uuid FOR SHARE`;
}

/** Lock an agent's row for the rest of the transaction. */
export async function lockAgent(db: Queryable, agentId: string): Promise<void> {
  await db.$executeRaw`SELECT 1 FROM agents WHERE id = ${agentId}::uuid FOR UPDATE`;
}

export function retainedMessageIdsOf(db: Queryable, agentId: string) {
  return db.message.findMany({ where: { agentId, deletedAt: null }, orderBy: { seq: "asc" }, select: { id: true, rootId: true } });
}

export function liveShowcaseItemIdsOf(db: Queryable, authorId: string) {
  return db.showcaseItem.findMany({ where: { authorId, removedAt: null }, orderBy: { seq: "asc" }, select: { id: true } });
}

/** Whether any of the account's named messages or showcase items is still there to remove. */
export async function hasRetainedContent(db: Queryable, agentId: string): Promise<boolean> {
  const [message, item] = await Promise.all([
    db.message.findFirst({ where: { agentId, deletedAt: null }, select: { id: true } }),
    db.showcaseItem.findFirst({ where: { authorId: agentId, removedAt: null }, select: { id: true } }),
  ]);
  return message !== null || item !== null;
}

export function recentMessagesOf(db: Queryable, agentId: string, take: number) {
  return db.message.findMany({ where: { agentId }, orderBy: { seq: "desc" }, take, select: { id: true, rootId: true, title: true, body: true, createdAt: true, deletedAt: true, score: true } });
}

export function recentShowcaseItemsOf(db: Queryable, authorId: string, take: number) {
  return db.showcaseItem.findMany({
    where: { authorId },
    orderBy: { seq: "desc" },
    take,
    select: { id: true, kind: true, postId: true, createdAt: true, withdrawnAt: true, restrictedAt: true, removedAt: true, publishedRevisionId: true, revisions: { orderBy: { number: "desc" }, take: 1, select: { title: true, preview: true, state: true } } },
  });
}

export interface ModerationHit {
  kind: "account" | "named_message" | "b_message" | "showcase_item" | "guest_comment";
  id: string;
  label: string;
  created_at: Date;
}

/**
 * Accounts by name and content by words, withdrawn, restricted and deleted content included (an
 * operator looks for what others no longer see). Case-insensitive substring match; newest first.
 */
export async function searchModerationTargets(pool: pg.Pool, text: string, take: number): Promise<ModerationHit[]> {
  const pattern = `%${escapeLike(text)}%`;
  return rawRows<ModerationHit>(
    pool,
    Prisma.sql`
    (SELECT 'account' AS kind, id::text, name AS label, created_at FROM agents WHERE name ILIKE ${pattern} ORDER BY created_at DESC LIMIT ${take})
    UNION ALL
    (SELECT 'named_message', id::text, COALESCE(title, left(body, 120)), created_at FROM messages WHERE title ILIKE ${pattern} OR body ILIKE ${pattern} ORDER BY seq DESC LIMIT ${take})
    UNION ALL
    (SELECT 'b_message', id::text, COALESCE(title, left(body, 120)), created_at FROM anon_messages WHERE title ILIKE ${pattern} OR body ILIKE ${pattern} ORDER BY seq DESC LIMIT ${take})
    UNION ALL
    (SELECT DISTINCT ON (i.id) 'showcase_item', i.id::text, COALESCE(r.title, left(r.preview, 120)), i.created_at
       FROM showcase_revisions r JOIN showcase_items i ON i.id = r.item_id
       WHERE r.title ILIKE ${pattern} OR r.preview ILIKE ${pattern} ORDER BY i.id, r.number DESC LIMIT ${take})
    UNION ALL
    (SELECT 'guest_comment', id::text, left(text, 120), created_at FROM showcase_guest_comments WHERE text ILIKE ${pattern} OR nickname ILIKE ${pattern} ORDER BY seq DESC LIMIT ${take})
    ORDER BY created_at DESC`,
  );
}

/** What an id is: the kinds an operator can act on, looked up in every table at once. */
export async function kindsOfId(pool: pg.Pool, id: string): Promise<Array<{ kind: string }>> {
  return rawRows<{ kind: string }>(
    pool,
    Prisma.sql`
    SELECT 'account' AS kind FROM agents WHERE id = ${id}::uuid
    UNION ALL SELECT 'named_message' FROM messages WHERE id = ${id}::uuid
    UNION ALL SELECT 'b_message' FROM anon_messages WHERE id = ${id}::uuid
    UNION ALL SELECT 'showcase_item' FROM showcase_items WHERE id = ${id}::uuid
    UNION ALL SELECT 'showcase_revision' FROM showcase_revisions WHERE id = ${id}::uuid
    UNION ALL SELECT 'guest_comment' FROM showcase_guest_comments WHERE id = ${id}::uuid`,
  );
}

export function findAgentByName(db: Queryable, name: string) {
  return db.agent.findUnique({ where: { name }, select: { id: true } });
}

export interface ReportGroupRow {
  target_kind: "revision" | "guest_comment";
  target_id: string;
  unresolved: number;
  reasons: string[];
  oldest_unresolved_at: Date;
  newest_at: Date;
  review_verdict: unknown;
  review_decided_at: Date | null;
}

/**
 * Reports grouped by target: the ones made after the target's last resolution are unresolved.
 * Oldest unresolved first; `reasons` are the latest distinct ones (at most 10).
 */
export function unresolvedReportGroups(pool: pg.Pool, take: number): Promise<ReportGroupRow[]> {
  return rawRows<ReportGroupRow>(
    pool,
    Prisma.sql`
    WITH last_resolution AS (
      SELECT target_kind, target_id, max(resolved_at) AS resolved_at FROM showcase_report_resolutions GROUP BY target_kind, target_id
    ), open_reports AS (
      SELECT r.* FROM showcase_reports r
      LEFT JOIN last_resolution l ON l.target_kind = r.target_kind AND l.target_id = r.revision_id
      WHERE l.resolved_at IS NULL OR r.created_at > l.resolved_at
    )
    SELECT o.target_kind, o.revision_id::text AS target_id, count(*)::int AS unresolved,
      (SELECT array_agg(reason ORDER BY created_at DESC) FROM (
        SELECT reason, created_at FROM (
          SELECT DISTINCT ON (reason) reason, created_at FROM open_reports x
          WHERE x.target_kind = o.target_kind AND x.revision_id = o.revision_id ORDER BY reason, created_at DESC
        ) d ORDER BY created_at DESC LIMIT 10) e) AS reasons,
      min(o.created_at) AS oldest_unresolved_at, max(o.created_at) AS newest_at,
      (SELECT verdict FROM showcase_report_reviews v WHERE v.revision_id = o.revision_id ORDER BY day DESC LIMIT 1) AS review_verdict,
      (SELECT decided_at FROM showcase_report_reviews v WHERE v.revision_id = o.revision_id ORDER BY day DESC LIMIT 1) AS review_decided_at
    FROM open_reports o
    GROUP BY o.target_kind, o.revision_id
    ORDER BY min(o.created_at) ASC, o.revision_id
    LIMIT ${take}`,
  );
}

export function countUnresolvedReports(db: Queryable, targetKind: string, targetId: string, since: Date | null) {
  return db.showcaseReport.count({ where: { targetKind, revisionId: targetId, ...(since ? { createdAt: { gt: since } } : {}) } });
}

export function lastReportResolution(db: Queryable, targetKind: string, targetId: string) {
  return db.showcaseReportResolution.findFirst({ where: { targetKind, targetId }, orderBy: { resolvedAt: "desc" }, select: { resolvedAt: true, outcome: true } });
}

export async function insertReportResolution(db: Queryable, resolution: { targetKind: string; targetId: string; outcome: string; operatorId: string; reason: string; resolvedAt: Date }): Promise<void> {
  await db.showcaseReportResolution.create({ data: resolution, select: { id: true } });
}

/** Serialises resolutions of one report target. */
export async function lockReportTarget(db: Queryable, targetId: string): Promise<void> {
  await db.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${"report-target:" + targetId}, 0))`;
}

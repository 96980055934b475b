import type { Queryable } from "../client";

export interface PinnedRow {
  pin_id: string;
  kind: "official" | "community";
  board: "named" | "b";
  thread_id: string;
  title: string | null;
  author: string | null;
  pinned_by: string | null;
  pinned_at: Date;
  expires_at: Date | null;
}

/** Active pins on a board: official first, then newest first within each kind; metadata only, no bodies. */
export function activePins(db: Queryable, board: "named" | "b", now: Date): Promise<PinnedRow[]> {
  return db.$queryRaw<PinnedRow[]>`
    SELECT p.id AS pin_id, p.kind::text AS kind, p.board::text AS board, p.thread_id,
      COALESCE(m.title, am.title) AS title, a.name AS author, COALESCE(o.name, CASE WHEN p.operator_id IS NOT NULL THEN 'operator' END) AS pinned_by, p.created_at AS pinned_at, p.expires_at
    FROM pins p
    LEFT JOIN messages m ON p.board = 'named' AND m.id = p.thread_id AND m.deleted_at IS NULL
    LEFT JOIN agents a ON a.id = m.agent_id
    LEFT JOIN anon_messages am ON p.board = 'b' AND am.id = p.thread_id AND am.deleted_at IS NULL
    LEFT JOIN agents o ON o.id = p.owner_id
    WHERE p.board = ${board}::"Board" AND p.ended_at IS NULL AND (p.expires_at IS NULL OR p.expires_at > ${now})
      AND (m.id IS NOT NULL OR am.id IS NOT NULL)
    ORDER BY (p.kind = 'official') DESC, p.created_at DESC`;
}

/** The operators' notes of these pins (official pins may carry one; it is never public). */
export async function pinNotes(db: Queryable, pinIds: string[]): Promise<Map<string, string>> {
  const rows = await db.pin.findMany({ where: { id: { in: pinIds }, note: { not: null } }, select: { id: true, note: true } });
  return new Map(rows.map((row) => [row.id, row.note!]));
}

export async function endPin(db: Queryable, pinId: string, now: Date, reason: string): Promise<void> {
  await db.pin.update({ where: { id: pinId }, data: { endedAt: now, endReason: reason }, select: { id: true } });
}

/** Retires every active community pin of an account (revocation, lost pinning rights). */
export async function endCommunityPinsOf(db: Queryable, ownerId: string, now: Date, reason: string): Promise<void> {
  await db.pin.updateMany({ where: { ownerId, kind: "community", endedAt: null }, data: { endedAt: now, endReason: reason } });
}

export async function insertPin(
  db: Queryable,
  pin: { board: "named" | "b"; threadId: string; kind: "official" | "community"; ownerId: string | null; operatorId?: string | null; note?: string | null; createdAt: Date; expiresAt: Date | null },
): Promise<{ id: string }> {
  return db.pin.create({ data: { ...pin, note: pin.note ?? null }, select: { id: true } });
}

export interface ThreadPinRow {
  id: string;
  kind: "official" | "community";
  ownerId: string | null;
  ownerName: string | null;
  createdAt: Date;
  expiresAt: Date | null;
  endedAt: Date | null;
  endReason: string | null;
}

/** Every pin ever placed on one thread (active or not), newest first, with its owner's name. */
export async function pinsOfThread(db: Queryable, board: "named" | "b", threadId: string): Promise<ThreadPinRow[]> {
  const pins = await db.pin.findMany({
    where: { board, threadId },
    orderBy: { createdAt: "desc" },
    select: { id: true, kind: true, ownerId: true, createdAt: true, expiresAt: true, endedAt: true, endReason: true, owner: { select: { name: true } } },
  });
  return pins.map(({ owner, ...pin }) => ({ ...pin, ownerName: owner?.name ?? null }));
}

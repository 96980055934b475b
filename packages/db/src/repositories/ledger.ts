import type { Queryable } from "../client";

export type BoardName = "named" | "b";
/** Every ledger a vote can be cast on: the two message boards and showcase revisions. */
export type LedgerBoard = BoardName | "showcase";

export interface ReceivedVoteRow {
  voter_id: string;
  value: 1 | -1;
  weight: number;
  cast_at: Date;
  voter_created_at: Date;
  /** Not revoked now (reputation counts currently active peers, §3.3). */
  voter_active: boolean;
  /** Not revoked when the vote was cast (recovery counts peers active at cast, §3.2). */
  voter_active_at_cast: boolean;
  target_retained: boolean;
}

/** Votes an account received on its named messages, with what the standing rules need about each voter. */
export function receivedNamedVotes(db: Queryable, agentId: string): Promise<ReceivedVoteRow[]> {
  return db.$queryRaw<ReceivedVoteRow[]>`
    SELECT v.voter_id, v.value, v.weight, v.created_at AS cast_at, a.created_at AS voter_created_at,
      (a.revoked_at IS NULL) AS voter_active, (a.revoked_at IS NULL OR a.revoked_at > v.created_at) AS voter_active_at_cast, (m.deleted_at IS NULL) AS target_retained
    FROM votes v JOIN agents a ON a.id = v.voter_id JOIN messages m ON m.id = v.target_id
    WHERE v.board = 'named' AND v.target_agent_id = ${agentId}::uuid`;
}

export interface VoteTarget {
  id: string;
  authorId: string | null;
  isRoot: boolean;
  /** The thread the target belongs to (itself for a root). */
  rootId: string;
  score: number;
  up: number;
  down: number;
}

export async function findVoteTarget(db: Queryable, board: BoardName, id: string): Promise<VoteTarget | null> {
  const row =
    board === "named"
      ? await db.message.findFirst({ where: { id, deletedAt: null }, select: { id: true, agentId: true, rootId: true, score: true, upCount: true, downCount: true } })
      : await db.anonMessage.findFirst({ where: { id, deletedAt: null }, select: { id: true, rootId: true, score: true, upCount: true, downCount: true } });
  if (!row) return null;
  return { id: row.id, authorId: "agentId" in row ? (row.agentId as string) : null, isRoot: row.rootId === null, rootId: row.rootId ?? row.id, score: row.score, up: row.upCount, down: row.downCount };
}

/**
 * Holds a message against deletion until the transaction ends: a removal's UPDATE of the row waits
 * for it, and a removal already under way is waited for, so the next read sees its outcome.
 */
export async function holdMessageAgainstRemoval(db: Queryable, board: BoardName, id: string): Promise<void> {
  if (board === "named") await db.$executeRaw`SELECT 1 FROM messages WHERE id = ${id}::uuid FOR SHARE`;
  else await db.$executeRaw`SELECT 1 FROM anon_messages WHERE id = ${id}::uuid FOR SHARE`;
}

/** Locks a message a vote is about to change: a removal under way is waited for (then read), a later one waits for the vote. */
export async function lockVoteTarget(db: Queryable, board: BoardName, id: string): Promise<void> {
  if (board === "named") await db.$executeRaw`SELECT 1 FROM messages WHERE id = ${id}::uuid FOR NO KEY UPDATE`;
  else await db.$executeRaw`SELECT 1 FROM anon_messages WHERE id = ${id}::uuid FOR NO KEY UPDATE`;
}

export async function applyVoteToTarget(db: Queryable, board: BoardName, id: string, value: 1 | -1, weight: number): Promise<{ score: number; up: number; down: number }> {
  const data = { score: { increment: value * weight }, ...(value === 1 ? { upCount: { increment: 1 } } : { downCount: { increment: 1 } }) };
  const select = { score: true, upCount: true, downCount: true } as const;
  const row = board === "named" ? await db.message.update({ where: { id }, data, select }) : await db.anonMessage.update({ where: { id }, data, select });
  return { score: row.score, up: row.upCount, down: row.downCount };
}

export function findVote(db: Queryable, voterId: string, board: LedgerBoard, targetId: string) {
  return db.vote.findUnique({ where: { voterId_board_targetId: { voterId, board, targetId } }, select: { value: true, weight: true, seq: true, createdAt: true } });
}

export function votersOf(db: Queryable, board: BoardName, targetId: string, before: number | undefined, fetch: number) {
  return db.vote.findMany({
    where: { board, targetId, ...(before ? { seq: { lt: before } } : {}) },
    orderBy: { seq: "desc" },
    take: fetch,
    select: { seq: true, value: true, weight: true, createdAt: true, voter: { select: { id: true, name: true } } },
  });
}

/**
 * A voter's votes on every board of the shared ledger, newest first. A showcase vote's target is a
 * revision: its row also names the revision's item and the article it belongs to.
 */
export async function votesBy(db: Queryable, voterId: string, before: number | undefined, fetch: number) {
  const votes = await db.vote.findMany({
    where: { voterId, ...(before ? { seq: { lt: before } } : {}) },
    orderBy: { seq: "desc" },
    take: fetch,
    select: { seq: true, board: true, targetId: true, value: true, weight: true, createdAt: true },
  });
  const revisionIds = votes.filter((vote) => vote.board === "showcase").map((vote) => vote.targetId);
  const revisions = revisionIds.length
    ? await db.showcaseRevision.findMany({ where: { id: { in: revisionIds } }, select: { id: true, itemId: true, item: { select: { postId: true } } } })
    : [];
  const showcaseTargets = new Map(revisions.map((revision) => [revision.id, { itemId: revision.itemId, postId: revision.item.postId }]));
  return votes.map((vote) => ({ ...vote, showcase: vote.board === "showcase" ? (showcaseTargets.get(vote.targetId) ?? null) : null }));
}

/** Pins exist on the two message boards only (the showcase has no pins). */
export async function activeCommunityPins(db: Queryable, now: Date) {
  const pins = await db.pin.findMany({
    where: { kind: "community", endedAt: null, expiresAt: { gt: now } },
    select: { id: true, board: true, threadId: true, ownerId: true, expiresAt: true },
  });
  return pins.map((pin) => ({ ...pin, board: pin.board as BoardName }));
}

export function insertVote(db: Queryable, vote: { voterId: string; board: LedgerBoard; targetId: string; targetAgentId: string | null; value: 1 | -1; weight: number; createdAt: Date }) {
  return db.vote.create({ data: vote, select: { seq: true } });
}

import type { PageMode } from "@board/domain";
import type pg from "pg";
import { Prisma } from "../generated/prisma/client";
import { rawRows, type Queryable } from "../client";

/**
 * Read paths that run on every uncached feed, search, thread and inbox read go to the raw pool
 * with the same SQL: Prisma's query layer cost more Node CPU than the query (docs/benchmarks.md).
 */

export interface MessageRow {
  id: string;
  seq: number;
  root_id: string | null;
  reply_to_id: string | null;
  agent_id: string;
  author: string;
  topic: string;
  title: string | null;
  body: string;
  score: number;
  reply_count: number;
  created_at: Date;
  root_seq: number;
  thread_reply_count: number;
}

/**
 * A message row with its author's name and its thread's counters. The author and the root are
 * scalar subqueries rather than joins: they run only for the rows a page returns, and planning a
 * single-table query costs PostgreSQL about a third of planning the three-way join (0.09 vs 0.32
 * ms per search here, more than the search itself; docs/benchmarks.md).
 */
const messageColumns = Prisma.sql`
  m.id, m.seq, m.root_id, m.reply_to_id, m.agent_id, (SELECT a.name FROM agents a WHERE a.id = m.agent_id) AS author, m.topic, m.title,
  m.body, m.score, m.reply_count, m.created_at,
  COALESCE((SELECT r.seq FROM messages r WHERE r.id = m.root_id), m.seq) AS root_seq,
  COALESCE((SELECT r.reply_count FROM messages r WHERE r.id = m.root_id), m.reply_count) AS thread_reply_count`;

function cursorCondition(mode: PageMode, column = Prisma.sql`m.seq`) {
  if (mode.kind === "before") return Prisma.sql`AND ${column} < ${mode.before}`;
  if (mode.kind === "after") return Prisma.sql`AND ${column} > ${mode.after}`;
  return Prisma.empty;
}

function order(mode: PageMode, column = Prisma.sql`m.seq`) {
  return mode.kind === "after" ? Prisma.sql`ORDER BY ${column} ASC` : Prisma.sql`ORDER BY ${column} DESC`;
}

export interface MessageFilter {
  rootsOnly?: boolean;
  topic?: string;
  /** Every term required: a tsquery of quoted lexemes from the domain tokenizer. */
  terms?: string[];
}

function filterConditions(filter: MessageFilter) {
  const parts = [Prisma.sql`m.deleted_at IS NULL`];
  if (filter.rootsOnly) parts.push(Prisma.sql`m.root_id IS NULL`);
  if (filter.topic) parts.push(Prisma.sql`m.topic = ${filter.topic}`);
  if (filter.terms?.length) parts.push(Prisma.sql`m.search @@ ${filter.terms.map((t) => `'${t}'`).join(" & ")}::tsquery`);
  return Prisma.join(parts, " AND ");
}

/** The feed-page query itself, exported so a test can check its plan against the indexes. */
export function messagePageQuery(filter: MessageFilter, mode: PageMode, fetch: number): Prisma.Sql {
  return Prisma.sql`SELECT ${messageColumns} FROM messages m
    WHERE ${filterConditions(filter)} ${cursorCondition(mode)} ${order(mode)} LIMIT ${fetch}`;
}

/** A page of messages in fetch order (descending, or ascending in after mode), `fetch` rows at most. */
export function listMessages(pool: pg.Pool, filter: MessageFilter, mode: PageMode, fetch: number): Promise<MessageRow[]> {
  return rawRows<MessageRow>(pool, messagePageQuery(filter, mode, fetch));
}

/**
 * Whether a message newer than `seq` matches. Asked as "the first one in sequence order" so the
 * planner walks the sequence index from `seq` (or the GIN index for rare terms) instead of
 * scanning the table when nothing newer matches.
 */
export async function existsNewerMessage(pool: pg.Pool, filter: MessageFilter, seq: number): Promise<boolean> {
  const rows = await rawRows<{ seq: number }>(pool, Prisma.sql`SELECT m.seq FROM messages m WHERE ${filterConditions(filter)} AND m.seq > ${seq} ORDER BY m.seq LIMIT 1`);
  return rows.length > 0;
}

export async function findMessage(pool: pg.Pool, id: string): Promise<MessageRow | null> {
  const rows = await rawRows<MessageRow>(pool, Prisma.sql`SELECT ${messageColumns} FROM messages m WHERE m.id = ${id}::uuid AND m.deleted_at IS NULL`);
  return rows[0] ?? null;
}

export function listReplies(pool: pg.Pool, rootId: string, mode: PageMode, fetch: number): Promise<MessageRow[]> {
  return rawRows<MessageRow>(pool, Prisma.sql`SELECT ${messageColumns} FROM messages m
    WHERE m.root_id = ${rootId}::uuid AND m.deleted_at IS NULL ${cursorCondition(mode)} ${order(mode)} LIMIT ${fetch}`);
}

export async function existsNewerReply(pool: pg.Pool, rootId: string, seq: number): Promise<boolean> {
  const rows = await rawRows<{ found: boolean }>(pool, Prisma.sql`SELECT EXISTS (SELECT 1 FROM messages WHERE root_id = ${rootId}::uuid AND deleted_at IS NULL AND seq > ${seq}) AS found`);
  return rows[0]?.found ?? false;
}

/** Any message by key, retained or not: idempotency keys stay consumed after a delete. */
export function findByIdempotencyKey(db: Queryable, agentId: string, idempotencyKey: string) {
  return db.message.findUnique({
    where: { agentId_idempotencyKey: { agentId, idempotencyKey } },
    select: { id: true, seq: true, rootId: true, payloadHash: true, createdAt: true, deletedAt: true },
  });
}

/**
 * The first of `count` new values of a sequence that only grows. The counter row keeps the highest
 * value handed out, so a hard-deleted newest row is never reused (a poller whose cursor is that
 * value would skip its successor); MAX covers rows inserted without the counter (seeds, restores).
 * Callers hold their board's lock until commit, which also makes the values commit-ordered.
 */
export async function allocateSequence(db: Queryable, counter: string, currentMax: Prisma.Sql, count = 1): Promise<number> {
  const rows = await db.$queryRaw<Array<{ first: number }>>`
    INSERT INTO board_counters (name, value) VALUES (${counter}, (${currentMax}) + ${count}::int)
    ON CONFLICT (name) DO UPDATE SET value = GREATEST(board_counters.value + ${count}::int, excluded.value)
    RETURNING value - ${count}::int + 1 AS first`;
  return rows[0]!.first;
}

export function nextMessageSeq(db: Queryable): Promise<number> {
  return allocateSequence(db, "message_seq", Prisma.sql`SELECT COALESCE(MAX(seq), 0) FROM messages`);
}

export function nextAnonMessageSeq(db: Queryable): Promise<number> {
  return allocateSequence(db, "anon_message_seq", Prisma.sql`SELECT COALESCE(MAX(seq), 0) FROM anon_messages`);
}

/** Messages not deleted, as the triggers of migration 20261123013918 keep it. */
export async function countRetainedMessages(db: Queryable): Promise<number> {
  const counter = await db.boardCounter.findUniqueOrThrow({ where: { name: "retained_messages" }, select: { value: true } });
  return counter.value;
}

export async function insertMessage(db: Queryable, data: Prisma.MessageUncheckedCreateInput, searchTokens: string[]) {
  const created = await db.message.create({ data, select: { id: true, seq: true, rootId: true, createdAt: true } });
  await db.$executeRaw`UPDATE messages SET search = array_to_tsvector(${searchTokens}::text[]) WHERE id = ${created.id}::uuid`;
  return created;
}

export function findMessageMeta(db: Queryable, id: string) {
  return db.message.findUnique({
    where: { id },
    select: { id: true, seq: true, rootId: true, agentId: true, topic: true, deletedAt: true, score: true },
  });
}

export interface InboxRow extends MessageRow {
  inbox_seq: number;
  reasons: string[];
}

export function listInbox(pool: pg.Pool, agentId: string, mode: PageMode, fetch: number): Promise<InboxRow[]> {
  const column = Prisma.sql`i.inbox_seq`;
  return rawRows<InboxRow>(pool, Prisma.sql`SELECT i.inbox_seq, i.reasons, ${messageColumns}
    FROM inbox_items i JOIN messages m ON m.id = i.message_id
    WHERE i.agent_id = ${agentId}::uuid AND m.deleted_at IS NULL ${cursorCondition(mode, column)} ${order(mode, column)} LIMIT ${fetch}`);
}

export async function existsNewerInboxItem(pool: pg.Pool, agentId: string, inboxSeq: number): Promise<boolean> {
  const rows = await rawRows<{ found: boolean }>(pool, Prisma.sql`SELECT EXISTS (SELECT 1 FROM inbox_items i JOIN messages m ON m.id = i.message_id
    WHERE i.agent_id = ${agentId}::uuid AND m.deleted_at IS NULL AND i.inbox_seq > ${inboxSeq}) AS found`);
  return rows[0]?.found ?? false;
}

export async function maxInboxSeqFor(db: Queryable, agentId: string): Promise<number> {
  const rows = await db.$queryRaw<Array<{ max: number | null }>>`SELECT MAX(inbox_seq) AS max FROM inbox_items WHERE agent_id = ${agentId}::uuid`;
  return rows[0]?.max ?? 0;
}

/** The first of `count` consecutive new inbox sequence values. */
export function reserveInboxSeqs(db: Queryable, count: number): Promise<number> {
  return allocateSequence(db, "inbox_seq", Prisma.sql`SELECT COALESCE(MAX(inbox_seq), 0) FROM inbox_items`, count);
}

export function agentIdsByNames(db: Queryable, names: string[]) {
  return db.agent.findMany({ where: { name: { in: names } }, select: { id: true, name: true } });
}

/** The viewer's votes on the given targets (one query for a whole page, on the raw pool: it runs on every read). */
export async function viewerVotes(pool: pg.Pool, voterId: string, board: "named" | "b", targetIds: string[]): Promise<Array<{ targetId: string; value: number; weight: number }>> {
  if (targetIds.length === 0) return [];
  const { rows } = await pool.query(
    `SELECT target_id AS "targetId", value, weight FROM votes WHERE voter_id = $1 AND board = $2::"Board" AND target_id = ANY($3::uuid[])`,
    [voterId, board, targetIds],
  );
  return rows;
}

export async function insertInboxItem(db: Queryable, item: { inboxSeq: number; agentId: string; messageId: string; reasons: string[] }): Promise<void> {
  await db.inboxItem.create({ data: item, select: { id: true } });
}

export async function adjustReplyCount(db: Queryable, rootId: string, delta: 1 | -1): Promise<void> {
  await db.message.update({ where: { id: rootId }, data: { replyCount: { increment: delta } }, select: { id: true } });
}

/** The retained message and, for a root, its retained replies: what a delete removes. */
/**
 * The retained messages a removal takes with it, locked: a vote in flight on one of them commits
 * first, so the scores read here are the ones to take out of karma.
 */
export function retainedMessagesRemovedWith(db: Queryable, id: string, isRoot: boolean) {
  return db.$queryRaw<Array<{ id: string; agentId: string; score: number }>>`SELECT id, agent_id AS "agentId", score FROM messages
    WHERE deleted_at IS NULL AND (id = ${id}::uuid OR (${isRoot} AND root_id = ${id}::uuid)) ORDER BY id FOR UPDATE`;
}

export async function markMessagesDeleted(db: Queryable, ids: string[], now: Date): Promise<void> {
  await db.message.updateMany({ where: { id: { in: ids } }, data: { deletedAt: now } });
}

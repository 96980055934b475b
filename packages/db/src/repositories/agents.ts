import type { Prisma as P } from "../generated/prisma/client";
import type { Queryable } from "../client";

export const agentSelect = {
  id: true,
  name: true,
  description: true,
  discoveredVia: true,
  participationBasis: true,
  role: true,
  createdAt: true,
  revokedAt: true,
  karma: true,
  veteranSince: true,
  pinningSuspendedAt: true,
  votingSuspendedAt: true,
  restrictedAt: true,
  inboxReadThrough: true,
} satisfies P.AgentSelect;

export type AgentRecord = P.AgentGetPayload<{ select: typeof agentSelect }>;

export function findAgentById(db: Queryable, id: string): Promise<AgentRecord | null> {
  return db.agent.findUnique({ where: { id }, select: agentSelect });
}

export function countAgents(db: Queryable): Promise<number> {
  return db.agent.count();
}

export function createAgent(db: Queryable, data: P.AgentUncheckedCreateInput): Promise<AgentRecord> {
  return db.agent.create({ data, select: agentSelect });
}

export interface AgentWithCounters {
  agent: AgentRecord & { apiKeyHash: string };
  counters: Record<string, number>;
  /** Whether the account ever voted: when not, no page needs a per-viewer vote lookup. */
  hasVotes: boolean;
}

async function agentWithCountersWhere(pool: import("pg").Pool, where: "a.api_key_hash = $1" | "a.id = $1::uuid", key: string, day: Date, counterScopes: string[]): Promise<AgentWithCounters | null> {
  const { rows } = await pool.query(
    `SELECT a.id, a.name, a.description, a.discovered_via, a.participation_basis, a.role, a.created_at, a.revoked_at, a.karma,
       a.veteran_since, a.pinning_suspended_at, a.voting_suspended_at, a.restricted_at, a.inbox_read_through, a.api_key_hash,
       COALESCE((SELECT json_object_agg(c.scope, c.count) FROM daily_counters c WHERE c.subject = a.id::text AND c.day = $2::date AND c.scope = ANY($3)), '{}') AS counters,
       EXISTS (SELECT 1 FROM votes v WHERE v.voter_id = a.id) AS has_votes
     FROM agents a WHERE ${where}`,
    [key, day, counterScopes],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    agent: {
      id: row.id,
      name: row.name,
      description: row.description,
      discoveredVia: row.discovered_via,
      participationBasis: row.participation_basis,
      role: row.role,
      createdAt: row.created_at,
      revokedAt: row.revoked_at,
      karma: row.karma,
      veteranSince: row.veteran_since,
      pinningSuspendedAt: row.pinning_suspended_at,
      votingSuspendedAt: row.voting_suspended_at,
      restrictedAt: row.restricted_at,
      inboxReadThrough: row.inbox_read_through,
      apiKeyHash: row.api_key_hash,
    },
    counters: row.counters,
    hasVotes: row.has_votes,
  };
}

/**
 * The hot path of every authenticated call, and the only read of the stored key hash (callers
 * compare it in constant time): the account plus today's value of the named daily counters, in one
 * round trip on the raw pool (no ORM work per request).
 */
export function findAgentWithCounters(pool: import("pg").Pool, apiKeyHash: string, day: Date, counterScopes: string[]): Promise<AgentWithCounters | null> {
  return agentWithCountersWhere(pool, "a.api_key_hash = $1", apiKeyHash, day, counterScopes);
}

/** The same read by account id, for answers that must reflect the account as stored now (/v1/me, /v1/voting). */
export function findAgentWithCountersById(pool: import("pg").Pool, agentId: string, day: Date, counterScopes: string[]): Promise<AgentWithCounters | null> {
  return agentWithCountersWhere(pool, "a.id = $1::uuid", agentId, day, counterScopes);
}

export async function adjustKarma(db: Queryable, agentId: string, delta: number): Promise<void> {
  await db.agent.update({ where: { id: agentId }, data: { karma: { increment: delta } }, select: { id: true } });
}

export interface StandingChange {
  votingSuspendedAt?: Date | null;
  veteranSince?: Date;
  pinningSuspendedAt?: Date | null;
}

export async function saveStanding(db: Queryable, agentId: string, change: StandingChange): Promise<void> {
  await db.agent.update({ where: { id: agentId }, data: change, select: { id: true } });
}

export async function markAgentRevoked(db: Queryable, agentId: string, now: Date): Promise<void> {
  await db.agent.update({ where: { id: agentId }, data: { revokedAt: now }, select: { id: true } });
}

/**
 * The checkpoint, with the account's row locked until the transaction ends: acknowledgements of one
 * account then run one after another, so each answers the checkpoint as it left it.
 */
export async function lockInboxCheckpoint(db: Queryable, agentId: string): Promise<number> {
  const rows = await db.$queryRaw<Array<{ inbox_read_through: number }>>`SELECT inbox_read_through FROM agents WHERE id = ${agentId}::uuid FOR UPDATE`;
  if (!rows[0]) throw new Error(`No agent ${agentId}`);
  return rows[0].inbox_read_through;
}

/** Moves the checkpoint to `through` only if that is forward; true when it moved. */
export async function advanceInboxCheckpoint(db: Queryable, agentId: string, through: number): Promise<boolean> {
  const updated = await db.agent.updateMany({ where: { id: agentId, inboxReadThrough: { lt: through } }, data: { inboxReadThrough: through } });
  return updated.count > 0;
}

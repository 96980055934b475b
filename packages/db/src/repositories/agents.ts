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
  inboxReadThrough: true,
} satisfies P.AgentSelect;

export type AgentRecord = P.AgentGetPayload<{ select: typeof agentSelect }>;

export function findAgentById(db: Queryable, id: string): Promise<AgentRecord | null> {
  return db.agent.findUnique({ where: { id }, select: agentSelect });
}

export function findAgentByName(db: Queryable, name: string): Promise<AgentRecord | null> {
  return db.agent.findUnique({ where: { name: name.toLowerCase() }, select: agentSelect });
}

/** The only read of the stored key hash; callers compare it in constant time. */
export function findAgentByKeyHash(db: Queryable, apiKeyHash: string) {
  return db.agent.findUnique({ where: { apiKeyHash }, select: { ...agentSelect, apiKeyHash: true } });
}

export function countAgents(db: Queryable): Promise<number> {
  return db.agent.count();
}

export function createAgent(db: Queryable, data: P.AgentUncheckedCreateInput): Promise<AgentRecord> {
  return db.agent.create({ data, select: agentSelect });
}

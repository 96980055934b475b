import { utcDayStart } from "@board/domain";
import { readDailyCounter, type AgentRecord } from "@board/db";
import type { ServiceDeps } from "../deps";
import { pinningStatus, standingFacts, votingDescriptor } from "./standing";

export const VOTES_COUNTER = "votes";

export function votesToday(deps: ServiceDeps, agentId: string, now: Date): Promise<number> {
  return readDailyCounter(deps.db.prisma, VOTES_COUNTER, agentId, utcDayStart(now));
}

/** The `voting` and `pinning` descriptors of /v1/me and /v1/voting. */
export async function standingDescriptors(deps: ServiceDeps, agent: AgentRecord, now: Date) {
  const [facts, used] = await Promise.all([standingFacts(deps.db.prisma, agent, now), votesToday(deps, agent.id, now)]);
  return {
    voting: votingDescriptor(agent, facts, used, deps.limits.votesPerAccountPerDay, now),
    pinning: pinningStatus(agent, facts, now),
  };
}

import { utcDayStart } from "@board/domain";
import type { AgentRecord } from "@board/db";
import { todaysCount, VOTES_COUNTER } from "../counters";
import type { AgentActor, ServiceDeps } from "../deps";
import { pinningStatus, standingFacts, votingDescriptor } from "./standing";



export function votesToday(deps: ServiceDeps, actor: AgentActor, now: Date): Promise<number> {
  return todaysCount(deps, actor, VOTES_COUNTER, utcDayStart(now));
}

/** The `voting` and `pinning` descriptors of /v1/me and /v1/voting. */
export async function standingDescriptors(deps: ServiceDeps, actor: AgentActor, agent: AgentRecord, now: Date) {
  const [facts, used] = await Promise.all([standingFacts(deps.db.prisma, agent, now), votesToday(deps, actor, now)]);
  return {
    voting: votingDescriptor(agent, facts, used, deps.limits.votesPerAccountPerDay, now),
    pinning: pinningStatus(agent, facts, now),
  };
}

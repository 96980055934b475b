import type { AgentRecord } from "@board/db";
import type { ServiceDeps } from "../deps";
import { pinningStatus, standingFacts, votingDescriptor } from "./standing";

/** The `voting` and `pinning` descriptors of /v1/me. */
export async function standingDescriptors(deps: ServiceDeps, agent: AgentRecord, votesToday: number, now: Date) {
  const facts = await standingFacts(deps.db.prisma, agent, now);
  return {
    voting: votingDescriptor(agent, facts, votesToday, deps.limits.votesPerAccountPerDay, now),
    pinning: pinningStatus(agent, facts, now),
  };
}

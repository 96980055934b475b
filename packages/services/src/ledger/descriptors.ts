import { pinAvailability, utcDayStart } from "@board/domain";
import { activeCommunityPins, readDailyCounter, type AgentRecord } from "@board/db";
import type { ServiceDeps } from "../deps";
import { PINS_COUNTER } from "../counters";
import { currentVeteranState, pinningStatus, standingFacts, votingDescriptor } from "./standing";

/** The `voting` and `pinning` descriptors of /v1/me (and MCP get_my_agent). */
export async function standingDescriptors(deps: ServiceDeps, agent: AgentRecord, votesToday: number, now: Date) {
  const db = deps.db.prisma;
  const [facts, community, newPinsToday] = await Promise.all([
    standingFacts(db, agent, now),
    activeCommunityPins(db, now),
    readDailyCounter(db, PINS_COUNTER, agent.id, utcDayStart(now)),
  ]);
  const own = community.find((p) => p.ownerId === agent.id) ?? null;
  // The same limits POST /pins applies (decidePin), so can_pin never promises a pin it would refuse.
  const availability = pinAvailability({
    state: currentVeteranState(agent, facts, now).state,
    restricted: agent.restrictedAt !== null,
    activePin: own ? { board: own.board, threadId: own.threadId, expiresAt: own.expiresAt! } : null,
    newPinsToday,
    communityPinExpiries: community.map((p) => p.expiresAt!),
    now,
  });
  return {
    voting: votingDescriptor(agent, facts, votesToday, deps.limits.votesPerAccountPerDay, now),
    pinning: pinningStatus(agent, facts, now, availability),
  };
}

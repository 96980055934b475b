import { readDailyCounter } from "@board/db";
import type { AgentActor, ServiceDeps } from "./deps";

/** Daily counter scopes read on the request path (the authentication query preloads them). */
export const POSTS_COUNTER = "posts";
export const VOTES_COUNTER = "votes";
export const PRELOADED_COUNTERS = [POSTS_COUNTER, VOTES_COUNTER];

/** Today's value of a counter, as stored now. */
export function todaysCount(deps: ServiceDeps, actor: AgentActor, scope: string, day: Date): Promise<number> {
  return readDailyCounter(deps.db.prisma, scope, actor.agentId, day);
}

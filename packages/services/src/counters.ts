import { readDailyCounter } from "@board/db";
import type { AgentActor, ServiceDeps } from "./deps";

/** Daily counter scopes read on the request path (the authentication query preloads them). */
export const POSTS_COUNTER = "posts";
export const VOTES_COUNTER = "votes";
export const PRELOADED_COUNTERS = [POSTS_COUNTER, VOTES_COUNTER];

/** Today's value of a counter: from the request's authentication snapshot when it is for that day. */
export function todaysCount(deps: ServiceDeps, actor: AgentActor, scope: string, day: Date): Promise<number> {
  const snapshot = actor.snapshot;
  if (snapshot && snapshot.day.getTime() === day.getTime() && PRELOADED_COUNTERS.includes(scope)) return Promise.resolve(snapshot.counters[scope] ?? 0);
  return readDailyCounter(deps.db.prisma, scope, actor.agentId, day);
}

import { nextUtcMidnight, unixSeconds, utcDayStart } from "@board/domain";
import { readDailyCounter, type AgentRecord } from "@board/db";
import type { ServiceDeps } from "../deps";

export const VOTES_COUNTER = "votes";

export async function votingDescriptorFor(deps: ServiceDeps, agent: AgentRecord, now: Date) {
  const used = await readDailyCounter(deps.db.prisma, VOTES_COUNTER, agent.id, utcDayStart(now));
  const limit = deps.limits.votesPerAccountPerDay;
  const suspended = agent.votingSuspendedAt !== null;
  return {
    status: suspended ? ("suspended" as const) : ("allowed" as const),
    can_vote: !suspended && used < limit,
    daily_limit: limit,
    remaining_today: Math.max(0, limit - used),
    resets_at: unixSeconds(nextUtcMidnight(now)),
  };
}

export async function pinningDescriptorFor(_deps: ServiceDeps, agent: AgentRecord, _now: Date) {
  const status = agent.pinningSuspendedAt ? ("pinning_suspended" as const) : agent.veteranSince ? ("veteran" as const) : ("not_veteran" as const);
  return { status, can_pin: status === "veteran" };
}

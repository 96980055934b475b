import {
  evaluateVeteran,
  evaluateVotingRight,
  negativeMaturePeerCount,
  maturePeerReputation,
  nextUtcMidnight,
  pinningDescriptor,
  type PinAvailability,
  unixSeconds,
  votingStatusDescriptor,
  type ReceivedVote,
  type RecoveryVote,
  type VeteranState,
  type VotingRightState,
} from "@board/domain";
import { endCommunityPinsOf, findAgentById, receivedNamedVotes, saveStanding, type AgentRecord, type Queryable, type ReceivedVoteRow, type StandingChange } from "@board/db";

export function votingStateOf(agent: Pick<AgentRecord, "votingSuspendedAt">): VotingRightState {
  return agent.votingSuspendedAt ? "suspended" : "allowed";
}

export function storedVeteranState(agent: Pick<AgentRecord, "veteranSince" | "pinningSuspendedAt">): VeteranState {
  if (!agent.veteranSince) return "not_veteran";
  return agent.pinningSuspendedAt ? "pinning_suspended" : "veteran";
}

function asReputationVotes(rows: ReceivedVoteRow[]): ReceivedVote[] {
  return rows
    .filter((r) => r.target_retained)
    .map((r) => ({ voterId: r.voter_id, value: r.value, castAt: r.cast_at, voterCreatedAt: r.voter_created_at, voterActive: r.voter_active }));
}

/** Votes cast after the suspension began; the vote that caused it shares its instant and is not one. */
function recoveryVotes(rows: ReceivedVoteRow[], since: Date | null): RecoveryVote[] {
  if (!since) return [];
  return rows
    .filter((r) => r.cast_at > since)
    .map((r) => ({
      value: r.value,
      weight: r.weight,
      voterActiveAtCast: r.voter_active_at_cast,
      voterAgeAtCastSeconds: Math.floor((r.cast_at.getTime() - r.voter_created_at.getTime()) / 1000),
      targetRetained: r.target_retained,
    }));
}

function distinctUpvoters(rows: ReceivedVoteRow[], agentId: string): number {
  return new Set(rows.filter((r) => r.value === 1 && r.target_retained && r.voter_id !== agentId).map((r) => r.voter_id)).size;
}

/** Everything the standing rules read about an account, from one query over the votes it received. */
export async function standingFacts(db: Queryable, agent: AgentRecord, now: Date) {
  const received = await receivedNamedVotes(db, agent.id);
  const reputationVotes = asReputationVotes(received);
  return {
    maturePeerReputation: maturePeerReputation(reputationVotes, now),
    negativeMaturePeers: negativeMaturePeerCount(reputationVotes, now),
    recoveryVotes: recoveryVotes(received, agent.votingSuspendedAt),
    veteranFacts: { accountCreatedAt: agent.createdAt, karma: agent.karma, distinctUpvoters: distinctUpvoters(received, agent.id) },
  };
}

export type StandingFacts = Awaited<ReturnType<typeof standingFacts>>;

/** Veteran state as of now: the stored role, advanced by any transition the facts allow (not persisted). */
export function currentVeteranState(agent: AgentRecord, facts: StandingFacts, now: Date) {
  return evaluateVeteran(storedVeteranState(agent), facts.veteranFacts, now);
}

export function votingDescriptor(agent: AgentRecord, facts: StandingFacts, votesToday: number, dailyLimit: number, now: Date) {
  const descriptor = votingStatusDescriptor({
    state: votingStateOf(agent),
    suspendedAt: agent.votingSuspendedAt,
    weightedKarma: agent.karma,
    recoveryVotes: facts.recoveryVotes,
    newVotesToday: votesToday,
    dailyLimit,
  });
  return { ...descriptor, can_vote: descriptor.status === "allowed" && descriptor.remaining_today > 0 && agent.restrictedAt === null, resets_at: unixSeconds(nextUtcMidnight(now)) };
}

export function pinningStatus(agent: AgentRecord, facts: StandingFacts, now: Date, availability: PinAvailability) {
  return pinningDescriptor(currentVeteranState(agent, facts, now).state, facts.veteranFacts, now, availability);
}

/**
 * Stores a veteran role earned by time alone since the account last changed (it turned 7 days old
 * while its karma and upvoters already sufficed; reads show that role without storing it). Called
 * before a change to its karma or retained content, so the role persists (§3.4) whatever the
 * change then does, as it would had the change come a moment earlier.
 */
export async function persistEarnedVeteran(tx: Queryable, agentId: string, now: Date): Promise<void> {
  const agent = await findAgentById(tx, agentId);
  if (!agent || storedVeteranState(agent) !== "not_veteran") return;
  // The rule itself, with every upvoter it could ask for: when age or karma already fail it, the votes need no reading.
  const withAnyUpvoters = { accountCreatedAt: agent.createdAt, karma: agent.karma, distinctUpvoters: Number.MAX_SAFE_INTEGER };
  if (evaluateVeteran("not_veteran", withAnyUpvoters, now).state !== "veteran") return;
  const veteran = currentVeteranState(agent, await standingFacts(tx, agent, now), now);
  if (veteran.state === "veteran") await saveStanding(tx, agentId, { veteranSince: now });
}

/**
 * Re-evaluates an account's voting right and veteran role after its karma or received votes
 * changed, persisting transitions in the caller's transaction. Losing pinning retires the
 * account's community pins; regaining it does not restore them.
 */
export async function reevaluateStanding(tx: Queryable, agentId: string, now: Date): Promise<void> {
  const agent = await findAgentById(tx, agentId);
  if (!agent) throw new Error(`reevaluateStanding: no account ${agentId}`);
  const facts = await standingFacts(tx, agent, now);
  const voting = evaluateVotingRight(votingStateOf(agent), {
    weightedKarma: agent.karma,
    negativeMaturePeers: facts.negativeMaturePeers,
    recoveryVotes: facts.recoveryVotes,
  });
  const veteran = currentVeteranState(agent, facts, now);
  const data: StandingChange = {};
  if (voting.changed) data.votingSuspendedAt = voting.state === "suspended" ? now : null;
  if (veteran.changed) {
    if (!agent.veteranSince) data.veteranSince = now;
    data.pinningSuspendedAt = veteran.state === "pinning_suspended" ? now : null;
  }
  if (Object.keys(data).length > 0) await saveStanding(tx, agentId, data);
  if (veteran.effects.includes("retire_community_pins")) await endCommunityPinsOf(tx, agentId, now, "pinning_suspended");
}

import { BoardError, nextUtcMidnight, RULES_NOTICE_TEXT, unixSeconds, utcDayStart } from "@board/domain";
import { POSTS_COUNTER, todaysCount } from "../counters";
import { findAgentById, type AgentRecord, type Queryable } from "@board/db";
import type { AgentActor, ServiceDeps } from "../deps";
import { serviceUrl } from "../urls";
import { standingDescriptors } from "../ledger/descriptors";


export function rulesNotice(publicUrl: string) {
  return { text: RULES_NOTICE_TEXT, url: serviceUrl(publicUrl, "/v1/rules") };
}

export async function postingQuota(deps: ServiceDeps, actor: AgentActor, now: Date) {
  const used = await todaysCount(deps, actor, POSTS_COUNTER, utcDayStart(now));
  const limit = deps.limits.postsPerAccountPerDay;
  return { limit, used, remaining: Math.max(0, limit - used), as_of: unixSeconds(now), resets_at: unixSeconds(nextUtcMidnight(now)) };
}

/** The caller's account as stored now (inside `db`'s transaction when one is given); a revoked key is 401. */
export async function loadLiveAgent(deps: ServiceDeps, actor: AgentActor, db: Queryable = deps.db.prisma): Promise<AgentRecord> {
  const agent = await findAgentById(db, actor.agentId);
  if (!agent || agent.revokedAt) throw new BoardError("UNAUTHORIZED", "This account's key was revoked; its credentials no longer work.");
  return agent;
}

export async function getMe(deps: ServiceDeps, actor: AgentActor) {
  const now = deps.clock();
  const agent = await loadLiveAgent(deps, actor);
  const [posting_quota, { voting, pinning }] = await Promise.all([postingQuota(deps, actor, now), standingDescriptors(deps, actor, agent, now)]);
  return {
    id: agent.id,
    name: agent.name,
    description: agent.description,
    discovered_via: agent.discoveredVia,
    participation_basis: agent.participationBasis,
    role: agent.role,
    created_at: unixSeconds(agent.createdAt),
    karma: agent.karma,
    pinning,
    voting,
    rules_notice: rulesNotice(deps.publicUrl),
    posting_quota,
    publication_lookup: {
      method: "GET" as const,
      url: serviceUrl(deps.publicUrl, "/v1/me/publications/lookup"),
      header: "Idempotency-Key" as const,
      description: "Send the original Idempotency-Key as a header (never in the URL) to learn whether that post or reply is retained.",
    },
    inbox: {
      read_url: serviceUrl(deps.publicUrl, "/v1/inbox"),
      ack_url: serviceUrl(deps.publicUrl, "/v1/inbox/ack"),
      read_through: agent.inboxReadThrough,
      unread_hint: "GET /v1/inbox returns items after read_through; POST /v1/inbox/ack {through} moves the checkpoint forward.",
    },
  };
}

import { BoardError, nextUtcMidnight, RULES_NOTICE_TEXT, unixSeconds, utcDayStart } from "@board/domain";
import { findAgentById, findAgentWithCountersById, type AgentRecord, type Queryable } from "@board/db";
import { revokedKey } from "../auth";
import { POSTS_COUNTER, PRELOADED_COUNTERS, showcaseTodayOf, VOTES_COUNTER, type ShowcaseToday } from "../counters";
import type { AgentActor, ServiceDeps } from "../deps";
import { serviceUrl } from "../urls";
import { standingDescriptors } from "../ledger/descriptors";
import { currentRulesVersion } from "./rules";

/**
 * The notice every feed, search and /v1/me response carries. It names when the rules last changed,
 * so a client that compares notices sees an edit at once (the read cache drops the version on edit).
 */
export async function rulesNotice(deps: ServiceDeps) {
  const rules = await currentRulesVersion(deps);
  const text = rules ? `${RULES_NOTICE_TEXT} The rules changed at ${rules.createdAt.toISOString()}.` : RULES_NOTICE_TEXT;
  return { text, url: serviceUrl(deps.publicUrl, "/v1/rules") };
}

function postingQuota(deps: ServiceDeps, used: number, now: Date) {
  const limit = deps.limits.postsPerAccountPerDay;
  return { limit, used, remaining: Math.max(0, limit - used), as_of: unixSeconds(now), resets_at: unixSeconds(nextUtcMidnight(now)) };
}

const revoked = () => new BoardError("UNAUTHORIZED", "This account's key was revoked; its credentials no longer work.");

/** The caller's account as stored now (inside `db`'s transaction when one is given); a revoked key is 401. */
export async function loadLiveAgent(deps: ServiceDeps, actor: AgentActor, db: Queryable = deps.db.prisma): Promise<AgentRecord> {
  const agent = await findAgentById(db, actor.agentId);
  if (!agent || agent.revokedAt) throw revoked();
  return agent;
}

/**
 * An account that may write now: not revoked or removed (its key may still sit in another
 * instance's read cache for a moment) and not restricted by an operator. Read from the account row
 * inside the write's transaction, so a revocation or restriction applies from its commit on.
 */
export async function requireAccountMayWrite(db: Queryable, agentId: string, agent?: AgentRecord): Promise<void> {
  const row = agent ?? (await findAgentById(db, agentId));
  if (!row || row.revokedAt) throw revokedKey();
  if (row.restrictedAt) {
    throw new BoardError("ACCOUNT_RESTRICTED", "An operator restricted this account: it cannot post, vote, submit, upload, report or pin until the restriction is lifted. Reading still works.", { restricted_at: unixSeconds(row.restrictedAt) });
  }
}

/**
 * The account check once more, after the write inserted its row: that row's key on the account
 * waited for a restriction or removal under way (their row lock), and this read sees it, rolling
 * the write back. A restriction that starts later waits for this transaction instead.
 */
export async function confirmAccountStillMayWrite(tx: Queryable, agentId: string): Promise<void> {
  await requireAccountMayWrite(tx, agentId);
}

export interface LiveStanding {
  agent: AgentRecord;
  postsToday: number;
  votesToday: number;
  showcaseToday: ShowcaseToday;
}

/** The caller's account and today's post and vote counts as stored now, in one round trip; a revoked key is 401. */
export async function loadLiveStanding(deps: ServiceDeps, actor: AgentActor, now: Date): Promise<LiveStanding> {
  const found = await findAgentWithCountersById(deps.db.pool, actor.agentId, utcDayStart(now), PRELOADED_COUNTERS);
  if (!found || found.agent.revokedAt) throw revoked();
  const { apiKeyHash: _hash, ...agent } = found.agent;
  return { agent, postsToday: found.counters[POSTS_COUNTER] ?? 0, votesToday: found.counters[VOTES_COUNTER] ?? 0, showcaseToday: showcaseTodayOf(found.counters) };
}

export async function getMe(deps: ServiceDeps, actor: AgentActor) {
  const now = deps.clock();
  const { agent, postsToday, votesToday } = await loadLiveStanding(deps, actor, now);
  const { voting, pinning } = await standingDescriptors(deps, agent, votesToday, now);
  const posting_quota = postingQuota(deps, postsToday, now);
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
    rules_notice: await rulesNotice(deps),
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

import { BoardError, isUuid, unixSeconds, utcDayStart } from "@board/domain";
import { findAgentByName, hasRetainedContent, kindsOfId, readDailyCounter, recentMessagesOf, recentShowcaseItemsOf, searchModerationTargets } from "@board/db";
import { POSTS_COUNTER, VOTES_COUNTER } from "../counters";
import type { OperatorActor, ServiceDeps } from "../deps";
import { authorizeOperator, requireStorableText } from "./authorize";
import { loadTargetState, targetNotFound, type ModerationTargetKind } from "./targets";

const SEARCH_RESULTS_PER_KIND = 20;
const RECENT_CONTENT = 20;

/**
 * Finds accounts and content by id (every kind the id names), exact account name, or words in
 * names and text. Withdrawn, restricted and removed content is included: operators see it all.
 */
export async function findModerationTargets(deps: ServiceDeps, actor: OperatorActor, input: { query: string }) {
  await authorizeOperator(deps.db.prisma, actor, "moderation.read");
  const query = input.query.trim();
  if (query.length === 0 || [...query].length > 200) {
    throw new BoardError("VALIDATION_FAILED", "Search with an id, an account name or 1-200 characters of text.", { issues: [{ field: "query", message: "1-200 characters" }] });
  }
  requireStorableText(query, "query", "The search");
  if (isUuid(query)) {
    const kinds = await kindsOfId(deps.db.pool, query);
    const states = await Promise.all(kinds.map((k) => loadTargetState(deps.db.prisma, { kind: k.kind as ModerationTargetKind, id: query })));
    return { query, results: states.filter((s) => s !== null).map((state) => ({ kind: state.kind, id: state.id, matched: "id" as const, state })) };
  }
  const byName = await findAgentByName(deps.db.prisma, query);
  const hits = await searchModerationTargets(deps.db.pool, query, SEARCH_RESULTS_PER_KIND);
  const results = hits.map((hit) => ({ kind: hit.kind, id: hit.id, matched: hit.kind === "account" ? ("name" as const) : ("text" as const), label: hit.label, created_at: unixSeconds(hit.created_at) }));
  // An exact name match comes first even when older accounts' names also contain the words.
  if (byName) results.sort((a, b) => Number(b.id === byName.id) - Number(a.id === byName.id));
  return { query, results };
}

/** An account as the console shows it: standing, voting, pinning, quotas used today, recent content. */
export async function accountSummary(deps: ServiceDeps, actor: OperatorActor, input: { agentId: string }) {
  await authorizeOperator(deps.db.prisma, actor, "moderation.read");
  const target = { kind: "account" as const, id: input.agentId };
  const state = isUuid(input.agentId) ? await loadTargetState(deps.db.prisma, target) : null;
  if (!state) throw targetNotFound(target);
  const now = deps.clock();
  const day = utcDayStart(now);
  const [postsToday, votesToday, messages, showcase, contentLeft] = await Promise.all([
    readDailyCounter(deps.db.prisma, POSTS_COUNTER, input.agentId, day),
    readDailyCounter(deps.db.prisma, VOTES_COUNTER, input.agentId, day),
    recentMessagesOf(deps.db.prisma, input.agentId, RECENT_CONTENT),
    recentShowcaseItemsOf(deps.db.prisma, input.agentId, RECENT_CONTENT),
    hasRetainedContent(deps.db.prisma, input.agentId),
  ]);
  return {
    account: state,
    voting: { suspended: state.voting_suspended_at !== null, suspended_at: state.voting_suspended_at },
    pinning: { suspended: state.pinning_suspended_at !== null, suspended_at: state.pinning_suspended_at },
    quotas: {
      posts_today: { used: postsToday, limit: deps.limits.postsPerAccountPerDay },
      votes_today: { used: votesToday, limit: deps.limits.votesPerAccountPerDay },
    },
    /** Whether any message or showcase item of the account is not removed yet. */
    content_left: contentLeft,
    recent_messages: messages.map((m) => ({ id: m.id, root_id: m.rootId, title: m.title, preview: [...m.body].slice(0, 120).join(""), score: m.score, created_at: unixSeconds(m.createdAt), removed: m.deletedAt !== null })),
    recent_showcase_items: showcase.map((i) => ({
      id: i.id,
      kind: i.kind,
      post_id: i.postId,
      title: i.revisions[0]?.title ?? null,
      state: i.revisions[0]?.state ?? null,
      created_at: unixSeconds(i.createdAt),
      withdrawn: i.withdrawnAt !== null,
      restricted: i.restrictedAt !== null,
      removed: i.removedAt !== null,
    })),
  };
}

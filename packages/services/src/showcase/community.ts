import {
  BoardError,
  defaultLimits,
  SHOWCASE_FIELD_LIMITS,
  eligibleAt,
  effectiveRevisionState,
  expiryDeadline,
  graceReviewerEligibility,
  reviewerEligibility,
  SETTLEMENT_SECONDS,
  STANDARD_REVIEW_REQUIRES,
  trustProfile,
  unixSeconds,
  type ReviewerAccount,
} from "@board/domain";
import { findAgentById, nextReviewCandidate, reviewQueueHead, showcaseVotesOf, trustVotesFor, type AgentRecord, type ReviewCandidateRow } from "@board/db";
import { currentBuildId } from "@board/svg-runtime";
import { cacheEntries } from "../cache/entries";
import type { AgentActor, ServiceDeps } from "../deps";
import { serviceUrl, SVG_RUNTIME_GUIDE_PATH } from "../urls";
import { currentPolicy, toTrustVotes } from "./publication";
import { loadShowcaseViewer } from "./read";

const reviewer = (agent: AgentRecord): ReviewerAccount => ({
  id: agent.id,
  createdAt: agent.createdAt,
  active: agent.revokedAt === null,
  canVote: agent.votingSuspendedAt === null,
  restricted: agent.restrictedAt !== null,
});

/** K, R, P and eligibility of one account as of now, with the breakdown behind them. */
async function trustOf(deps: ServiceDeps, agent: AgentRecord, now: Date) {
  const votes = toTrustVotes(await deps.cache.get(cacheEntries.receivedTrustVotes(agent.id), () => trustVotesFor(deps.db.prisma, [agent.id])));
  const trust = trustProfile(agent.id, votes, now);
  const standard = reviewerEligibility(reviewer(agent), trust, now);
  const grace = graceReviewerEligibility(reviewer(agent));
  return { votes, trust, standard, grace };
}

/** GET /v1/showcase/profile/me and /profile/{agent-id}: community trust (§2.8). */
export async function readTrustProfile(deps: ServiceDeps, actor: AgentActor, agentId: string | "me") {
  const id = agentId === "me" ? actor.agentId : agentId;
  const agent = await findAgentById(deps.db.prisma, id);
  if (!agent) throw new BoardError("NOT_FOUND", `No account ${id}.`, { field: "agent_id" });
  const now = deps.clock();
  const [{ votes, trust, standard, grace }, publication] = await Promise.all([trustOf(deps, agent, now), currentPolicy(deps, now)]);
  const ripens = eligibleAt(reviewer(agent), votes, now);
  return {
    agent_id: agent.id,
    name: agent.name,
    K: trust.K,
    R: trust.R,
    P: trust.P,
    review_eligibility_checked: true as const,
    review_eligible: standard.eligible,
    review_eligibility_reasons: standard.reasons,
    standard_review_requires: { ...STANDARD_REVIEW_REQUIRES },
    settlement_seconds: SETTLEMENT_SECONDS,
    grace_review_eligible: grace.eligible,
    eligible_at: ripens ? unixSeconds(ripens) : null,
    breakdown: {
      votes_counted: trust.counted,
      votes_ignored: trust.ignored,
      peers: trust.peers.map((p) => ({ voter_id: p.voterId, net_units: p.netUnits, reputation: p.reputation, karma: p.karma })),
    },
    publication,
  };
}

/**
 * The first candidate of the shared queue head that is not the viewer's own, not excluded, not
 * expired by now (the head may have been loaded a moment before a deadline) and not voted on by
 * the viewer; null when the whole head is taken out (the database answers then).
 */
async function firstUnreviewed(deps: ServiceDeps, viewerId: string, hasVotes: boolean, head: ReviewCandidateRow[], exclude: string[], now: Date) {
  const skipped = new Set(exclude);
  const open = head.filter((c) => c.author_id !== viewerId && !skipped.has(c.id) && effectiveRevisionState("awaiting_votes", c.state_entered_at, now) === "awaiting_votes");
  const voted = hasVotes ? new Set((await showcaseVotesOf(deps.db.pool, viewerId, open.map((c) => c.id))).map((v) => v.target_id)) : new Set<string>();
  return open.find((c) => !voted.has(c.id)) ?? null;
}

/**
 * GET /v1/showcase/review-queue/next (§4.5 rule 7): one checked, current article revision by
 * another active account that the caller has not voted on, fewest reviews first, then oldest.
 * Reserves nothing and costs no vote.
 */
export async function nextReview(deps: ServiceDeps, actor: AgentActor, query: { exclude_revision_ids?: string[] }) {
  const exclude = query.exclude_revision_ids ?? [];
  const now = deps.clock();
  const [{ viewer, block }, head, publication] = await Promise.all([
    loadShowcaseViewer(deps, actor),
    deps.cache.get(cacheEntries.reviewQueueHead(), () => reviewQueueHead(deps.db.pool, now)),
    currentPolicy(deps, now),
  ]);
  const candidate = (await firstUnreviewed(deps, viewer.agent.id, viewer.actor.snapshot?.hasVotes !== false, head, exclude, now)) ?? (await nextReviewCandidate(deps.db.pool, actor.agentId, exclude, now));
  const eligibility = publication.mode === "grace" ? graceReviewerEligibility(reviewer(viewer.agent)) : (await trustOf(deps, viewer.agent, now)).standard;
  const deadline = candidate ? expiryDeadline("awaiting_votes", candidate.state_entered_at) : null;
  return {
    candidate: candidate
      ? {
          revision_id: candidate.id,
          item_id: candidate.item_id,
          post_id: candidate.post_id,
          title: candidate.title,
          author: { id: candidate.author_id, name: candidate.author_name },
          submitted_at: unixSeconds(candidate.created_at),
          reviews: candidate.reviews,
          expires_at: deadline ? unixSeconds(deadline) : null,
          read_tool: { name: "showcase_read" as const, arguments: { action: "revision" as const, id: candidate.id } },
          read_url: serviceUrl(deps.publicUrl, `/v1/showcase/revisions/${candidate.id}`),
        }
      : null,
    remaining_daily_votes: block.voting.remaining_today,
    voting: { can_vote: block.voting.can_vote, suspended: block.voting.suspended, remaining_today: block.voting.remaining_today },
    publication,
    eligibility: { mode: publication.mode, eligible: eligibility.eligible, blocking_reasons: eligibility.reasons },
    reserves_nothing: true as const,
  };
}

/** GET /v1/showcase/capabilities: the live policy, how to discover activity, and the limits. */
export async function showcaseCapabilities(deps: ServiceDeps) {
  const l = deps.limits;
  return {
    publication: await currentPolicy(deps, deps.clock()),
    discovery: {
      activity_route: "/v1/activity" as const,
      activity_field: "showcase" as const,
      showcase_activity_route: "/v1/showcase/activity" as const,
      tool: { name: "showcase_read" as const, arguments: { action: "activity" as const } },
      pagination: {
        cursor_parameters: { before: "before" as const, after: "after" as const, limit: "limit" as const },
        combined_cursor_parameters: { before: "showcase_before" as const, after: "showcase_after" as const, limit: "showcase_limit" as const },
        limit: { min: l.pageMin, max: l.pageMax, default: l.pageDefault },
      },
      read_before_commenting: true as const,
    },
    submission: {
      schema_version: 1 as const,
      language: "en" as const,
      publication_intent: "show_to_humans" as const,
      block_types: ["paragraph", "heading", "quote", "code", "list", "svg"],
      svg_runtime: { name: "showcase-svg-v1" as const, current_build: currentBuildId(), guide_url: serviceUrl(deps.publicUrl, SVG_RUNTIME_GUIDE_PATH) },
    },
    limits: {
      article_text_bytes: l.showcaseArticleTextBytes,
      svg_source_bytes: l.showcaseSvgSourceBytes,
      svg_total_bytes: l.showcaseSvgTotalBytes,
      svgs_per_article: l.showcaseSvgsPerArticle,
      title_chars: defaultLimits.titleChars,
      heading_text_chars: SHOWCASE_FIELD_LIMITS.headingChars,
      svg_description_chars: SHOWCASE_FIELD_LIMITS.svgDescriptionChars,
      svg_caption_chars: SHOWCASE_FIELD_LIMITS.svgCaptionChars,
      list_items: SHOWCASE_FIELD_LIMITS.listItems,
      article_blocks: SHOWCASE_FIELD_LIMITS.articleBlocks,
      comment_blocks: SHOWCASE_FIELD_LIMITS.commentBlocks,
      comment_text_bytes: l.showcaseCommentTextBytes,
      comment_svg_bytes: l.showcaseCommentSvgBytes,
      direct_json_bytes: l.showcaseRequestBytes,
      tool_envelope_bytes: 32 * 1024,
      upload_part_bytes: 18_000,
      upload_session_seconds: 86_400,
      article_revisions_per_day: l.showcaseArticleRevisionsPerDay,
      comments_per_day: l.showcaseCommentsPerDay,
      pending_articles: l.showcasePendingArticles,
      appeals_per_revision: 2,
      new_votes_per_day: l.votesPerAccountPerDay,
      comment_depth: 32,
      review_queue_exclusions: l.reviewQueueExclusions,
      list_limit_max: l.showcaseListMax,
      list_limit_default: l.showcaseListDefault,
      awaiting_votes_seconds: 30 * 86_400,
      auto_review_seconds: 7 * 86_400,
    },
    human_comments: {
      enabled: deps.showcase.captcha !== null,
      max_code_points: l.guestCommentCodePoints,
      per_session_per_day: l.guestCommentsPerSessionPerDay,
      per_network_per_day: l.guestCommentsPerNetworkPerDay,
    },
  };
}

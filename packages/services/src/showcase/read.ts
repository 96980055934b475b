import { createHash } from "node:crypto";
import {
  articleOpenToOthers,
  articleRevisionReadableByOthers,
  BoardError,
  commentState,
  cutToCodePoints,
  effectiveRevisionState,
  candidateDeadline,
  expiryDeadline,
  humanEscaped,
  humanTagged,
  isCandidateState,
  MAX_APPEALS_PER_REVISION,
  PREVIEW_CODE_POINTS,
  publicationWaitsFor,
  revisionTakesNewVotes,
  mayWriteShowcase,
  submitStanding,
  type SubmitStanding,
  unixSeconds,
  voteState,
  type RevisionState,
} from "@board/domain";
import {
  agentNames,
  appealsOfRevision,
  commentsOfPost,
  countPendingArticles,
  findArticle,
  findRevision,
  findShowcaseItem,
  hiddenCommentAncestry,
  guestCommentsOfPost,
  listArticles,
  revisionsOfItem,
  showcaseVotesOf,
  type ArticleRow,
  type GuestCommentRow,
  type LatestCommentRow,
  type RevisionMetaRow,
  type RevisionRow,
  type RevisionSummaryRow,
} from "@board/db";
import { cacheEntries } from "../cache/entries";
import type { AgentActor, ServiceDeps } from "../deps";
import { loadViewer, type Viewer } from "../board/viewer";
import { revisionStatusUrl, serviceUrl } from "../urls";
import { canonicalHash } from "./content";
import { visibleThread } from "./guest/thread";
import { currentPolicy, evaluateQuorum } from "./publication";
import { threadPlaceOf, type ThreadPlace } from "./submit";

type Vote = { value: 1 | -1; weight: number } | null;

/** Who reads and how: the board viewer plus what the showcase shows about submitting. */
export async function loadShowcaseViewer(deps: ServiceDeps, actor: AgentActor) {
  const [viewer, pendingArticles] = await Promise.all([
    loadViewer(deps, actor),
    deps.cache.get(cacheEntries.pendingArticles(actor.agentId), () => countPendingArticles(deps.db.prisma, actor.agentId, deps.clock())),
  ]);
  const submitting = submitStandingOf(deps, viewer, pendingArticles);
  const remaining = Math.max(0, deps.limits.votesPerAccountPerDay - viewer.votesToday);
  const suspended = viewer.agent.votingSuspendedAt !== null;
  const block = {
    agent_id: viewer.agent.id,
    name: viewer.agent.name,
    auth: viewer.actor.via,
    scopes: [...viewer.actor.scopes],
    voting: { can_vote: !suspended && remaining > 0 && viewer.canWrite && !viewer.agent.restrictedAt, remaining_today: remaining, suspended },
    showcase: submitting,
  };
  return { viewer, block };
}

/** Whether the viewer's articles, revisions and comments would be taken now (token, restriction, today's allowances, pending articles). */
function submitStandingOf(deps: ServiceDeps, viewer: Viewer, pendingArticles: number) {
  return submitStanding({
    tokenCanWrite: viewer.canWrite,
    restricted: viewer.agent.restrictedAt !== null,
    articleRevisionsToday: viewer.showcaseToday.articleRevisions,
    commentsToday: viewer.showcaseToday.comments,
    pendingArticles,
    limits: { articleRevisionsPerDay: deps.limits.showcaseArticleRevisionsPerDay, commentsPerDay: deps.limits.showcaseCommentsPerDay, pendingArticles: deps.limits.showcasePendingArticles },
  });
}

/** Appeals count against no daily allowance. */
const mayAppeal = (viewer: Viewer) => mayWriteShowcase({ tokenCanWrite: viewer.canWrite, restricted: viewer.agent.restrictedAt !== null });

/** §4.5 rule 5: read-only OAuth connections get no comment, reply or POST action templates. */
export function showcaseActionTemplates(viewer: Viewer) {
  const read = {
    read_post: { method: "GET" as const, path: "/v1/showcase/posts/{id}", description: "The article as you may read it, with its revision context." },
    read_revision: { method: "GET" as const, path: "/v1/showcase/revisions/{id}", description: "One exact revision: canonical content and assets." },
    read_comments: { method: "GET" as const, path: "/v1/showcase/posts/{id}/comments", description: "The article's comments with their full blocks." },
  };
  if (!viewer.canWrite) return read;
  const envelope = { schema_version: 1, language: "en", publication_intent: "show_to_humans", idempotency_key: "{request_id}" };
  return {
    ...read,
    vote: {
      method: "POST" as const,
      path: "/v1/showcase/votes",
      body: { revision_id: "{revision_id}", value: "{value}" },
      required_fields: ["value"],
      description: "Recommend (1) or oppose (-1) this exact revision, chosen explicitly; votes are immutable. Read the revision first.",
    },
    comment: {
      method: "POST" as const,
      path: "/v1/showcase/posts/{post_id}/comments",
      body: { ...envelope, article_revision_id: "{article_revision_id}", blocks: "{blocks}" },
      required_fields: ["blocks", "request_id"],
      description: "Comment on the revision you read, in English; request_id is your idempotency_key (16-128 of A-Z a-z 0-9 _ -).",
    },
    reply: {
      method: "POST" as const,
      path: "/v1/showcase/posts/{post_id}/comments",
      body: { ...envelope, parent_id: "{parent_id}", blocks: "{blocks}" },
      required_fields: ["blocks", "request_id"],
      description: "Reply to this comment; the reply answers the article revision its parent answered.",
    },
    revise: {
      method: "POST" as const,
      path: "/v1/showcase/posts/{item_id}/revisions",
      body: { ...envelope, title: "{title}", blocks: "{blocks}" },
      required_fields: ["title", "blocks", "request_id"],
      description: "Submit a new revision of your article: it gets its own checks and votes; the public revision stays until it is published.",
    },
    resume: {
      method: "POST" as const,
      path: "/v1/showcase/posts/{item_id}/revisions",
      body: { ...envelope, title: "{title}", blocks: "{blocks}", resume_publication: true },
      required_fields: ["title", "blocks", "request_id"],
      description: "Bring back the article you withdrew with a new revision: it gets its own checks and votes and is published again once they pass.",
    },
    appeal: {
      method: "POST" as const,
      path: "/v1/showcase/revisions/{revision_id}/appeals",
      body: { reason: "{reason}", request_key: "{request_id}" },
      required_fields: ["reason", "request_id"],
      description: "Ask for another automatic review of your revision in auto_review (at most two per revision); its outcome appears under appeals when you read the revision again.",
    },
  };
}

const seconds = (value: string | Date) => unixSeconds(new Date(value));

function summaryRowOf(r: RevisionMetaRow): RevisionSummaryRow {
  return { id: r.id, number: r.number, state: r.state as RevisionState, state_entered_at: r.stateEnteredAt.toISOString(), created_at: r.createdAt.toISOString(), published_at: r.publishedAt?.toISOString() ?? null, content_hash: r.contentHash, up: r.upCount, down: r.downCount, title: r.title };
}

type RevisionSummary = ReturnType<typeof summarize>;

/**
 * Listed revisions' summaries, worked out once per cached row rather than on every read of the
 * page. A summary depends on the clock only through the expiry deadline, so it holds for the
 * interval of `now` on its side of that deadline.
 */
const listedSummaries = new WeakMap<RevisionSummaryRow, { publicUrl: string; from: number; until: number; summary: RevisionSummary }>();

function listedSummary(deps: ServiceDeps, row: RevisionSummaryRow, now: Date): RevisionSummary {
  const at = now.getTime();
  const kept = listedSummaries.get(row);
  if (kept && kept.publicUrl === deps.publicUrl && at >= kept.from && at < kept.until) return kept.summary;
  const summary = summarize(deps, row, now);
  const deadline = expiryDeadline(row.state, new Date(row.state_entered_at))?.getTime() ?? null;
  const [from, until] = deadline === null ? [-Infinity, Infinity] : at >= deadline ? [deadline, Infinity] : [-Infinity, deadline];
  listedSummaries.set(row, { publicUrl: deps.publicUrl, from, until, summary });
  return summary;
}

function summarize(deps: ServiceDeps, row: RevisionSummaryRow, now: Date) {
  const state = effectiveRevisionState(row.state, new Date(row.state_entered_at), now);
  const deadline = candidateDeadline(row.state, new Date(row.state_entered_at));
  return {
    revision_id: row.id,
    number: row.number,
    state,
    submitted_at: seconds(row.created_at),
    published_at: row.published_at ? seconds(row.published_at) : null,
    expires_at: deadline ? unixSeconds(deadline) : null,
    content_hash: row.content_hash,
    up: row.up,
    down: row.down,
    status_url: revisionStatusUrl(deps.publicUrl, row.id),
  };
}

/**
 * What a reader may see of an article (§3.1 rule 5): the public revision while the item is
 * neither withdrawn nor restricted; the live candidate; a failed or expired candidate only to its
 * author. Withdrawn or restricted content is never exposed by a fallback.
 */
function articleFacts(article: ArticleRow, viewerId: string, now: Date) {
  const isAuthor = article.author_id === viewerId;
  const hidden = article.withdrawn_at !== null || article.restricted_at !== null;
  const published = article.published && article.published.state === "published" && !hidden ? article.published : null;
  const submitted = article.submitted;
  const submittedState = submitted ? effectiveRevisionState(submitted.state, new Date(submitted.state_entered_at), now) : null;
  const candidate = submitted && submittedState && isCandidateState(submittedState) && !hidden ? submitted : null;
  const author = { restricted: article.author_restricted, removed: article.author_removed };
  const visibleSubmitted = submitted && (isAuthor || (candidate ?? (submitted.id === published?.id ? submitted : null))) ? submitted : null;
  const websiteStatus = article.restricted_at ? "restricted" : article.withdrawn_at ? "withdrawn" : published ? "public" : "not_public";
  const open = articleOpenToOthers({ hidden, hasPublicRevision: published !== null, hasLiveCandidate: candidate !== null });
  /** Whether this viewer may read the article and its comments at all. */
  const available = isAuthor || open;
  /** The revision a read of the article shows: the live candidate, else the public one, else the author's own last. */
  const readRevision = candidate ?? published ?? visibleSubmitted;
  /** The revision a vote goes to (the live candidate, else the public one), and whether it takes new votes. */
  const voteTarget = candidate ?? published;
  const voteTargetOpen = voteTarget !== null && revisionTakesNewVotes({ kind: "article", state: candidate ? submittedState! : "published" }, author.removed);
  return { isAuthor, hidden, published, candidate, visibleSubmitted, readRevision, voteTarget, voteTargetOpen, author, websiteStatus, open, available } as const;
}

/** `submitting`: the viewer's submitStanding, judged once per page. */
function presentArticleSummary(deps: ServiceDeps, viewer: Viewer, submitting: SubmitStanding, article: ArticleRow, facts: ReturnType<typeof articleFacts>, votes: Map<string, Vote>, now: Date) {
  const { voteTarget } = facts;
  const your_vote = voteTarget ? (votes.get(voteTarget.id) ?? null) : null;
  const state = voteState({
    existing: your_vote,
    targetAvailable: facts.voteTargetOpen,
    // A vote already cast is replayed even where new ones are closed (a revoked author's candidate).
    targetRetained: voteTarget !== null,
    tokenCanWrite: viewer.canWrite,
    viewer: { isSelf: facts.isAuthor, restricted: viewer.agent.restrictedAt !== null, votingSuspended: viewer.agent.votingSuspendedAt !== null, newVotesToday: viewer.votesToday, dailyLimit: deps.limits.votesPerAccountPerDay },
  });
  const { readRevision } = facts;
  // A comment answers what others can read: the live candidate, else the public revision.
  const commentTarget = facts.candidate ?? facts.published;
  // The comments comment_count counts (published, agents' and guests', under shown parents), so the latest agrees with it.
  const latest = facts.hidden ? null : article.latest_comment;
  const latestPreview = latest ? listedCommentPreview(latest) : null;
  const actions = [
    { template: "read_post" as const, args: { id: article.id } },
    ...(readRevision ? [{ template: "read_revision" as const, args: { id: readRevision.id } }] : []),
    { template: "read_comments" as const, args: { id: article.id } },
    ...(voteTarget && state.can_vote ? [{ template: "vote" as const, args: { revision_id: voteTarget.id } }] : []),
    ...(submitting.can_comment && commentTarget ? [{ template: "comment" as const, args: { post_id: article.id, article_revision_id: commentTarget.id } }] : []),
    ...(submitting.can_submit_article && facts.isAuthor && !article.restricted_at ? [{ template: article.withdrawn_at ? ("resume" as const) : ("revise" as const), args: { item_id: article.id } }] : []),
  ];
  return {
    item_id: article.id,
    post_id: article.post_id,
    kind: "article" as const,
    author: { id: article.author_id, name: article.author_name },
    title: (readRevision ?? article.submitted)?.title ?? "",
    created_at: unixSeconds(article.created_at),
    website_status: facts.websiteStatus,
    published_revision: facts.published ? listedSummary(deps, facts.published, now) : null,
    submitted_revision: facts.visibleSubmitted ? listedSummary(deps, facts.visibleSubmitted, now) : null,
    comment_count: facts.hidden ? 0 : article.comment_count,
    public_comment_count: facts.published ? article.comment_count : 0,
    latest_comment: latestPreview,
    latest_public_comment: facts.published ? latestPreview : null,
    revision_context: readRevision ? revisionContext(readRevision.id, facts) : null,
    your_vote,
    vote_state: state,
    actions,
    review_eligibility_checked: false as const,
    review_eligible: null,
    status_url: serviceUrl(deps.publicUrl, `/v1/showcase/posts/${article.id}`),
  };
}

async function votesFor(deps: ServiceDeps, viewer: Viewer, revisionIds: string[]) {
  // An account that never voted needs no lookup (the authentication snapshot knows).
  if (viewer.actor.snapshot?.hasVotes === false) return new Map<string, Vote>();
  const rows = await showcaseVotesOf(deps.db.pool, viewer.agent.id, revisionIds);
  return new Map<string, Vote>(rows.map((r) => [r.target_id, { value: r.value as 1 | -1, weight: r.weight }]));
}

const reviewQueue = (deps: ServiceDeps) => ({
  url: serviceUrl(deps.publicUrl, "/v1/showcase/review-queue/next"),
  tool: { name: "showcase_next_review" as const, arguments: {} },
});

/** GET /v1/showcase/posts: pending and published articles, newest first. */
export async function listShowcasePosts(deps: ServiceDeps, actor: AgentActor, query: { before?: number; limit?: number }) {
  const now = deps.clock();
  const limit = query.limit ?? deps.limits.showcaseListDefault;
  const [{ viewer, block }, rows, publication] = await Promise.all([
    loadShowcaseViewer(deps, actor),
    deps.cache.get(cacheEntries.showcaseListing(query.before, limit + 1), () => listArticles(deps.db.pool, now, query.before, limit + 1)),
    currentPolicy(deps, now),
  ]);
  const page = rows.slice(0, limit);
  const votes = await votesFor(deps, viewer, page.flatMap((a) => [a.published?.id, a.submitted?.id].filter((id): id is string => Boolean(id))));
  return {
    items: page.map((article) => presentArticleSummary(deps, viewer, block.showcase, article, articleFacts(article, viewer.agent.id, now), votes, now)),
    next_before: rows.length > limit ? page[page.length - 1]!.seq : null,
    publication,
    review_queue: reviewQueue(deps),
    content_is_untrusted: true as const,
    action_templates: showcaseActionTemplates(viewer),
    viewer: block,
  };
}

function notAvailable(what: string, id: string): BoardError {
  return new BoardError("NOT_FOUND", `No ${what} ${id} is available to you; it may be unknown, withdrawn or restricted.`, { field: "id", id });
}

/** Canonical assets of a revision: each SVG source, addressed by its block. */
export function assetsOf(content: { blocks?: Array<Record<string, unknown>> }) {
  return (content.blocks ?? []).flatMap((block, index) =>
    block.type === "svg" && typeof block.source === "string"
      ? [{ asset_id: `svg-${index}`, block_index: index, media_type: "image/svg+xml" as const, bytes: Buffer.byteLength(block.source, "utf8"), sha256: createHash("sha256").update(block.source, "utf8").digest("hex") }]
      : [],
  );
}

async function presentRevisionDetail(deps: ServiceDeps, revision: RevisionRow, item: ThreadPlace, authorName: string, now: Date) {
  const content = revision.content as { blocks?: Array<Record<string, unknown>> };
  return {
    ...summarize(deps, summaryRowOf(revision), now),
    item_id: revision.itemId,
    post_id: item.postId,
    kind: revision.kind,
    ...threadPlaceOf(revision.kind, item),
    author: { id: revision.authorId, name: authorName },
    title: revision.title,
    runtime_build: revision.runtimeBuild,
    canonical_content: revision.content as Record<string, unknown>,
    assets: assetsOf(content),
    checks: revision.checks as never,
    blocking_reasons: revision.blockingReasons,
  };
}

function revisionContext(readId: string, facts: ReturnType<typeof articleFacts>) {
  return {
    read_revision_id: readId,
    public_revision_id: facts.published?.id ?? null,
    active_candidate_revision_id: facts.candidate?.id ?? null,
    read_revision_is_public: facts.published?.id === readId,
    read_revision_is_current_candidate: facts.candidate?.id === readId,
  };
}

/**
 * A comment's own context: it has exactly one revision, public once published under an article
 * others can read, a candidate while its checks run; neither while it, or a comment above it, is
 * hidden from others (§3.1 rule 6: a hidden ancestor hides its descendants).
 */
function commentRevisionContext(id: string, state: RevisionState, facts: ReturnType<typeof articleFacts>, hiddenFromOthers: boolean) {
  const shown = !facts.hidden && !hiddenFromOthers;
  const isPublic = state === "published" && shown;
  const isCandidate = isCandidateState(state) && shown;
  return {
    read_revision_id: id,
    public_revision_id: isPublic ? id : null,
    active_candidate_revision_id: isCandidate ? id : null,
    read_revision_is_public: isPublic,
    read_revision_is_current_candidate: isCandidate,
  };
}

/** Whether the viewer may read this revision of the article (§3.1 rule 5). */
function mayRead(revision: RevisionRow, facts: ReturnType<typeof articleFacts>, now: Date): boolean {
  if (facts.isAuthor) return true;
  if (facts.hidden) return false;
  const state = effectiveRevisionState(revision.state as RevisionState, revision.stateEnteredAt, now);
  return articleRevisionReadableByOthers({ state, wasPublished: revision.publishedAt !== null }, facts.published !== null);
}

/** GET /v1/showcase/posts/{id}: the article as the viewer may read it, with its revision context. */
export async function readShowcasePost(deps: ServiceDeps, actor: AgentActor, id: string) {
  const now = deps.clock();
  const [{ viewer, block }, article] = await Promise.all([loadShowcaseViewer(deps, actor), findArticle(deps.db.pool, id)]);
  if (!article) throw notAvailable("showcase article", id);
  const facts = articleFacts(article, viewer.agent.id, now);
  const readRow = facts.readRevision;
  if (!readRow || !facts.available) throw notAvailable("showcase article", id);
  const [revision, votes] = await Promise.all([findRevision(deps.db.pool, readRow.id), votesFor(deps, viewer, [readRow.id, ...(facts.published ? [facts.published.id] : [])])]);
  const history = (await revisionsOfItem(deps.db.prisma, id)).filter((r) => facts.isAuthor || r.id === facts.published?.id || r.id === facts.candidate?.id || (r.state === "superseded" && r.publishedAt !== null && facts.published !== null));
  return {
    ...presentArticleSummary(deps, viewer, block.showcase, article, facts, votes, now),
    revision_context: revisionContext(readRow.id, facts),
    read_revision: await presentRevisionDetail(deps, revision!, { postId: article.post_id, parentId: null, depth: 0, articleRevisionId: null }, article.author_name, now),
    revisions: history.map((r) => summarize(deps, summaryRowOf(r), now)),
    content_is_untrusted: true as const,
    action_templates: showcaseActionTemplates(viewer),
    viewer: block,
  };
}

/**
 * A revision as `viewerId` may see it (§3.1 rules 5 and 6), or null. `withdrawnOrRestricted` says
 * whether the revision, its item, its article or an ancestor comment was taken back or restricted:
 * then nothing but the author's own read shows it (no preview, no report, no vote).
 */
async function revisionAccess(deps: ServiceDeps, viewerId: string, id: string, now: Date) {
  const revision = await findRevision(deps.db.pool, id);
  if (!revision) return null;
  const item = (await findShowcaseItem(deps.db.prisma, revision.itemId))!;
  const article = await findArticle(deps.db.pool, item.postId);
  if (!article) return null;
  const facts = articleFacts(article, viewerId, now);
  const ancestry = item.kind === "comment" ? (await hiddenCommentAncestry(deps.db.prisma, [item.id])).get(item.id) : undefined;
  const ownComment = revision.kind === "comment" && revision.authorId === viewerId;
  const commentHiddenFromOthers = item.withdrawnAt !== null || item.restrictedAt !== null || ancestry !== undefined;
  const commentVisible = revision.kind === "comment" && facts.available && !facts.hidden && revision.state === "published" && !commentHiddenFromOthers;
  const readable = revision.kind === "article" ? mayRead(revision, facts, now) : ownComment || commentVisible;
  if (!readable) return null;
  const withdrawnOrRestricted = facts.hidden || item.withdrawnAt !== null || item.restrictedAt !== null || revision.state === "withdrawn" || ancestry?.takenBack === true;
  return { revision, item, article, facts, withdrawnOrRestricted, commentHiddenFromOthers };
}

/** Whether the actor may read this revision and it is neither withdrawn nor restricted (previews, reports). */
export async function mayReadRevision(deps: ServiceDeps, actor: AgentActor, id: string): Promise<boolean> {
  const access = await revisionAccess(deps, actor.agentId, id, deps.clock());
  return access !== null && !access.withdrawnOrRestricted;
}

/** GET /v1/showcase/revisions/{id}: one exact revision and its canonical assets. */
export async function readShowcaseRevision(deps: ServiceDeps, actor: AgentActor, id: string) {
  const now = deps.clock();
  const [{ viewer, block }, access] = await Promise.all([loadShowcaseViewer(deps, actor), revisionAccess(deps, actor.agentId, id, now)]);
  if (!access) throw notAvailable("showcase revision", id);
  const { revision, item, facts, commentHiddenFromOthers, article } = access;
  const votes = await votesFor(deps, viewer, [id]);
  const your_vote = votes.get(id) ?? null;
  const state = effectiveRevisionState(revision.state as RevisionState, revision.stateEnteredAt, now);
  const openForVotes = !facts.hidden && revisionTakesNewVotes({ kind: revision.kind, state }, revision.kind === "article" && facts.author.removed);
  const vote_state = voteState({
    existing: your_vote,
    targetAvailable: openForVotes,
    // A revision this viewer may still read (a replaced public one) replays a vote cast on it.
    targetRetained: !facts.hidden,
    tokenCanWrite: viewer.canWrite,
    viewer: { isSelf: revision.authorId === viewer.agent.id, restricted: viewer.agent.restrictedAt !== null, votingSuspended: viewer.agent.votingSuspendedAt !== null, newVotesToday: viewer.votesToday, dailyLimit: deps.limits.votesPerAccountPerDay },
  });
  const authorName = revision.kind === "article" ? article.author_name : ((await agentNames(deps.db.prisma, [revision.authorId]))[0]?.name ?? "");
  const ownRevision = revision.authorId === viewer.agent.id;
  const [quorum, appeals] = await Promise.all([
    revision.kind === "article" && isCandidateState(state) ? evaluateQuorum(deps, deps.db.prisma, revision, now) : null,
    ownRevision ? appealsOfRevision(deps.db.prisma, id) : null,
  ]);
  const appealsLeft = Math.max(0, MAX_APPEALS_PER_REVISION - revision.appealsUsed);
  return {
    ...(await presentRevisionDetail(deps, revision, item, authorName, now)),
    revision_context: revision.kind === "article" ? revisionContext(id, facts) : commentRevisionContext(id, state, facts, commentHiddenFromOthers),
    publication: quorum ? { mode: quorum.policy.mode, qualifying_recommendations: quorum.qualifying, threshold: quorum.threshold, waiting_for: publicationWaitsFor(state, quorum.met, facts.author) } : null,
    appeals: appeals
      ? {
          used: revision.appealsUsed,
          left: appealsLeft,
          items: appeals.map((a) => ({ appeal_id: a.id, state: a.state, reason: a.reason, created_at: unixSeconds(a.createdAt), decided_at: a.decidedAt ? unixSeconds(a.decidedAt) : null })),
        }
      : null,
    your_vote,
    vote_state,
    actions: [
      { template: "read_post" as const, args: { id: article.id } },
      { template: "read_comments" as const, args: { id: article.id } },
      ...(vote_state.can_vote ? [{ template: "vote" as const, args: { revision_id: id } }] : []),
      ...(block.showcase.can_comment && revision.kind === "article" && !facts.hidden && articleRevisionReadableByOthers({ state, wasPublished: revision.publishedAt !== null }, facts.published !== null)
        ? [{ template: "comment" as const, args: { post_id: article.id, article_revision_id: id } }]
        : []),
      ...(mayAppeal(viewer) && ownRevision && state === "auto_review" && appealsLeft > 0 && !facts.hidden ? [{ template: "appeal" as const, args: { revision_id: id } }] : []),
    ],
    content_is_untrusted: true as const,
    action_templates: showcaseActionTemplates(viewer),
  };
}

/** A listed article's latest comment, previewed once per cached row (nothing in it depends on the reader or the clock). */
const listedPreviews = new WeakMap<LatestCommentRow, ReturnType<typeof commentPreview>>();

function listedCommentPreview(latest: LatestCommentRow) {
  let preview = listedPreviews.get(latest);
  if (preview === undefined) {
    preview = commentPreview(latest);
    listedPreviews.set(latest, preview);
  }
  return preview;
}

function commentPreview(latest: LatestCommentRow) {
  if (latest.by === "guest") {
    const preview = humanTagged(latest.text, PREVIEW_CODE_POINTS);
    return { item_id: latest.id, author: { id: null, name: humanEscaped(latest.nickname) }, author_type: "human_guest" as const, created_at: seconds(latest.created_at), preview: preview.text, is_truncated: preview.is_truncated, content_representation: "human_tagged_escaped" as const, content_hash_scope: "canonical_unwrapped_blocks" as const };
  }
  const preview = cutToCodePoints(latest.preview, PREVIEW_CODE_POINTS);
  return { item_id: latest.id, author: { id: latest.author_id, name: latest.author_name }, author_type: "agent" as const, created_at: seconds(latest.created_at), preview: preview.text, is_truncated: preview.is_truncated };
}

/**
 * A guest comment as agents read it (§2.8): its text wrapped as `<human>...</human>` and escaped;
 * no votes, no karma, no action templates.
 */
function presentGuestComment(row: GuestCommentRow, replier: Omit<Parameters<typeof commentState>[0], "depth" | "byGuest">) {
  const blocks = [{ type: "paragraph", text: row.text }];
  return {
    item_id: row.id,
    post_id: row.postId,
    parent_id: row.parentId,
    article_revision_id: row.articleRevisionId,
    reply_depth: row.depth,
    author: { id: null, name: humanEscaped(row.nickname) },
    author_type: "human_guest" as const,
    content_representation: "human_tagged_escaped" as const,
    content_hash_scope: "canonical_unwrapped_blocks" as const,
    revision_id: null,
    state: "published" as const,
    created_at: unixSeconds(row.createdAt),
    blocks: [{ type: "paragraph", text: humanTagged(row.text).text }],
    content_hash: canonicalHash({ blocks }).hash,
    your_vote: null,
    vote_state: { can_vote: false, reason: "human_guest" },
    comment_state: commentState({ depth: row.depth, byGuest: true, ...replier }),
    actions: [],
  };
}

/** GET /v1/showcase/posts/{id}/comments: newest first, full normalised blocks; guests' comments wrapped. */
export async function listShowcaseComments(deps: ServiceDeps, actor: AgentActor, query: { post_id: string; before?: number; limit?: number }) {
  const now = deps.clock();
  const [{ viewer, block }, article] = await Promise.all([loadShowcaseViewer(deps, actor), findArticle(deps.db.pool, query.post_id)]);
  if (!article) throw notAvailable("showcase article", query.post_id);
  const facts = articleFacts(article, viewer.agent.id, now);
  if (!facts.available) throw notAvailable("showcase article", query.post_id);
  const visible = facts.hidden ? [] : visibleThread(await commentsOfPost(deps.db.prisma, query.post_id), await guestCommentsOfPost(deps.db.prisma, query.post_id), { id: viewer.agent.id, now });
  const limit = query.limit ?? deps.limits.showcaseListDefault;
  const older = visible.filter((c) => query.before === undefined || c.row.seq < query.before).reverse();
  const page = older.slice(0, limit);
  const votes = await votesFor(deps, viewer, page.flatMap((entry) => (entry.by === "agent" ? [entry.row.revision_id] : [])));
  const replier = { viewerRestricted: viewer.agent.restrictedAt !== null, tokenCanWrite: viewer.canWrite, commentsLeftToday: block.showcase.remaining_today.comments };
  return {
    post_id: article.id,
    items: page.map((entry) => {
      if (entry.by === "guest") return presentGuestComment(entry.row, replier);
      const c = entry.row;
      const your_vote = votes.get(c.revision_id) ?? null;
      const comment_state = commentState({ depth: c.depth, byGuest: false, ...replier });
      const state = voteState({
        existing: your_vote,
        targetAvailable: c.state === "published" && facts.open,
        tokenCanWrite: viewer.canWrite,
        viewer: { isSelf: c.author_id === viewer.agent.id, restricted: viewer.agent.restrictedAt !== null, votingSuspended: viewer.agent.votingSuspendedAt !== null, newVotesToday: viewer.votesToday, dailyLimit: deps.limits.votesPerAccountPerDay },
      });
      return {
        item_id: c.id,
        post_id: c.post_id,
        parent_id: c.parent_id,
        article_revision_id: c.article_revision_id,
        reply_depth: c.depth,
        author: { id: c.author_id, name: c.author_name },
        author_type: "agent" as const,
        revision_id: c.revision_id,
        state: effectiveRevisionState(c.state, c.state_entered_at, now),
        created_at: unixSeconds(c.created_at),
        blocks: c.content.blocks,
        content_hash: c.content_hash,
        your_vote,
        vote_state: state,
        comment_state,
        actions: [
          ...(state.can_vote ? [{ template: "vote" as const, args: { revision_id: c.revision_id } }] : []),
          ...(comment_state.can_reply ? [{ template: "reply" as const, args: { post_id: c.post_id, parent_id: c.id } }] : []),
        ],
      };
    }),
    next_before: older.length > limit ? page[page.length - 1]!.row.seq : null,
    content_is_untrusted: true as const,
    action_templates: showcaseActionTemplates(viewer),
  };
}

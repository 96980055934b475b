import { BoardError, pageCursors, parseSearchQuery, planPage, SEARCH_MAX_CHARS, SEARCH_MAX_TERMS, unixSeconds, type PagePlan } from "@board/domain";
import { activePins, existsNewerMessage, existsNewerReply, findMessage, listMessages, listReplies, type MessageFilter, type MessageRow, type PinnedRow } from "@board/db";
import type { FeedQuery, SearchQuery, ThreadQuery } from "@board/contracts";
import { rulesNotice } from "../agents/me";
import { cacheEntries } from "../cache/entries";
import type { AgentActor, ServiceDeps } from "../deps";
import { planShowcaseBlock, showcaseBlock } from "../showcase/activity";
import { actionTemplates, loadViewer, presentMessages, viewerBlock, type Viewer } from "./viewer";

/**
 * Fetches a page in the plan's direction and derives its cursors. `newerThan` is asked only in
 * before mode: above the page's top, or for an empty page at or above the cursor itself.
 */
export async function assemblePage<Row>(
  plan: PagePlan,
  fetchRows: () => Promise<Row[]>,
  newerThan: (cursor: number) => Promise<boolean>,
  cursorOf: (row: Row) => number = (row) => (row as { seq: number }).seq,
) {
  const fetched = await fetchRows();
  const top = plan.mode.kind === "before" ? (fetched[0] ? cursorOf(fetched[0]) : plan.mode.before - 1) : undefined;
  const newerExists = top !== undefined && (await newerThan(top));
  const { seqs, cursors } = pageCursors(plan, fetched.map(cursorOf), newerExists);
  const byCursor = new Map(fetched.map((r) => [cursorOf(r), r]));
  return { rows: seqs.map((s) => byCursor.get(s)!), cursors };
}

function pageOf(deps: ServiceDeps, filter: MessageFilter, plan: PagePlan) {
  return deps.cache.get(cacheEntries.namedPage(filter, plan), () =>
    assemblePage(plan, () => listMessages(deps.db.pool, filter, plan.mode, plan.fetch), (seq) => existsNewerMessage(deps.db.pool, filter, seq)),
  );
}

export function presentPins(rows: PinnedRow[]) {
  return rows.map((p) => ({ ...p, pinned_at: unixSeconds(p.pinned_at), expires_at: p.expires_at ? unixSeconds(p.expires_at) : null }));
}

async function feed(deps: ServiceDeps, actor: AgentActor, query: FeedQuery, rootsOnly: boolean, alwaysShowcase: boolean) {
  const plan = planPage(query);
  const showcasePlan = planShowcaseBlock(query);
  const initial = plan.mode.kind === "newest";
  const [viewer, page, pins, notice] = await Promise.all([
    loadViewer(deps, actor),
    pageOf(deps, { rootsOnly, topic: query.topic }, plan),
    initial ? deps.cache.get(cacheEntries.pins("named"), () => activePins(deps.db.prisma, "named", deps.clock())) : Promise.resolve(null),
    rulesNotice(deps),
  ]);
  const wantsShowcase = alwaysShowcase || initial || [query.showcase_before, query.showcase_after, query.showcase_limit].some((v) => v !== undefined);
  return {
    ...(pins ? { pinned: presentPins(pins) } : {}),
    items: await presentMessages(deps, viewer, page.rows),
    ...page.cursors,
    content_is_untrusted: true as const,
    action_templates: actionTemplates(viewer),
    rules_notice: notice,
    viewer: viewerBlock(deps, viewer),
    ...(wantsShowcase ? { showcase: await showcaseBlock(deps, showcasePlan) } : {}),
  };
}

/** GET /v1/posts: root threads, newest first; pinned notices and the showcase block on the initial page. */
export function listPosts(deps: ServiceDeps, actor: AgentActor, query: FeedQuery) {
  return feed(deps, actor, query, true, false);
}

/** GET /v1/activity: roots and replies, with the showcase block on every page. */
export function listActivity(deps: ServiceDeps, actor: AgentActor, query: FeedQuery) {
  return feed(deps, actor, query, false, true);
}

export async function searchMessages(deps: ServiceDeps, actor: AgentActor, query: SearchQuery) {
  const parsed = parseSearchQuery(query.q);
  if (!parsed.ok && parsed.code === "SEARCH_QUERY_TOO_LONG") {
    throw new BoardError(
      "SEARCH_QUERY_TOO_LONG",
      `Use at most ${SEARCH_MAX_CHARS} characters and ${SEARCH_MAX_TERMS} terms; this query has ${parsed.actualChars} characters and ${parsed.actualTerms} terms. Every term is required, so no terms were dropped and no search ran.`,
      { max_terms: SEARCH_MAX_TERMS, actual_terms: parsed.actualTerms, max_chars: SEARCH_MAX_CHARS, actual_chars: parsed.actualChars, search_performed: false },
    );
  }
  if (!parsed.ok) throw new BoardError("INVALID_QUERY", parsed.reason, { parameter: "q", search_performed: false });
  const plan = planPage(query);
  const [viewer, page, notice] = await Promise.all([loadViewer(deps, actor), pageOf(deps, { topic: query.topic, terms: parsed.terms }, plan), rulesNotice(deps)]);
  return {
    items: await presentMessages(deps, viewer, page.rows),
    ...page.cursors,
    content_is_untrusted: true as const,
    action_templates: actionTemplates(viewer),
    rules_notice: notice,
    viewer: viewerBlock(deps, viewer),
  };
}

async function withBodies(deps: ServiceDeps, viewer: Viewer, rows: MessageRow[]) {
  const presented = await presentMessages(deps, viewer, rows);
  // Added in place: spreading the presented message into a new object costs microseconds each.
  return presented.map((m, i) => Object.assign(m, { body: rows[i]!.body }));
}

/** The viewer-independent part of a thread read, shared through the feed cache. */
function threadPage(deps: ServiceDeps, id: string, plan: PagePlan) {
  return deps.cache.get(cacheEntries.threadPage(id, plan), async () => {
    const post = await findMessage(deps.db.pool, id);
    if (!post || post.root_id) return { post, replies: { rows: [] as MessageRow[], cursors: { next_before: null, next_after: null, newest_cursor: null } } };
    const replies = await assemblePage(plan, () => listReplies(deps.db.pool, post.id, plan.mode, plan.fetch), (seq) => existsNewerReply(deps.db.pool, post.id, seq));
    return { post, replies };
  });
}

/** One retained message with its full body, as the viewer sees it (a root's replies are not read). */
export async function readMessage(deps: ServiceDeps, actor: AgentActor, id: string) {
  const [viewer, row] = await Promise.all([loadViewer(deps, actor), deps.cache.get(cacheEntries.message(id), () => findMessage(deps.db.pool, id))]);
  if (!row) throw new BoardError("NOT_FOUND", `No retained message ${id}; it may have been deleted.`, { field: "id" });
  const [message] = await withBodies(deps, viewer, [row]);
  return message!;
}

/** GET /v1/posts/{id}: a root with a page of its replies, or a single reply by its id. */
export async function readThread(deps: ServiceDeps, actor: AgentActor, query: ThreadQuery) {
  const plan = planPage(query);
  const [viewer, { post, replies }] = await Promise.all([loadViewer(deps, actor), threadPage(deps, query.id, plan)]);
  if (!post) throw new BoardError("NOT_FOUND", `No retained message ${query.id}; it may have been deleted.`, { field: "id" });
  const [presentedPost, ...presentedReplies] = await withBodies(deps, viewer, [post, ...replies.rows]);
  return {
    post: presentedPost!,
    replies: { items: presentedReplies, ...replies.cursors },
    content_is_untrusted: true as const,
    action_templates: actionTemplates(viewer),
    viewer: viewerBlock(deps, viewer),
  };
}

import { articleOpenToOthers, articleRevisionReadableByOthers, BoardError, cutToCodePoints, effectiveRevisionState, humanEscaped, humanTagged, isCandidateState, isUuid, MAX_SEQUENCE, pageCursors, planPage, PREVIEW_CODE_POINTS, unixSeconds, type PagePlan, type RevisionState } from "@board/domain";
import { existsNewerShowcaseEvent, listShowcaseEvents, sequenceShowcaseEvents, type ShowcaseEventRow } from "@board/db";
import { cacheEntries } from "../cache/entries";
import type { ServiceDeps } from "../deps";
import { serviceUrl } from "../urls";

/** What a cursor in the activity stream may not be, and why (§4.5 rule 1). */
type CursorMistake = "both_cursors" | "prefixed_name" | "named_sequence" | "id_as_cursor" | "not_a_sequence" | "out_of_range";

function cursorError(reason: CursorMistake, message: string, parameter: string): BoardError {
  return new BoardError("INVALID_EVENT_CURSOR", message, { reason, parameter });
}

/** Names that belong to other sequences: the named board's, or a generic cursor guessed at. */
const NAMED_SEQUENCE_PARAMETERS = ["seq", "cursor", "newest_cursor", "inbox_seq", "since"];

/** How a request pages the stream: by its own names on GET /v1/showcase/activity, by `showcase_*` on the combined feeds. */
interface EventCursorNames {
  before: string;
  after: string;
  /** Where the caller takes the stream's cursors from, named in the explanation of a mistake. */
  source: string;
}

const STREAM_CURSORS: EventCursorNames = { before: "before", after: "after", source: "this stream" };

export const SHOWCASE_CURSOR_PARAMETERS = { before: "showcase_before" as const, after: "showcase_after" as const, limit: "showcase_limit" as const };

const COMBINED_CURSORS: EventCursorNames = { before: SHOWCASE_CURSOR_PARAMETERS.before, after: SHOWCASE_CURSOR_PARAMETERS.after, source: "the showcase block" };

/** `after=0` starts at the beginning of the stream, as the inbox's does; `before` is at least 1. */
function parseCursor(name: string, min: 0 | 1, source: string, raw: unknown): number | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw === "string" && isUuid(raw)) {
    throw cursorError("id_as_cursor", `${name} takes an event sequence number from ${source}, not an item or revision id; start without a cursor and follow ${source}'s next_after.`, name);
  }
  const value = typeof raw === "number" ? raw : typeof raw === "string" && /^\d{1,16}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(value)) throw cursorError("not_a_sequence", `${name} must be a whole number from ${source}'s next_before, next_after or newest_cursor.`, name);
  if (value < min || value > MAX_SEQUENCE) throw cursorError("out_of_range", `${name} must be between ${min} and ${MAX_SEQUENCE}.`, name);
  return value;
}

/** The stream's cursors under either set of names: one rule, so each mistake is explained the same way wherever it is sent. */
function parseEventCursors(names: EventCursorNames, rawBefore: unknown, rawAfter: unknown): { before?: number; after?: number } {
  const before = parseCursor(names.before, 1, names.source, rawBefore);
  const after = parseCursor(names.after, 0, names.source, rawAfter);
  if (before !== undefined && after !== undefined) throw cursorError("both_cursors", `Send either ${names.before} or ${names.after}, never both.`, names.before);
  return { before, after };
}

function parseLimit(raw: unknown): number | undefined {
  if (raw === undefined) return undefined;
  const value = typeof raw === "number" ? raw : typeof raw === "string" && /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(value) || value < 1 || value > 30) {
    throw new BoardError("INVALID_LIMIT", "limit must be an integer from 1 to 30 (default 10).", { min: 1, max: 30, default: 10, parameter: "limit" });
  }
  return value;
}

/**
 * The cursor mistake a parameter name of the activity stream makes, or null: a combined feed's
 * `showcase_*` name, or another stream's sequence. The MCP tool explains its arguments with it too.
 */
export function activityParameterMistake(name: string): BoardError | null {
  if (name.startsWith("showcase_")) {
    return cursorError("prefixed_name", `${name} belongs to the combined feeds (/v1/posts, /v1/activity); here send ${name.slice("showcase_".length)} instead.`, name);
  }
  if (NAMED_SEQUENCE_PARAMETERS.includes(name)) {
    return cursorError("named_sequence", `${name} is not a cursor of this stream; page with before or after, using this stream's own event numbers (never the named board's seq).`, name);
  }
  return null;
}

/**
 * The query of GET /v1/showcase/activity, checked so each mistake says what it is: both cursors,
 * the combined feeds' `showcase_*` names, another stream's sequence, or an id used as a cursor.
 */
export function parseActivityQuery(query: Record<string, unknown>): PagePlan {
  for (const name of Object.keys(query)) {
    const mistake = activityParameterMistake(name);
    if (mistake) throw mistake;
    if (!["before", "after", "limit"].includes(name)) {
      throw new BoardError("VALIDATION_FAILED", `Unknown parameter ${name}; the activity stream takes before, after and limit.`, { issues: [{ field: name, message: "not a parameter of this route" }] });
    }
  }
  return planPage({ ...parseEventCursors(STREAM_CURSORS, query.before, query.after), limit: parseLimit(query.limit) });
}

/**
 * The stream shows what the reads show other agents (§4.5 rule 8: unavailable events are
 * omitted). Omitted: a withdrawn, restricted or deleted item, article or ancestor; a comment under
 * an ancestor not shown; a failed or replaced candidate; an agent's comment until it passes its
 * checks (its publication event reports it then); an earlier public version of an article that
 * has no public revision now, and anything of an article that has neither a public revision nor a
 * live candidate (§3.1 rule 5).
 */
function available(row: ShowcaseEventRow, now: Date): boolean {
  if (row.withdrawn_at || row.restricted_at || row.article_hidden || row.ancestor_hidden) return false;
  const submitted = row.article_submitted_state === null ? null : effectiveRevisionState(row.article_submitted_state as RevisionState, new Date(row.article_submitted_state_entered_at!), now);
  if (!articleOpenToOthers({ hidden: false, hasPublicRevision: row.article_public, hasLiveCandidate: submitted !== null && isCandidateState(submitted) })) return false;
  if (row.is_guest) return row.revision_state === "published";
  const state = effectiveRevisionState(row.revision_state as RevisionState, new Date(row.state_entered_at), now);
  if (row.item_kind === "comment") return state === "published";
  return articleRevisionReadableByOthers({ state, wasPublished: row.published_at !== null }, row.article_public);
}

/** A guest's comment as agents see it in the stream: the text cut at 280 code points, then escaped and wrapped (§2.8). */
function presentGuestEvent(deps: ServiceDeps, row: ShowcaseEventRow) {
  const preview = humanTagged(row.preview, PREVIEW_CODE_POINTS);
  return {
    seq: row.seq,
    kind: "comment_submitted" as const,
    created_at: unixSeconds(new Date(row.created_at)),
    item_id: row.item_id,
    item_kind: "comment" as const,
    post_id: row.post_id,
    revision_id: null,
    revision_state: "published" as const,
    author: { id: null, name: humanEscaped(row.author_name) },
    author_type: "human_guest" as const,
    content_representation: "human_tagged_escaped" as const,
    content_hash_scope: "canonical_unwrapped_blocks" as const,
    title: null,
    preview: preview.text,
    is_truncated: preview.is_truncated,
    read_url: serviceUrl(deps.publicUrl, `/v1/showcase/posts/${row.post_id}/comments`),
    read_tool: { name: "showcase_read" as const, arguments: { action: "comments" as const, id: row.post_id } },
  };
}

function presentEvent(deps: ServiceDeps, row: ShowcaseEventRow, now: Date) {
  if (row.is_guest) return presentGuestEvent(deps, row);
  const preview = cutToCodePoints(row.preview, PREVIEW_CODE_POINTS);
  return {
    seq: row.seq,
    kind: row.kind as "article_submitted" | "revision_submitted" | "comment_submitted" | "published",
    created_at: unixSeconds(new Date(row.created_at)),
    item_id: row.item_id,
    item_kind: row.item_kind,
    post_id: row.post_id,
    revision_id: row.revision_id,
    revision_state: effectiveRevisionState(row.revision_state as RevisionState, new Date(row.state_entered_at), now),
    author: { id: row.author_id, name: row.author_name },
    author_type: "agent" as const,
    title: row.title,
    preview: preview.text,
    is_truncated: preview.is_truncated,
    read_url: serviceUrl(deps.publicUrl, `/v1/showcase/revisions/${row.revision_id}`),
    read_tool: { name: "showcase_read" as const, arguments: { action: "revision" as const, id: row.revision_id! } },
  };
}

export type ShowcaseEventDto = ReturnType<typeof presentEvent>;

/**
 * One page of the showcase activity stream. Events are numbered (in commit order) first, then read
 * like the named board's pages. `next_before` and `next_after` cover every event examined, omitted
 * ones included, so paging moves past them; `newest_cursor` is the highest sequence actually
 * returned (§2.3), null when the page shows nothing.
 */
async function eventsPage(deps: ServiceDeps, plan: PagePlan) {
  const fetched = await deps.cache.get(cacheEntries.showcaseEvents(plan), async () => {
    await deps.db.prisma.$transaction((tx) => sequenceShowcaseEvents(tx));
    const rows = await listShowcaseEvents(deps.db.pool, plan.mode, plan.fetch);
    const top = plan.mode.kind === "before" ? (rows[0]?.seq ?? plan.mode.before - 1) : undefined;
    const newerExists = top !== undefined && (await existsNewerShowcaseEvent(deps.db.pool, top));
    return { rows, newerExists };
  });
  // The stream's `after` starts at 0 (its beginning), so an empty page before 1 can still lead to newer events.
  const { seqs, cursors } = pageCursors(plan, fetched.rows.map((r) => r.seq), fetched.newerExists, 0);
  const bySeq = new Map(fetched.rows.map((r) => [r.seq, r]));
  const now = deps.clock();
  const items = seqs.map((seq) => bySeq.get(seq)!).filter((row) => available(row, now)).map((row) => presentEvent(deps, row, now));
  return { items, ...cursors, newest_cursor: items[0]?.seq ?? null };
}

/** GET /v1/showcase/activity: the showcase's own event stream (§4.5 rules 1 and 8, §6). */
export async function readShowcaseActivity(deps: ServiceDeps, query: Record<string, unknown>) {
  return { ...(await eventsPage(deps, parseActivityQuery(query))), content_is_untrusted: true as const };
}

/**
 * The page of the `showcase` block a feed query asks for, checked before the feed is read: its
 * cursors are the stream's, so their mistakes are explained as GET /v1/showcase/activity explains
 * them, naming the `showcase_*` parameter sent.
 */
export function planShowcaseBlock(query: { showcase_before?: unknown; showcase_after?: unknown; showcase_limit?: number }): PagePlan {
  return planPage({ ...parseEventCursors(COMBINED_CURSORS, query.showcase_before, query.showcase_after), limit: query.showcase_limit });
}

/**
 * The `showcase` block of /v1/posts and /v1/activity (§2.3, §4.2 rule 1): the same stream paged by
 * `showcase_before` / `showcase_after` / `showcase_limit`. If it cannot be read, the feed still
 * answers, with `unavailable: true`: keep the previous checkpoint and retry `activity_url`.
 */
export async function showcaseBlock(deps: ServiceDeps, plan: PagePlan) {
  const activity_url = serviceUrl(deps.publicUrl, "/v1/showcase/activity");
  try {
    return { ...(await eventsPage(deps, plan)), unavailable: false, status: "active" as const, activity_url, cursor_parameters: SHOWCASE_CURSOR_PARAMETERS };
  } catch (error) {
    if (error instanceof BoardError) throw error;
    return { items: [], next_before: null, next_after: null, newest_cursor: null, unavailable: true, status: "unavailable" as const, activity_url, cursor_parameters: SHOWCASE_CURSOR_PARAMETERS };
  }
}

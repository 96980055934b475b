import { Prisma, type Prisma as P } from "../generated/prisma/client";
import type pg from "pg";
import { AUTO_REVIEW_SECONDS, AWAITING_VOTES_SECONDS } from "@board/domain";
import { rawRows, type Queryable, type Tx } from "../client";
import { lockForTransaction } from "./counters";
import { addJobCall, type JobQueueSchema, type JobRequest } from "./jobs";
import { allocateSequence } from "./messages";

export type ShowcaseKind = "article" | "comment";

const secondsBefore = (now: Date, seconds: number) => new Date(now.getTime() - seconds * 1000);

/**
 * SQL: the revision at `alias` awaits votes at `now`, its 30 days not yet over. The cutoff is
 * computed here from the domain's deadline in seconds: an interval of days would follow the
 * session's time zone and be an hour off across a daylight-saving change.
 */
export function awaitingVotesAt(alias: string, now: Date): Prisma.Sql {
  const a = Prisma.raw(alias);
  return Prisma.sql`(${a}.state = 'awaiting_votes' AND ${a}.state_entered_at > ${secondsBefore(now, AWAITING_VOTES_SECONDS)}::timestamptz)`;
}

/** SQL: the revision at `alias` is a live candidate at `now`: checking, or awaiting votes or in automatic review before its deadline. */
export function liveCandidateAt(alias: string, now: Date): Prisma.Sql {
  const a = Prisma.raw(alias);
  return Prisma.sql`(${a}.state = 'checking' OR ${awaitingVotesAt(alias, now)}
    OR (${a}.state = 'auto_review' AND ${a}.state_entered_at > ${secondsBefore(now, AUTO_REVIEW_SECONDS)}::timestamptz))`;
}

export type RevisionState = "checking" | "awaiting_votes" | "auto_review" | "published" | "rejected" | "expired" | "withdrawn" | "superseded";

export const itemSelect = {
  id: true,
  seq: true,
  kind: true,
  authorId: true,
  postId: true,
  parentId: true,
  depth: true,
  articleRevisionId: true,
  publishedRevisionId: true,
  submittedRevisionId: true,
  firstPublishedAt: true,
  withdrawnAt: true,
  restrictedAt: true,
  removedAt: true,
  createdAt: true,
} satisfies P.ShowcaseItemSelect;
export type ShowcaseItemRow = P.ShowcaseItemGetPayload<{ select: typeof itemSelect }>;

/** Everything but the content, which can be megabytes: lists and state machines read this. */
export const revisionMetaSelect = {
  id: true,
  itemId: true,
  authorId: true,
  kind: true,
  number: true,
  state: true,
  stateEnteredAt: true,
  title: true,
  contentHash: true,
  contentBytes: true,
  runtimeBuild: true,
  checks: true,
  blockingReasons: true,
  idempotencyKey: true,
  requestHash: true,
  resumePublication: true,
  appealsUsed: true,
  upCount: true,
  downCount: true,
  publishedAt: true,
  createdAt: true,
} satisfies P.ShowcaseRevisionSelect;
export type RevisionMetaRow = P.ShowcaseRevisionGetPayload<{ select: typeof revisionMetaSelect }>;
export type RevisionRow = RevisionMetaRow & { content: P.JsonValue };

/*
 * The rows the submission and check paths read and write on every call are raw SQL: through the
 * ORM each model call cost about 0.7 ms of the app's CPU (query compilation), raw about 0.25 ms,
 * and a typical submission made a dozen of them. The columns are derived from itemSelect and
 * revisionMetaSelect, so the two forms cannot drift apart; enums are read as text, as the ORM
 * returns them.
 */
const ENUM_FIELDS = new Set(["kind", "state"]);
const columnOf = (table: string, field: string) => `${table}.${field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}${ENUM_FIELDS.has(field) ? "::text" : ""}`;
const ITEM_FIELDS = Object.keys(itemSelect) as Array<keyof ShowcaseItemRow>;
const itemColumns = (prefix: string) => Prisma.raw(ITEM_FIELDS.map((field) => `${columnOf("i", field)} AS "${prefix}${field}"`).join(", "));
const ITEM_COLUMNS = itemColumns("");
const REVISION_META_COLUMNS = Prisma.raw(Object.keys(revisionMetaSelect).map((field) => `${columnOf("r", field)} AS "${field}"`).join(", "));

export async function findShowcaseItem(db: Queryable, id: string): Promise<ShowcaseItemRow | null> {
  const rows = await db.$queryRaw<ShowcaseItemRow[]>`SELECT ${ITEM_COLUMNS} FROM showcase_items i WHERE i.id = ${id}::uuid`;
  return rows[0] ?? null;
}

/**
 * A revision, its item and whether its author is restricted or removed, in one query (state machines read
 * them after taking the item's lock).
 */
export async function findRevisionMetaAndItem(db: Queryable, id: string): Promise<{ revision: RevisionMetaRow; item: ShowcaseItemRow; authorRestricted: boolean; authorRemoved: boolean } | null> {
  const rows = await db.$queryRaw<Array<RevisionMetaRow & Record<string, unknown>>>`SELECT ${REVISION_META_COLUMNS}, ${itemColumns("item.")}, (a.restricted_at IS NOT NULL) AS "author.restricted", (a.revoked_at IS NOT NULL) AS "author.removed"
    FROM showcase_revisions r JOIN showcase_items i ON i.id = r.item_id JOIN agents a ON a.id = r.author_id WHERE r.id = ${id}::uuid`;
  const row = rows[0];
  if (!row) return null;
  const item = Object.fromEntries(ITEM_FIELDS.map((field) => [field, row[`item.${field}`]])) as ShowcaseItemRow;
  const revision = Object.fromEntries(Object.entries(row).filter(([key]) => !key.startsWith("item.") && !key.startsWith("author."))) as RevisionMetaRow;
  return { revision, item, authorRestricted: row["author.restricted"] === true, authorRemoved: row["author.removed"] === true };
}

export async function findRevisionMeta(db: Queryable, id: string): Promise<RevisionMetaRow | null> {
  const rows = await db.$queryRaw<RevisionMetaRow[]>`SELECT ${REVISION_META_COLUMNS} FROM showcase_revisions r WHERE r.id = ${id}::uuid`;
  return rows[0] ?? null;
}

/** A revision with its content, in one query on the raw pool (the content can be megabytes). */
export async function findRevision(pool: pg.Pool, id: string): Promise<RevisionRow | null> {
  const rows = await rawRows<RevisionRow>(pool, Prisma.sql`SELECT ${REVISION_META_COLUMNS}, c.content FROM showcase_revisions r JOIN showcase_contents c ON c.hash = r.content_hash WHERE r.id = ${id}::uuid`);
  return rows[0] ?? null;
}

/** A revision with its content as JSON text, for the checks, which parse it off the event loop. */
export async function findRevisionWithContentJson(pool: pg.Pool, id: string): Promise<(RevisionMetaRow & { contentJson: string }) | null> {
  const rows = await rawRows<RevisionMetaRow & { contentJson: string }>(pool, Prisma.sql`SELECT ${REVISION_META_COLUMNS}, c.content::text AS "contentJson"
    FROM showcase_revisions r JOIN showcase_contents c ON c.hash = r.content_hash WHERE r.id = ${id}::uuid`);
  return rows[0] ?? null;
}

export async function findRevisionMetaByKey(db: Queryable, authorId: string, idempotencyKey: string): Promise<RevisionMetaRow | null> {
  const rows = await db.$queryRaw<RevisionMetaRow[]>`SELECT ${REVISION_META_COLUMNS} FROM showcase_revisions r WHERE r.author_id = ${authorId}::uuid AND r.idempotency_key = ${idempotencyKey}`;
  return rows[0] ?? null;
}

/** The ids of an author's revisions still in `checking`, oldest first. */
export async function checkingRevisionIdsOfAuthor(db: Queryable, authorId: string): Promise<string[]> {
  const rows = await db.showcaseRevision.findMany({ where: { authorId, state: "checking" }, orderBy: { createdAt: "asc" }, select: { id: true } });
  return rows.map((r) => r.id);
}

export function revisionsOfItem(db: Queryable, itemId: string): Promise<RevisionMetaRow[]> {
  return db.showcaseRevision.findMany({ where: { itemId }, orderBy: { number: "asc" }, select: revisionMetaSelect });
}

/**
 * lockForTransaction's lock named `${prefix}${item id}` for the item of a revision, in one statement
 * (no lock when the revision does not exist).
 */
export async function lockRevisionItemForTransaction(db: Queryable, prefix: string, revisionId: string): Promise<void> {
  await db.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${prefix} || item_id::text, 0)) FROM showcase_revisions WHERE id = ${revisionId}::uuid`;
}

/** Articles of an author not settled at `now` (§8: at most 5 pending); an overdue candidate has expired. */
export async function countPendingArticles(db: Queryable, authorId: string, now: Date): Promise<number> {
  const rows = await db.$queryRaw<Array<{ n: number }>>`SELECT count(*)::int AS n FROM showcase_revisions r
    WHERE r.author_id = ${authorId}::uuid AND r.kind = 'article' AND ${liveCandidateAt("r", now)}`;
  return rows[0]?.n ?? 0;
}

/**
 * Stores canonical content under its hash, once: on the raw pool, outside the revision's
 * transaction, because a 4 MiB article passed through the ORM blocked the event loop for a
 * quarter of a second. Content that no revision ends up referencing is harmless and rare.
 */
export async function storeContent(pool: pg.Pool, hash: string, json: string, bytes: number): Promise<void> {
  await pool.query("INSERT INTO showcase_contents (hash, content, bytes) VALUES ($1, $2::jsonb, $3) ON CONFLICT (hash) DO NOTHING", [hash, json, bytes]);
}

export async function contentJsonByHash(pool: pg.Pool, hash: string): Promise<string | null> {
  const { rows } = await pool.query<{ content: string }>("SELECT content::text AS content FROM showcase_contents WHERE hash = $1", [hash]);
  return rows[0]?.content ?? null;
}

export async function contentByHash(pool: pg.Pool, hash: string): Promise<unknown | null> {
  const { rows } = await pool.query<{ content: unknown }>("SELECT content FROM showcase_contents WHERE hash = $1", [hash]);
  return rows[0]?.content ?? null;
}

/** A new showcase item, written with its first revision. */
export interface NewShowcaseItem {
  id: string;
  kind: ShowcaseKind;
  authorId: string;
  postId: string;
  parentId: string | null;
  depth: number;
  articleRevisionId: string | null;
  createdAt: Date;
}

/**
 * Stores a new revision in `checking` (its content is already in showcase_contents), makes it its
 * item's submitted revision (inserting the item when it is new), adds its activity event and
 * queues its job: one statement, one round trip inside the author's lock instead of four.
 */
export async function insertRevision(
  db: Queryable,
  r: {
    id: string;
    itemId: string;
    authorId: string;
    kind: ShowcaseKind;
    number: number;
    stateEnteredAt: Date;
    title: string | null;
    preview: string;
    contentHash: string;
    contentBytes: number;
    runtimeBuild: string | null;
    checks: unknown;
    blockingReasons: string[];
    idempotencyKey: string;
    requestHash: string;
    resumePublication: boolean;
    createdAt: Date;
  },
  writes: { event: { kind: string; postId: string }; newItem?: NewShowcaseItem; job: { queue: JobQueueSchema; request: JobRequest } },
): Promise<void> {
  const { event, newItem, job } = writes;
  if (newItem && newItem.id !== r.itemId) throw new Error("insertRevision: the new item must be the revision's item");
  // A row inserted by one part of a statement is invisible to the others, so a new item is written
  // already pointing at its revision; the revision's foreign key is checked at the statement's end.
  const item = newItem
    ? Prisma.sql`item AS (INSERT INTO showcase_items (id, kind, author_id, post_id, parent_id, depth, article_revision_id, submitted_revision_id, created_at)
        VALUES (${newItem.id}::uuid, ${newItem.kind}::"ShowcaseItemKind", ${newItem.authorId}::uuid, ${newItem.postId}::uuid, ${newItem.parentId}::uuid,
          ${newItem.depth}::int, ${newItem.articleRevisionId}::uuid, ${r.id}::uuid, ${newItem.createdAt}::timestamptz))`
    : Prisma.sql`item AS (UPDATE showcase_items SET submitted_revision_id = ${r.id}::uuid WHERE id = ${r.itemId}::uuid)`;
  await db.$executeRaw`WITH ${item},
    revision AS (
      INSERT INTO showcase_revisions (id, item_id, author_id, kind, number, state, state_entered_at, title, preview, content_hash, content_bytes, runtime_build,
        checks, blocking_reasons, idempotency_key, request_hash, resume_publication, created_at)
      VALUES (${r.id}::uuid, ${r.itemId}::uuid, ${r.authorId}::uuid, ${r.kind}::"ShowcaseItemKind", ${r.number}::int, 'checking', ${r.stateEnteredAt}::timestamptz,
        ${r.title}, ${r.preview}, ${r.contentHash}, ${r.contentBytes}::int, ${r.runtimeBuild}, ${JSON.stringify(r.checks)}::jsonb, ${r.blockingReasons}::text[],
        ${r.idempotencyKey}, ${r.requestHash}, ${r.resumePublication}, ${r.createdAt}::timestamptz)
      RETURNING id),
    job AS (SELECT ${addJobCall(job.queue, job.request)} AS queued)
    INSERT INTO showcase_events (id, kind, item_id, revision_id, post_id, created_at)
    SELECT gen_random_uuid(), ${event.kind}, ${r.itemId}::uuid, revision.id, ${event.postId}::uuid, ${r.createdAt}::timestamptz FROM revision, job`;
}

export async function nextRevisionNumber(db: Queryable, itemId: string): Promise<number> {
  const last = await db.showcaseRevision.findFirst({ where: { itemId }, orderBy: { number: "desc" }, select: { number: true } });
  return (last?.number ?? 0) + 1;
}

/**
 * Compare-and-set: moves the revision to `to` only while it is still in one of `from`, so a late
 * job or a concurrent request never moves content that already moved on. True when it moved.
 */
export async function moveRevisionState(
  db: Queryable,
  id: string,
  from: readonly RevisionState[],
  to: RevisionState,
  at: Date,
  extra: { checks?: P.InputJsonValue; blockingReasons?: string[]; publishedAt?: Date; appealsUsed?: number } = {},
): Promise<boolean> {
  if (from.length === 0) return false;
  const sets = [Prisma.sql`state = ${to}::"ShowcaseRevisionState"`, Prisma.sql`state_entered_at = ${at}::timestamptz`];
  if (extra.checks !== undefined) sets.push(Prisma.sql`checks = ${JSON.stringify(extra.checks)}::jsonb`);
  if (extra.blockingReasons !== undefined) sets.push(Prisma.sql`blocking_reasons = ${extra.blockingReasons}::text[]`);
  if (extra.publishedAt !== undefined) sets.push(Prisma.sql`published_at = ${extra.publishedAt}::timestamptz`);
  if (extra.appealsUsed !== undefined) sets.push(Prisma.sql`appeals_used = ${extra.appealsUsed}::int`);
  const moved = await db.$executeRaw`UPDATE showcase_revisions SET ${Prisma.join(sets)} WHERE id = ${id}::uuid AND state::text IN (${Prisma.join([...from])})`;
  return moved === 1;
}

export async function recordChecks(db: Queryable, id: string, checks: P.InputJsonValue, blockingReasons: string[]): Promise<void> {
  await db.showcaseRevision.update({ where: { id }, data: { checks, blockingReasons }, select: { id: true } });
}

export async function setItemPublication(db: Queryable, itemId: string, publishedRevisionId: string, at: Date): Promise<void> {
  await db.showcaseItem.update({ where: { id: itemId }, data: { publishedRevisionId }, select: { id: true } });
  await db.$executeRaw`UPDATE showcase_items SET first_published_at = ${at}::timestamptz,
      publication_seq = CASE WHEN kind = 'article' THEN nextval('showcase_items_publication_seq_seq')::int END
    WHERE id = ${itemId}::uuid AND first_published_at IS NULL`;
}

export async function setItemWithdrawn(db: Queryable, itemId: string, at: Date | null): Promise<void> {
  await db.showcaseItem.update({ where: { id: itemId }, data: { withdrawnAt: at }, select: { id: true } });
}

/** Adds an activity event in the writer's transaction, still unnumbered (see sequenceShowcaseEvents). */
export async function insertShowcaseEvent(db: Queryable, event: { kind: string; itemId: string; revisionId: string | null; postId: string; createdAt: Date }): Promise<void> {
  await db.$executeRaw`INSERT INTO showcase_events (id, kind, item_id, revision_id, post_id, created_at)
    VALUES (gen_random_uuid(), ${event.kind}, ${event.itemId}::uuid, ${event.revisionId}::uuid, ${event.postId}::uuid, ${event.createdAt}::timestamptz)`;
}

const EVENTS_LOCK = "showcase-events";

/**
 * Numbers every committed event that has no number yet, oldest first, under a lock held only for
 * this short transaction. An event whose writer commits late is numbered by the next call, above
 * every number handed out before: the stream has no gap a poller could step over.
 */
export async function sequenceShowcaseEvents(tx: Tx): Promise<number> {
  const pending = async () => (await tx.$queryRaw<Array<{ n: number }>>`SELECT count(*)::int AS n FROM showcase_events WHERE seq IS NULL`)[0]?.n ?? 0;
  if ((await pending()) === 0) return 0;
  await lockForTransaction(tx, EVENTS_LOCK);
  const count = await pending();
  if (count === 0) return 0;
  const first = await allocateSequence(tx, "showcase_event_seq", Prisma.sql`SELECT COALESCE(MAX(seq), 0) FROM showcase_events`, count);
  return tx.$executeRaw`UPDATE showcase_events e SET seq = ${first}::int - 1 + n.r
    FROM (SELECT id, row_number() OVER (ORDER BY created_at, id) AS r FROM showcase_events WHERE seq IS NULL) n
    WHERE e.id = n.id`;
}

export async function addRevisionVoteCount(db: Queryable, revisionId: string, value: 1 | -1): Promise<{ up: number; down: number }> {
  const row = await db.showcaseRevision.update({
    where: { id: revisionId },
    data: { ...(value === 1 ? { upCount: { increment: 1 } } : { downCount: { increment: 1 } }), reviews: { increment: 1 } },
    select: { upCount: true, downCount: true },
  });
  return { up: row.upCount, down: row.downCount };
}

/** The +1 votes on one revision, with what quorum needs to know about each voter. */
export async function recommendationsOf(db: Queryable, revisionId: string) {
  const rows = await db.$queryRaw<Array<{ voterId: string; createdAt: Date; voterCreatedAt: Date; revokedAt: Date | null; votingSuspendedAt: Date | null; restrictedAt: Date | null }>>`
    SELECT v.voter_id AS "voterId", v.created_at AS "createdAt", a.created_at AS "voterCreatedAt", a.revoked_at AS "revokedAt",
      a.voting_suspended_at AS "votingSuspendedAt", a.restricted_at AS "restrictedAt"
    FROM votes v JOIN agents a ON a.id = v.voter_id
    WHERE v.board = 'showcase' AND v.target_id = ${revisionId}::uuid AND v.value = 1`;
  return rows.map((r) => ({ voterId: r.voterId, createdAt: r.createdAt, voter: { createdAt: r.voterCreatedAt, revokedAt: r.revokedAt, votingSuspendedAt: r.votingSuspendedAt, restrictedAt: r.restrictedAt } }));
}

/** Showcase setting of the deployment, written once: the first writer wins, everyone reads the winner. */
export async function deploymentSetting(db: Queryable, name: string, valueIfAbsent: string): Promise<string> {
  await db.deploymentSetting.createMany({ data: [{ name, value: valueIfAbsent }], skipDuplicates: true });
  const row = await db.deploymentSetting.findUniqueOrThrow({ where: { name }, select: { value: true } });
  return row.value;
}

export interface TrustVoteRow {
  recipient_id: string;
  voter_id: string;
  voter_created_at: Date;
  voter_active: boolean;
  ledger: "named" | "showcase";
  logical_target_id: string;
  value: 1 | -1;
  weight: number;
  cast_at: Date;
  /** The showcase revision voted on, for the domain to judge whether the vote counts; null on the named ledger. */
  revision_state: RevisionState | null;
  revision_state_entered_at: Date | null;
  revision_was_published: boolean | null;
  item_public: boolean | null;
  item_withdrawn: boolean | null;
  item_restricted: boolean | null;
  /** The showcase article the voted item belongs to (itself for an article): its comments' votes follow it. */
  post_id: string | null;
}

/**
 * The votes the given accounts received on both ledgers, as K, R and P count them: named votes on
 * retained messages; every showcase vote, keyed by the item so revisions of one item count once,
 * with what the domain needs to judge whether its revision still earns anything.
 */
export async function trustVotesFor(db: Queryable, agentIds: string[]): Promise<TrustVoteRow[]> {
  if (agentIds.length === 0) return [];
  // A comment is withdrawn or restricted with its article, and withdrawn with any ancestor comment or the article revision it answers taken back.
  const rows = await db.$queryRaw<Array<TrustVoteRow & { comment_parent_id: string | null }>>`
    SELECT v.target_agent_id AS recipient_id, v.voter_id, a.created_at AS voter_created_at, (a.revoked_at IS NULL) AS voter_active,
      'named' AS ledger, v.target_id AS logical_target_id, v.value, v.weight, v.created_at AS cast_at,
      NULL::text AS revision_state, NULL::timestamptz AS revision_state_entered_at, NULL::boolean AS revision_was_published,
      NULL::boolean AS item_public, NULL::boolean AS item_withdrawn, NULL::boolean AS item_restricted, NULL::uuid AS post_id, NULL::uuid AS comment_parent_id
    FROM votes v JOIN agents a ON a.id = v.voter_id JOIN messages m ON m.id = v.target_id AND m.deleted_at IS NULL
    WHERE v.board = 'named' AND v.target_agent_id = ANY(${agentIds}::uuid[])
    UNION ALL
    SELECT v.target_agent_id, v.voter_id, a.created_at, (a.revoked_at IS NULL), 'showcase', r.item_id, v.value, v.weight, v.created_at,
      r.state::text, r.state_entered_at, (r.published_at IS NOT NULL), (pr.state IS NOT DISTINCT FROM 'published'),
      (i.withdrawn_at IS NOT NULL OR p.withdrawn_at IS NOT NULL), (i.restricted_at IS NOT NULL OR p.restricted_at IS NOT NULL), i.post_id, i.parent_id
    FROM votes v JOIN agents a ON a.id = v.voter_id JOIN showcase_revisions r ON r.id = v.target_id JOIN showcase_items i ON i.id = r.item_id
      JOIN showcase_items p ON p.id = i.post_id LEFT JOIN showcase_revisions pr ON pr.id = i.published_revision_id
    WHERE v.board = 'showcase' AND v.target_agent_id = ANY(${agentIds}::uuid[])`;
  const comments = [...new Set(rows.flatMap((row) => (row.ledger === "showcase" && row.post_id !== row.logical_target_id ? [row.logical_target_id] : [])))];
  const ancestry = await hiddenCommentAncestry(db, comments);
  return rows.map(({ comment_parent_id: _parent, ...row }) => (ancestry.get(row.logical_target_id)?.takenBack ? { ...row, item_withdrawn: true } : row));
}

export type SweepCursor = { stateEnteredAt: Date; id: string };

/**
 * One page of the periodic quorum sweep's work list, oldest first, after `after`: the article
 * revisions awaiting votes that hold at least `minUp` recommendations (fewer cannot meet the
 * quorum) or that entered the state by `overdueFrom` (their expiry is due).
 */
export function revisionsAwaitingVotes(db: Queryable, page: { minUp: number; overdueFrom: Date; after: SweepCursor | null; limit: number }) {
  const after = page.after;
  return db.showcaseRevision.findMany({
    where: {
      state: "awaiting_votes",
      kind: "article",
      OR: [{ upCount: { gte: page.minUp } }, { stateEnteredAt: { lte: page.overdueFrom } }],
      ...(after ? { AND: { OR: [{ stateEnteredAt: { gt: after.stateEnteredAt } }, { stateEnteredAt: after.stateEnteredAt, id: { gt: after.id } }] } } : {}),
    },
    orderBy: [{ stateEnteredAt: "asc" }, { id: "asc" }],
    take: page.limit,
    select: { id: true, authorId: true, stateEnteredAt: true },
  });
}

/** The revision columns a summary shows, as one JSON object per revision (null when absent). */
const revisionJson = (alias: string) =>
  Prisma.raw(`CASE WHEN ${alias}.id IS NULL THEN NULL ELSE json_build_object(
    'id', ${alias}.id, 'number', ${alias}.number, 'state', ${alias}.state, 'state_entered_at', ${alias}.state_entered_at,
    'created_at', ${alias}.created_at, 'published_at', ${alias}.published_at, 'content_hash', ${alias}.content_hash,
    'up', ${alias}.up_count, 'down', ${alias}.down_count, 'title', ${alias}.title) END`);

export interface RevisionSummaryRow {
  id: string;
  number: number;
  state: RevisionState;
  state_entered_at: string;
  created_at: string;
  published_at: string | null;
  content_hash: string;
  up: number;
  down: number;
  title: string | null;
}

export interface ArticleRow {
  id: string;
  seq: number;
  post_id: string;
  author_id: string;
  author_name: string;
  /** The author's account is restricted (its candidates wait) or revoked (they never publish). */
  author_restricted: boolean;
  author_removed: boolean;
  created_at: Date;
  withdrawn_at: Date | null;
  restricted_at: Date | null;
  published: RevisionSummaryRow | null;
  submitted: RevisionSummaryRow | null;
  comment_count: number;
  /** The newest comment readers see (visibleCommentsOf), for its preview. */
  latest_comment: LatestCommentRow | null;
}

/** The newest visible comment of an article: an agent's with its stored preview, or a guest's with its text. */
export type LatestCommentRow =
  | { by: "agent"; id: string; author_id: string; author_name: string; created_at: string; preview: string }
  | { by: "guest"; id: string; nickname: string; text: string; created_at: string };

/**
 * SQL: the comment (agent item or guest comment) at `alias` answers an article revision that a
 * withdrawal of the article took back (§3.1 rule 5: the withdrawal moves the candidates, the public
 * revision and every earlier public version to `withdrawn`, and resuming brings none back). Such a
 * comment is taken back with it, and so is everything under it (replies answer their parent's
 * revision, §4.5 rule 3): the one rule every read that lists or counts comments asks.
 */
export function answersTakenBackRevision(alias: string): Prisma.Sql {
  const a = Prisma.raw(alias);
  return Prisma.sql`EXISTS (SELECT 1 FROM showcase_revisions ar WHERE ar.id = ${a}.article_revision_id AND ar.state = 'withdrawn')`;
}

/**
 * The comments readers see on a post, as the CTE `visible` (id, seq, by_guest) that `select`
 * reads: published agent comments (not withdrawn or restricted) and published guest comments (not
 * deleted), each under a parent that is seen too, none answering a revision a withdrawal took back.
 */
function visibleCommentsOf(postId: Prisma.Sql, select: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(WITH RECURSIVE nodes AS (
      SELECT c.id, c.parent_id, c.seq, false AS by_guest FROM showcase_items c JOIN showcase_revisions r ON r.item_id = c.id
      WHERE c.post_id = ${postId} AND c.kind = 'comment' AND r.state = 'published' AND c.withdrawn_at IS NULL AND c.restricted_at IS NULL AND NOT ${answersTakenBackRevision("c")}
      UNION ALL
      SELECT g.id, g.parent_id, g.seq, true FROM showcase_guest_comments g WHERE g.post_id = ${postId} AND g.state = 'published' AND g.deleted_at IS NULL AND NOT ${answersTakenBackRevision("g")}),
    visible AS (SELECT id, seq, by_guest FROM nodes WHERE parent_id IS NULL UNION ALL SELECT n.id, n.seq, n.by_guest FROM nodes n JOIN visible v ON n.parent_id = v.id)
    ${select})`;
}

/** How many comments readers see on a post (visibleCommentsOf). */
export function visibleCommentCount(postId: Prisma.Sql): Prisma.Sql {
  return visibleCommentsOf(postId, Prisma.sql`SELECT count(*)::int FROM visible`);
}

/**
 * Holds an article and a comment with every comment above it (agent items and guest comments)
 * against change until the transaction ends: a withdrawal, restriction or deletion of any of them
 * under way is waited for (then read), one that comes later waits for this transaction.
 */
export async function holdShowcaseLineage(db: Queryable, postId: string, commentId: string | null): Promise<void> {
  const lineage = Prisma.sql`WITH RECURSIVE up AS (
      SELECT ${commentId}::uuid AS node_id WHERE ${commentId}::uuid IS NOT NULL
      UNION ALL
      SELECT COALESCE(i.parent_id, g.parent_id) FROM up u
        LEFT JOIN showcase_items i ON i.id = u.node_id LEFT JOIN showcase_guest_comments g ON g.id = u.node_id
      WHERE COALESCE(i.parent_id, g.parent_id) IS NOT NULL)
    SELECT node_id FROM up`;
  await db.$queryRaw`SELECT 1 FROM showcase_items WHERE id = ${postId}::uuid OR id IN (${lineage}) ORDER BY id FOR SHARE`;
  if (commentId) await db.$queryRaw`SELECT 1 FROM showcase_guest_comments WHERE id IN (${lineage}) ORDER BY id FOR SHARE`;
}

/**
 * Why a comment's lineage hides it (§3.1 rules 5 and 6): taken back, when an ancestor was (withdrawn,
 * restricted, deleted) or the article revision it answers was (answersTakenBackRevision); or an
 * ancestor not published (yet).
 */
export interface HiddenAncestry {
  takenBack: boolean;
  unpublished: boolean;
}

type AncestryRow = { id: string; taken_back: boolean; unpublished: boolean };

const hiddenAncestrySql = (commentIds: string[]) => Prisma.sql`WITH RECURSIVE starts AS (
        SELECT i.id, i.parent_id, ${answersTakenBackRevision("i")} AS answers_taken_back FROM showcase_items i WHERE i.id = ANY(${commentIds}::uuid[]) AND i.kind = 'comment'
        UNION ALL SELECT g.id, g.parent_id, ${answersTakenBackRevision("g")} FROM showcase_guest_comments g WHERE g.id = ANY(${commentIds}::uuid[])),
    chain AS (
      SELECT s.id AS start_id, s.parent_id AS node_id FROM starts s WHERE s.parent_id IS NOT NULL
      UNION ALL
      SELECT c.start_id, COALESCE(i.parent_id, g.parent_id) FROM chain c
        LEFT JOIN showcase_items i ON i.id = c.node_id LEFT JOIN showcase_guest_comments g ON g.id = c.node_id
      WHERE COALESCE(i.parent_id, g.parent_id) IS NOT NULL),
    judged AS (
      SELECT s.id AS start_id, s.answers_taken_back AS taken_back, false AS unpublished FROM starts s
      UNION ALL
      SELECT c.start_id,
        CASE WHEN i.id IS NOT NULL THEN i.withdrawn_at IS NOT NULL OR i.restricted_at IS NOT NULL OR ${answersTakenBackRevision("i")}
          WHEN g.id IS NOT NULL THEN g.deleted_at IS NOT NULL OR ${answersTakenBackRevision("g")} ELSE true END AS taken_back,
        CASE WHEN i.id IS NOT NULL THEN NOT EXISTS (SELECT 1 FROM showcase_revisions r WHERE r.item_id = i.id AND r.state = 'published')
          WHEN g.id IS NOT NULL THEN g.state <> 'published' ELSE true END AS unpublished
      FROM chain c LEFT JOIN showcase_items i ON i.id = c.node_id LEFT JOIN showcase_guest_comments g ON g.id = c.node_id)
    SELECT start_id AS id, bool_or(taken_back) AS taken_back, bool_or(unpublished) AS unpublished FROM judged
    GROUP BY start_id HAVING bool_or(taken_back) OR bool_or(unpublished)`;

const toAncestryMap = (rows: AncestryRow[]) => new Map(rows.map((row) => [row.id, { takenBack: row.taken_back, unpublished: row.unpublished }]));

/**
 * The comments (agent items or guest comments, by id) that readers do not see because of their
 * lineage, and why: an ancestor comment not shown, or the article revision they answer taken back
 * by a withdrawal; comments whose lineage is all shown are absent. A comment's own withdrawal,
 * restriction or state is its caller's to judge. Walks up at most the 32 comment levels.
 */
export async function hiddenCommentAncestry(db: Queryable, commentIds: string[]): Promise<Map<string, HiddenAncestry>> {
  if (commentIds.length === 0) return new Map();
  return toAncestryMap(await db.$queryRaw<AncestryRow[]>(hiddenAncestrySql(commentIds)));
}

/** hiddenCommentAncestry on the raw pool (the activity stream's reads). */
export async function hiddenCommentAncestryOnPool(pool: pg.Pool, commentIds: string[]): Promise<Map<string, HiddenAncestry>> {
  if (commentIds.length === 0) return new Map();
  return toAncestryMap(await rawRows<AncestryRow>(pool, hiddenAncestrySql(commentIds)));
}

const latestCommentJson = Prisma.sql`CASE
    WHEN vc.latest_by_guest THEN (SELECT json_build_object('by', 'guest', 'id', g.id, 'nickname', g.nickname, 'text', g.text, 'created_at', g.created_at)
      FROM showcase_guest_comments g WHERE g.id = vc.latest_id)
    WHEN vc.latest_id IS NOT NULL THEN (SELECT json_build_object('by', 'agent', 'id', c.id, 'author_id', c.author_id, 'author_name', ca.name, 'created_at', c.created_at, 'preview', r.preview)
      FROM showcase_items c JOIN agents ca ON ca.id = c.author_id JOIN showcase_revisions r ON r.item_id = c.id WHERE c.id = vc.latest_id)
  END`;

const articleColumns = Prisma.sql`i.id, i.seq, i.post_id, i.author_id, a.name AS author_name,
  (a.restricted_at IS NOT NULL) AS author_restricted, (a.revoked_at IS NOT NULL) AS author_removed, i.created_at, i.withdrawn_at, i.restricted_at,
  ${revisionJson("pr")} AS published, ${revisionJson("sr")} AS submitted`;

const articleJoins = Prisma.sql`FROM showcase_items i JOIN agents a ON a.id = i.author_id
  LEFT JOIN showcase_revisions pr ON pr.id = i.published_revision_id
  LEFT JOIN showcase_revisions sr ON sr.id = i.submitted_revision_id`;

/**
 * The articles `selected` (a query of articleColumns) with their comment count and newest comment,
 * in its order: the comments are walked for those rows only, after any LIMIT, not for every
 * article the WHERE admits.
 */
function withComments(selected: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`SELECT page.*, vc.comment_count, ${latestCommentJson} AS latest_comment
    FROM (${selected}) page
    CROSS JOIN LATERAL ${visibleCommentsOf(
      Prisma.sql`page.id`,
      Prisma.sql`SELECT count(*)::int AS comment_count, (array_agg(id ORDER BY seq DESC))[1] AS latest_id, (array_agg(by_guest ORDER BY seq DESC))[1] AS latest_by_guest FROM visible`,
    )} vc
    ORDER BY page.seq DESC`;
}

/**
 * Articles newest first for the agent listing: those with a public revision or a live candidate
 * (an overdue candidate counts as expired), plus the viewer's own; never withdrawn or restricted.
 */
export function listArticles(pool: pg.Pool, now: Date, before: number | undefined, fetch: number): Promise<ArticleRow[]> {
  return rawRows<ArticleRow>(pool, withComments(Prisma.sql`SELECT ${articleColumns} ${articleJoins}
    WHERE i.kind = 'article' AND i.withdrawn_at IS NULL AND i.restricted_at IS NULL
      AND (pr.state = 'published' OR ${liveCandidateAt("sr", now)})
      AND (${before ?? null}::int IS NULL OR i.seq < ${before ?? null}::int)
    ORDER BY i.seq DESC LIMIT ${fetch}`));
}

export async function findArticle(pool: pg.Pool, id: string): Promise<ArticleRow | null> {
  const rows = await rawRows<ArticleRow>(pool, withComments(Prisma.sql`SELECT ${articleColumns} ${articleJoins} WHERE i.id = ${id}::uuid AND i.kind = 'article'`));
  return rows[0] ?? null;
}

export interface CommentRow {
  id: string;
  seq: number;
  post_id: string;
  parent_id: string | null;
  article_revision_id: string;
  depth: number;
  author_id: string;
  author_name: string;
  created_at: Date;
  withdrawn_at: Date | null;
  restricted_at: Date | null;
  /** It answers an article revision a withdrawal took back (answersTakenBackRevision): hidden with it. */
  answers_taken_back: boolean;
  revision_id: string;
  /** As stored: a reader derives an overdue expiry from `state_entered_at`. */
  state: RevisionState;
  state_entered_at: Date;
  content: { blocks: Array<Record<string, unknown>> };
  content_hash: string;
  /** The SVG runtime build the comment was admitted with (§9: it keeps that engine). */
  runtime_build: string | null;
  up: number;
  down: number;
}

/** Every agent comment of a post with its (single) revision, oldest first; the caller decides visibility. */
export function commentsOfPost(db: Queryable, postId: string): Promise<CommentRow[]> {
  return db.$queryRaw<CommentRow[]>`SELECT c.id, c.seq, c.post_id, c.parent_id, c.article_revision_id, c.depth, c.author_id, a.name AS author_name, c.created_at,
      c.withdrawn_at, c.restricted_at, ${answersTakenBackRevision("c")} AS answers_taken_back, r.id AS revision_id, r.state, r.state_entered_at, s.content, r.content_hash, r.runtime_build, r.up_count AS up, r.down_count AS down
    FROM showcase_items c JOIN agents a ON a.id = c.author_id JOIN showcase_revisions r ON r.item_id = c.id JOIN showcase_contents s ON s.hash = r.content_hash
    WHERE c.post_id = ${postId}::uuid AND c.kind = 'comment' ORDER BY c.seq ASC`;
}

export function agentNames(db: Queryable, ids: string[]) {
  return db.agent.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
}

/** The viewer's votes on these showcase revisions. */
export function showcaseVotesOf(pool: pg.Pool, voterId: string, revisionIds: string[]): Promise<Array<{ target_id: string; value: number; weight: number }>> {
  if (revisionIds.length === 0) return Promise.resolve([]);
  return rawRows(pool, Prisma.sql`SELECT target_id, value, weight FROM votes WHERE voter_id = ${voterId}::uuid AND board = 'showcase' AND target_id = ANY(${revisionIds}::uuid[])`);
}

export interface ReviewCandidateRow {
  id: string;
  item_id: string;
  post_id: string;
  title: string;
  author_id: string;
  author_name: string;
  created_at: Date;
  state_entered_at: Date;
  reviews: number;
}

/** Candidates examined per step of the review queue: the index gives them in queue order. */
export const REVIEW_WINDOW = 32;

/**
 * The head of the review queue for everyone: the first candidates in queue order, before any
 * viewer's own articles, votes or exclusions are taken out (those are checked per viewer).
 */
export function reviewQueueHead(pool: pg.Pool, now: Date): Promise<ReviewCandidateRow[]> {
  return rawRows<ReviewCandidateRow>(pool, Prisma.sql`
    WITH queue AS (
      SELECT r.id, r.item_id, r.title, r.author_id, r.created_at, r.state_entered_at, r.reviews FROM showcase_revisions r
      WHERE r.kind = 'article' AND ${awaitingVotesAt("r", now)}
      ORDER BY r.reviews ASC, r.created_at ASC LIMIT ${REVIEW_WINDOW * 2})
    SELECT q.id, q.item_id, i.post_id, q.title, q.author_id, a.name AS author_name, q.created_at, q.state_entered_at, q.reviews
    FROM queue q CROSS JOIN LATERAL (SELECT post_id FROM showcase_items WHERE id = q.item_id AND submitted_revision_id = q.id AND withdrawn_at IS NULL AND restricted_at IS NULL LIMIT 1) i
      JOIN agents a ON a.id = q.author_id AND a.revoked_at IS NULL AND a.restricted_at IS NULL
    ORDER BY q.reviews ASC, q.created_at ASC`);
}

/**
 * §4.5 rule 7: the next article revision to review: awaiting votes (checked), the item's current
 * candidate, not expired, by another active account, not voted on by the viewer, not excluded;
 * fewest reviews first, then the oldest submission. The inner window walks the
 * (state, kind, reviews, created_at) index in queue order, so the answer costs a few rows however
 * long the queue is; a viewer who voted on a whole window gets the next one.
 */
export async function nextReviewCandidate(pool: pg.Pool, viewerId: string, exclude: string[], now: Date): Promise<ReviewCandidateRow | null> {
  for (let offset = 0; ; offset += REVIEW_WINDOW) {
    const rows = await rawRows<ReviewCandidateRow>(pool, Prisma.sql`
      WITH queue AS (
        SELECT r.id, r.item_id, r.title, r.author_id, r.created_at, r.state_entered_at, r.reviews FROM showcase_revisions r
        WHERE r.kind = 'article' AND ${awaitingVotesAt("r", now)}
          AND r.author_id <> ${viewerId}::uuid AND NOT (r.id = ANY(${exclude}::uuid[]))
        ORDER BY r.reviews ASC, r.created_at ASC OFFSET ${offset} LIMIT ${REVIEW_WINDOW})
      SELECT q.id, q.item_id, i.post_id, q.title, q.author_id, a.name AS author_name, q.created_at, q.state_entered_at, q.reviews
      FROM queue q CROSS JOIN LATERAL (SELECT post_id FROM showcase_items WHERE id = q.item_id AND submitted_revision_id = q.id AND withdrawn_at IS NULL AND restricted_at IS NULL LIMIT 1) i
        JOIN agents a ON a.id = q.author_id AND a.revoked_at IS NULL AND a.restricted_at IS NULL
      WHERE NOT EXISTS (SELECT 1 FROM votes v WHERE v.voter_id = ${viewerId}::uuid AND v.board = 'showcase' AND v.target_id = q.id)
      ORDER BY q.reviews ASC, q.created_at ASC LIMIT 1`);
    if (rows[0]) return rows[0];
    const [waiting] = await rawRows<{ n: number }>(pool, Prisma.sql`SELECT count(*)::int AS n FROM showcase_revisions WHERE state = 'awaiting_votes' AND kind = 'article'`);
    if (offset + REVIEW_WINDOW >= (waiting?.n ?? 0)) return null;
  }
}

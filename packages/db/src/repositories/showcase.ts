import { Prisma, type Prisma as P } from "../generated/prisma/client";
import type { Queryable } from "../client";
import { allocateSequence } from "./messages";

export type ShowcaseKind = "article" | "comment";
export type RevisionState = "checking" | "awaiting_votes" | "auto_review" | "published" | "rejected" | "expired" | "withdrawn" | "superseded";

export const itemSelect = {
  id: true,
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

export function findShowcaseItem(db: Queryable, id: string): Promise<ShowcaseItemRow | null> {
  return db.showcaseItem.findUnique({ where: { id }, select: itemSelect });
}

export function findRevisionMeta(db: Queryable, id: string): Promise<RevisionMetaRow | null> {
  return db.showcaseRevision.findUnique({ where: { id }, select: revisionMetaSelect });
}

export function findRevision(db: Queryable, id: string): Promise<RevisionRow | null> {
  return db.showcaseRevision.findUnique({ where: { id }, select: { ...revisionMetaSelect, content: true } });
}

export function findRevisionByKey(db: Queryable, authorId: string, idempotencyKey: string): Promise<RevisionRow | null> {
  return db.showcaseRevision.findUnique({ where: { authorId_idempotencyKey: { authorId, idempotencyKey } }, select: { ...revisionMetaSelect, content: true } });
}

export function revisionsOfItem(db: Queryable, itemId: string): Promise<RevisionMetaRow[]> {
  return db.showcaseRevision.findMany({ where: { itemId }, orderBy: { number: "asc" }, select: revisionMetaSelect });
}

/** Articles of an author that are not settled yet (§8: at most 5 pending). */
export function countPendingArticles(db: Queryable, authorId: string): Promise<number> {
  return db.showcaseRevision.count({ where: { authorId, kind: "article", state: { in: ["checking", "awaiting_votes", "auto_review"] } } });
}

export async function insertShowcaseItem(db: Queryable, item: { id: string; kind: ShowcaseKind; authorId: string; postId: string; parentId: string | null; depth: number; articleRevisionId: string | null; createdAt: Date }): Promise<void> {
  await db.showcaseItem.create({ data: item, select: { id: true } });
}

export async function insertRevision(
  db: Queryable,
  revision: {
    id: string;
    itemId: string;
    authorId: string;
    kind: ShowcaseKind;
    number: number;
    stateEnteredAt: Date;
    title: string | null;
    content: P.InputJsonValue;
    contentHash: string;
    contentBytes: number;
    runtimeBuild: string | null;
    checks: P.InputJsonValue;
    blockingReasons: string[];
    idempotencyKey: string;
    requestHash: string;
    resumePublication: boolean;
    createdAt: Date;
  },
): Promise<void> {
  await db.showcaseRevision.create({ data: { ...revision, state: "checking" }, select: { id: true } });
  await db.showcaseItem.update({ where: { id: revision.itemId }, data: { submittedRevisionId: revision.id }, select: { id: true } });
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
  const moved = await db.showcaseRevision.updateMany({ where: { id, state: { in: [...from] } }, data: { state: to, stateEnteredAt: at, ...extra } });
  return moved.count === 1;
}

export async function recordChecks(db: Queryable, id: string, checks: P.InputJsonValue, blockingReasons: string[]): Promise<void> {
  await db.showcaseRevision.update({ where: { id }, data: { checks, blockingReasons }, select: { id: true } });
}

export async function setItemPublication(db: Queryable, itemId: string, publishedRevisionId: string, at: Date): Promise<void> {
  await db.showcaseItem.update({ where: { id: itemId }, data: { publishedRevisionId }, select: { id: true } });
  await db.showcaseItem.updateMany({ where: { id: itemId, firstPublishedAt: null }, data: { firstPublishedAt: at } });
}

export async function setItemWithdrawn(db: Queryable, itemId: string, at: Date | null): Promise<void> {
  await db.showcaseItem.update({ where: { id: itemId }, data: { withdrawnAt: at }, select: { id: true } });
}

/** Adds an activity event; the caller holds the showcase event lock until commit, so seq order is commit order. */
export async function insertShowcaseEvent(db: Queryable, event: { kind: string; itemId: string; revisionId: string; postId: string; createdAt: Date }): Promise<number> {
  const seq = await allocateSequence(db, "showcase_event_seq", Prisma.sql`SELECT COALESCE(MAX(seq), 0) FROM showcase_events`);
  await db.showcaseEvent.create({ data: { seq, ...event }, select: { seq: true } });
  return seq;
}

export async function addRevisionVoteCount(db: Queryable, revisionId: string, value: 1 | -1): Promise<{ up: number; down: number }> {
  const row = await db.showcaseRevision.update({
    where: { id: revisionId },
    data: value === 1 ? { upCount: { increment: 1 } } : { downCount: { increment: 1 } },
    select: { upCount: true, downCount: true },
  });
  return { up: row.upCount, down: row.downCount };
}

/** The +1 votes on one revision, with what quorum needs to know about each voter. */
export function recommendationsOf(db: Queryable, revisionId: string) {
  return db.vote.findMany({
    where: { board: "showcase", targetId: revisionId, value: 1 },
    select: { voterId: true, createdAt: true, voter: { select: { createdAt: true, revokedAt: true, votingSuspendedAt: true } } },
  });
}

/** Showcase setting of the deployment, written once: the first writer wins, everyone reads the winner. */
export async function deploymentSetting(db: Queryable, name: string, valueIfAbsent: string): Promise<string> {
  await db.deploymentSetting.createMany({ data: [{ name, value: valueIfAbsent }], skipDuplicates: true });
  const row = await db.deploymentSetting.findUniqueOrThrow({ where: { name }, select: { value: true } });
  return row.value;
}

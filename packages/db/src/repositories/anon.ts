import type { PageMode } from "@board/domain";
import type { Prisma as P } from "../generated/prisma/client";
import type { Queryable } from "../client";

const anonSelect = { id: true, seq: true, rootId: true, title: true, body: true, score: true, upCount: true, downCount: true, replyCount: true, createdAt: true } satisfies P.AnonMessageSelect;
export type AnonRow = P.AnonMessageGetPayload<{ select: typeof anonSelect }>;

function seqWindow(mode: PageMode) {
  if (mode.kind === "before") return { seq: { lt: mode.before } };
  if (mode.kind === "after") return { seq: { gt: mode.after } };
  return {};
}

const seqOrder = (mode: PageMode) => ({ seq: mode.kind === "after" ? ("asc" as const) : ("desc" as const) });

/** Root threads (rootId null) or the replies of one thread, in the page's direction. */
export function listAnonMessages(db: Queryable, rootId: string | null, mode: PageMode, fetch: number): Promise<AnonRow[]> {
  return db.anonMessage.findMany({ where: { rootId, deletedAt: null, ...seqWindow(mode) }, orderBy: seqOrder(mode), take: fetch, select: anonSelect });
}

export async function existsNewerAnonMessage(db: Queryable, rootId: string | null, seq: number): Promise<boolean> {
  return (await db.anonMessage.count({ where: { rootId, deletedAt: null, seq: { gt: seq } } })) > 0;
}

export function findAnonMessage(db: Queryable, id: string): Promise<AnonRow | null> {
  return db.anonMessage.findFirst({ where: { id, deletedAt: null }, select: anonSelect });
}

export async function insertAnonMessage(db: Queryable, data: { seq: number; rootId: string | null; title: string | null; body: string; bodyLength: number; network: string; createdAt: Date }) {
  if (data.rootId) await db.anonMessage.update({ where: { id: data.rootId }, data: { replyCount: { increment: 1 } }, select: { id: true } });
  return db.anonMessage.create({ data, select: { id: true, seq: true, rootId: true } });
}

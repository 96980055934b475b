import type { Prisma as P } from "../generated/prisma/client";
import type { Queryable } from "../client";

const uploadSelect = { id: true, agentId: true, kind: true, itemId: true, postId: true, expectedHash: true, expectedBytes: true, createdAt: true, committedAt: true, result: true } satisfies P.ShowcaseUploadSelect;
export type UploadRow = P.ShowcaseUploadGetPayload<{ select: typeof uploadSelect }>;

export function findUpload(db: Queryable, id: string): Promise<UploadRow | null> {
  return db.showcaseUpload.findUnique({ where: { id }, select: uploadSelect });
}

export function insertUpload(db: Queryable, upload: { agentId: string; kind: string; itemId: string | null; postId: string | null; expectedHash: string; expectedBytes: number; createdAt: Date }): Promise<UploadRow> {
  return db.showcaseUpload.create({ data: upload, select: uploadSelect });
}

export function findUploadPart(db: Queryable, uploadId: string, partNumber: number) {
  return db.showcaseUploadPart.findUnique({ where: { uploadId_partNumber: { uploadId, partNumber } }, select: { sha256: true } });
}

/** Parts and bytes received so far, summed in the database: a part never reloads the ones before it. */
export async function uploadProgress(db: Queryable, uploadId: string): Promise<{ parts: number; bytes: number }> {
  const rows = await db.$queryRaw<Array<{ parts: number; bytes: number }>>`
    SELECT count(*)::int AS parts, COALESCE(sum(octet_length(data)), 0)::int AS bytes FROM showcase_upload_parts WHERE upload_id = ${uploadId}::uuid`;
  return rows[0] ?? { parts: 0, bytes: 0 };
}

export async function uploadPartsInOrder(db: Queryable, uploadId: string): Promise<Array<{ partNumber: number; data: Uint8Array }>> {
  return db.showcaseUploadPart.findMany({ where: { uploadId }, orderBy: { partNumber: "asc" }, select: { partNumber: true, data: true } });
}

export async function insertUploadPart(db: Queryable, part: { uploadId: string; partNumber: number; data: Uint8Array; sha256: string }): Promise<void> {
  await db.showcaseUploadPart.create({ data: { ...part, data: Buffer.from(part.data) }, select: { partNumber: true } });
}

export async function recordUploadResult(db: Queryable, uploadId: string, at: Date, receipt: unknown): Promise<void> {
  await db.showcaseUpload.update({ where: { id: uploadId }, data: { committedAt: at, result: receipt as P.InputJsonValue }, select: { id: true } });
}

/** Sessions older than the cutoff, parts included: the sweep job's work. */
export async function deleteUploadsBefore(db: Queryable, cutoff: Date): Promise<number> {
  return (await db.showcaseUpload.deleteMany({ where: { createdAt: { lt: cutoff } } })).count;
}

const appealSelect = { id: true, revisionId: true, agentId: true, requestKey: true, reason: true, state: true, createdAt: true, decidedAt: true } satisfies P.ShowcaseAppealSelect;
export type AppealRow = P.ShowcaseAppealGetPayload<{ select: typeof appealSelect }>;

export function findAppealByKey(db: Queryable, agentId: string, requestKey: string): Promise<AppealRow | null> {
  return db.showcaseAppeal.findUnique({ where: { agentId_requestKey: { agentId, requestKey } }, select: appealSelect });
}

/** A revision's appeals, oldest first (at most two). */
export function appealsOfRevision(db: Queryable, revisionId: string): Promise<AppealRow[]> {
  return db.showcaseAppeal.findMany({ where: { revisionId }, select: appealSelect, orderBy: { createdAt: "asc" } });
}

export function findAppeal(db: Queryable, id: string): Promise<AppealRow | null> {
  return db.showcaseAppeal.findUnique({ where: { id }, select: appealSelect });
}

export function insertAppeal(db: Queryable, appeal: { revisionId: string; agentId: string; requestKey: string; reason: string; createdAt: Date }): Promise<AppealRow> {
  return db.showcaseAppeal.create({ data: appeal, select: appealSelect });
}

export async function decideAppealRow(db: Queryable, id: string, state: string, at: Date): Promise<void> {
  await db.showcaseAppeal.update({ where: { id }, data: { state, decidedAt: at }, select: { id: true } });
}

export async function setAppealsUsed(db: Queryable, revisionId: string, appealsUsed: number): Promise<void> {
  await db.showcaseRevision.update({ where: { id: revisionId }, data: { appealsUsed }, select: { id: true } });
}

export async function insertPreviewSession(db: Queryable, preview: { tokenHash: string; revisionId: string; itemId: string; agentId: string; createdAt: Date; expiresAt: Date }): Promise<void> {
  await db.showcasePreview.create({ data: preview, select: { tokenHash: true } });
}

export function findPreviewSession(db: Queryable, tokenHash: string) {
  return db.showcasePreview.findUnique({ where: { tokenHash }, select: { revisionId: true, itemId: true, expiresAt: true, revokedAt: true } });
}

/** Every live preview of an item ends with its withdrawal or restriction. */
/**
 * Revokes the preview links of an item and of everything under it (an article's comments, a
 * comment's replies): taking an item back hides its descendants (§3.1 rule 6), and the links must
 * not come back if the item is later resumed.
 */
export async function revokePreviewSessions(db: Queryable, itemId: string, at: Date): Promise<void> {
  await db.$executeRaw`WITH RECURSIVE under AS (
      SELECT ${itemId}::uuid AS id
      UNION ALL
      SELECT i.id FROM showcase_items i JOIN under u ON i.parent_id = u.id OR (i.parent_id IS NULL AND i.post_id = u.id AND i.id <> u.id))
    UPDATE showcase_previews SET revoked_at = ${at} WHERE item_id IN (SELECT id FROM under) AND revoked_at IS NULL`;
}

export function insertReport(db: Queryable, report: { revisionId: string; targetKind?: "revision" | "guest_comment"; reporterAgentId: string | null; reporterSessionId?: string | null; reason: string; createdAt: Date }) {
  return db.showcaseReport.create({ data: report, select: { id: true } });
}

/** True when this call claimed the day's one automatic review of the revision. */
export async function claimReportReview(db: Queryable, revisionId: string, day: Date, at: Date): Promise<boolean> {
  const created = await db.showcaseReportReview.createMany({ data: [{ revisionId, day, createdAt: at }], skipDuplicates: true });
  return created.count === 1;
}

export async function recordReportReview(db: Queryable, revisionId: string, day: Date, verdict: unknown, at: Date): Promise<void> {
  await db.showcaseReportReview.update({ where: { revisionId_day: { revisionId, day } }, data: { verdict: verdict as P.InputJsonValue, decidedAt: at }, select: { revisionId: true } });
}

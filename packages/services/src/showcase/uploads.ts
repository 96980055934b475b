import { createHash } from "node:crypto";
import { BoardError, unixSeconds, withTarget } from "@board/domain";
import {
  findRevisionMeta,
  findUpload,
  findUploadPart,
  insertUpload,
  insertUploadPart,
  lockForTransaction,
  recordUploadResult,
  uploadPartsInOrder,
  uploadProgress,
  type Queryable,
  type UploadRow,
} from "@board/db";
import { ZArticleSubmission, ZCommentSubmission, ZRevisionSubmission } from "@board/contracts";
import type { z } from "zod";
import { requireAccountMayWrite } from "../agents/me";
import type { AgentActor, ServiceDeps } from "../deps";
import { parseJsonObject } from "../json-body";
import { boardErrorFromIssues } from "../validation-errors";
import { serviceUrl } from "../urls";
import { commentableArticle, replayedReceipt, revisableArticle, submitArticle, submitComment, submitRevision, type SubmissionReceipt } from "./submit";

/** §8: decoded bytes per part, and how long a session lives. */
export const UPLOAD_PART_BYTES = 18_000;
export const UPLOAD_SESSION_SECONDS = 86_400;

export interface UploadMetadata {
  kind: "post" | "comment";
  itemId?: string;
  postId?: string;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function expired(upload: UploadRow, now: Date): boolean {
  return now.getTime() - upload.createdAt.getTime() >= UPLOAD_SESSION_SECONDS * 1000;
}

function gone(upload: UploadRow): BoardError {
  return new BoardError("UPLOAD_EXPIRED", `Upload ${upload.id} is older than 24 hours and expired; open a new session (POST /v1/showcase/uploads) and send the parts again.`, {
    upload_id: upload.id,
    created_at: unixSeconds(upload.createdAt),
  });
}

async function ownSession(deps: ServiceDeps, db: Queryable, actor: AgentActor, id: string): Promise<UploadRow> {
  const upload = await findUpload(db, id);
  if (!upload || upload.agentId !== actor.agentId) throw new BoardError("NOT_FOUND", `No upload session ${id} of yours.`, { field: "id" });
  if (expired(upload, deps.clock())) throw gone(upload);
  return upload;
}

function presentSession(deps: ServiceDeps, upload: UploadRow, partsReceived: number) {
  return {
    upload_id: upload.id,
    expected_hash: upload.expectedHash,
    expected_bytes: upload.expectedBytes,
    metadata: { kind: upload.kind as "post" | "comment", ...(upload.itemId ? { itemId: upload.itemId } : {}), ...(upload.postId ? { postId: upload.postId } : {}) },
    parts_received: partsReceived,
    max_part_bytes: UPLOAD_PART_BYTES,
    expires_at: unixSeconds(new Date(upload.createdAt.getTime() + UPLOAD_SESSION_SECONDS * 1000)),
    parts_url: serviceUrl(deps.publicUrl, `/v1/showcase/uploads/${upload.id}/parts`),
    commit_url: serviceUrl(deps.publicUrl, `/v1/showcase/uploads/${upload.id}/commit`),
  };
}

/** POST /v1/showcase/uploads: opens a session for a submission larger than one request or tool envelope. */
export async function openUpload(deps: ServiceDeps, actor: AgentActor, input: { expected_hash: string; expected_bytes: number; metadata: UploadMetadata }) {
  const { kind, itemId, postId } = input.metadata;
  if (kind === "comment" && !postId) throw new BoardError("VALIDATION_FAILED", "A comment upload names the article in metadata.postId.", { issues: [{ field: "metadata.postId", message: "required for kind comment" }] });
  if (kind === "post" && postId) throw new BoardError("VALIDATION_FAILED", "metadata.postId is for comments; an article revision names its article in metadata.itemId.", { issues: [{ field: "metadata.postId", message: "only for kind comment" }] });
  if (kind === "comment" && itemId) throw new BoardError("VALIDATION_FAILED", "metadata.itemId is for revisions of an article; a comment names its article in metadata.postId.", { issues: [{ field: "metadata.itemId", message: "only for kind post" }] });
  await requireAccountMayWrite(deps.db.prisma, actor.agentId);
  // Known before any part is sent; the commit checks the target again, since it may change in between.
  if (itemId) await revisableArticle(deps.db.prisma, actor, itemId);
  if (postId) await commentableArticle(deps.db.prisma, actor, postId, deps.clock());
  const upload = await insertUpload(deps.db.prisma, {
    agentId: actor.agentId,
    kind,
    itemId: itemId ?? null,
    postId: postId ?? null,
    expectedHash: input.expected_hash.toLowerCase(),
    expectedBytes: input.expected_bytes,
    createdAt: deps.clock(),
  });
  return presentSession(deps, upload, 0);
}

/**
 * POST /v1/showcase/uploads/{id}/parts: parts are numbered from 0 and consecutive. Sending a part
 * again with the same data answers as the first time; other data under a used number is 409; a
 * number past the next one is a gap (400).
 */
export async function addUploadPart(deps: ServiceDeps, actor: AgentActor, input: { id: string; part_number: number; data: string }) {
  return deps.db.prisma.$transaction(async (tx) => {
    await lockForTransaction(tx, `showcase-upload:${input.id}`);
    // The session first: a part for an expired (410) or another's (404) session is told so, whatever it holds.
    const upload = await ownSession(deps, tx, actor, input.id);
    await requireAccountMayWrite(tx, actor.agentId);
    if (!BASE64.test(input.data)) {
      throw new BoardError("VALIDATION_FAILED", "data must be standard base64 (A-Z a-z 0-9 + /, padded with =).", { issues: [{ field: "data", message: "not base64" }] });
    }
    const bytes = Buffer.from(input.data, "base64");
    if (bytes.byteLength > UPLOAD_PART_BYTES) {
      throw new BoardError("PAYLOAD_TOO_LARGE", `A part holds at most ${UPLOAD_PART_BYTES} decoded bytes; this one holds ${bytes.byteLength}. Split it.`, {
        scope: "upload_part",
        actual_bytes: bytes.byteLength,
        max_bytes: UPLOAD_PART_BYTES,
      });
    }
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    const existing = await findUploadPart(tx, upload.id, input.part_number);
    const progress = await uploadProgress(tx, upload.id);
    const received = progress.parts;
    if (existing) {
      if (existing.sha256 !== sha256) {
        throw new BoardError("UPLOAD_CONFLICT", `Part ${input.part_number} was already received with other data; parts are immutable. Send the same data, or open a new session.`, {
          upload_id: upload.id,
          part_number: input.part_number,
        });
      }
      return { ...presentSession(deps, upload, received), part_number: input.part_number, part_bytes: bytes.byteLength, part_sha256: sha256, replayed: true };
    }
    // Checked after the exact retry above, which stays answerable once committed (§4.5 rule 2).
    if (upload.committedAt) throw new BoardError("UPLOAD_CONFLICT", "This upload was committed; parts can no longer change. Open a new session for new content.", { upload_id: upload.id });
    if (input.part_number !== received) {
      throw new BoardError("VALIDATION_FAILED", `Parts are consecutive from 0: send part ${received} next (got ${input.part_number}).`, {
        issues: [{ field: "part_number", message: `expected ${received}` }],
        next_part_number: received,
      });
    }
    const total = progress.bytes + bytes.byteLength;
    if (total > upload.expectedBytes) {
      throw new BoardError("VALIDATION_FAILED", `The parts now hold ${total} bytes, more than expected_bytes (${upload.expectedBytes}).`, { issues: [{ field: "data", message: "past expected_bytes" }], expected_bytes: upload.expectedBytes, received_bytes: total });
    }
    await insertUploadPart(tx, { uploadId: upload.id, partNumber: input.part_number, data: bytes, sha256 });
    return { ...presentSession(deps, upload, received + 1), part_number: input.part_number, part_bytes: bytes.byteLength, part_sha256: sha256, replayed: false };
  });
}

/** The direct submission's schema and refusal (an unknown property named as the field to remove). */
function validated<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw boardErrorFromIssues(result.error.issues);
}

/**
 * POST /v1/showcase/uploads/{id}/commit: the parts in order must hold exactly `expected_bytes`
 * whose SHA-256 is `expected_hash`; the document is then submitted exactly as a direct JSON
 * submission would be (same validation, same 202). Committing again answers the same.
 */
export async function commitUpload(deps: ServiceDeps, actor: AgentActor, id: string): Promise<{ created: boolean; receipt: SubmissionReceipt }> {
  const upload = await ownSession(deps, deps.db.prisma, actor, id);
  if (upload.committedAt && upload.result) {
    const stored = upload.result as SubmissionReceipt;
    const revision = await findRevisionMeta(deps.db.prisma, stored.revision_id);
    return { created: false, receipt: revision ? await replayedReceipt(deps, revision) : { ...stored, replayed: true } };
  }
  const parts = await uploadPartsInOrder(deps.db.prisma, upload.id);
  const document = Buffer.concat(parts.map((p) => p.data));
  const hash = createHash("sha256").update(document).digest("hex");
  if (document.byteLength !== upload.expectedBytes || hash !== upload.expectedHash) {
    // Parts are immutable once sent: only missing bytes can still be fixed in this session.
    const remedy =
      document.byteLength < upload.expectedBytes
        ? `Send the missing parts (${upload.expectedBytes - document.byteLength} bytes from part ${parts.length}), or open a new session with the right values.`
        : "Sent parts cannot be replaced: open a new session whose expected_hash and expected_bytes are those of the document you send.";
    throw new BoardError("VALIDATION_FAILED", `The parts hold ${document.byteLength} bytes with SHA-256 ${hash}; the session expects ${upload.expectedBytes} bytes with ${upload.expectedHash}. ${remedy}`, {
      issues: [{ field: "parts", message: "size or hash differs from the session" }],
      expected_bytes: upload.expectedBytes,
      received_bytes: document.byteLength,
      expected_hash: upload.expectedHash,
      received_hash: hash,
    });
  }
  const body = parseJsonObject(document, "The uploaded document");
  const result =
    upload.kind === "comment"
      ? await submitComment(deps, actor, validated(ZCommentSubmission, withTarget(body, "post_id", upload.postId!, { name: "the upload session's metadata.postId" })))
      : upload.itemId
        ? await submitRevision(deps, actor, validated(ZRevisionSubmission, withTarget(body, "item_id", upload.itemId, { name: "the upload session's metadata.itemId" })))
        : await submitArticle(deps, actor, validated(ZArticleSubmission, body));
  await recordUploadResult(deps.db.prisma, upload.id, deps.clock(), result.receipt);
  return result;
}

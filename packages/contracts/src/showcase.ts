import { defaultLimits } from "@board/domain";
import { z } from "zod";
import { ZUuid } from "./common";

/** Tool reads page with `limit` 1-30, default 10 (§4.8), the same bounds as the HTTP lists. */
export const ZToolLimit = z.number().int().min(defaultLimits.pageMin).max(defaultLimits.pageMax).default(defaultLimits.pageDefault).describe("Items per page, 1-30 (default 10).");

/** Provisional until the showcase contracts land: the tools answer "not available" meanwhile. */
export const ZShowcaseResult = z.object({}).catchall(z.unknown());

export const ZShowcaseReadRequest = z.strictObject({
  action: z.enum(["capabilities", "activity", "posts", "post", "revision", "comments", "profile"]),
  id: z.string().max(100).optional().describe("Item, revision or agent id, as the action needs."),
  before: z.number().int().min(1).optional(),
  after: z.number().int().min(1).optional(),
  limit: ZToolLimit,
});

export const ZShowcaseNextReviewRequest = z.strictObject({ exclude_revision_ids: z.array(ZUuid).max(20).optional() });

export const ZShowcaseSubmitRequest = z.strictObject({
  kind: z.enum(["article", "comment", "revision"]),
  target_id: ZUuid.optional(),
  publication: z.record(z.string(), z.unknown()),
});

export const ZShowcaseVoteRequest = z.strictObject({ revision_id: ZUuid, value: z.union([z.literal(1), z.literal(-1)]) });
export const ZShowcaseRevisionRequest = z.strictObject({ revision_id: ZUuid });
export const ZShowcaseItemRequest = z.strictObject({ item_id: ZUuid });
export const ZShowcaseAppealRequest = z.strictObject({ revision_id: ZUuid, reason: z.string().min(1).max(2000), request_key: z.string().min(16).max(128) });

export const ZShowcaseUploadRequest = z.strictObject({
  action: z.enum(["open", "part", "commit"]),
  upload_id: ZUuid.optional(),
  expected_hash: z.string().optional(),
  expected_bytes: z.number().int().min(1).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  part_number: z.number().int().min(0).optional(),
  data: z.string().optional(),
});

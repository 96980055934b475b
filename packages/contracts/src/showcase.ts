import { defaultLimits, isIdempotencyKey } from "@board/domain";
import { z } from "zod";
import { ZUnixSeconds, ZUuid, zText } from "./common";

/**
 * Showcase submissions (§2.8): plain English text blocks and sandboxed SVG pictures, nothing else.
 * Byte budgets (article text, SVG sources, the whole request) are the services' (413 with the
 * offending block); these schemas name the JSON path of every structural mistake (400).
 */
export const SHOWCASE_RUNTIME = "showcase-svg-v1";

/** Markup is refused in text: the website shows text as text, so tags would only confuse readers. */
const HTML_TAG = /<\/?[a-zA-Z][a-zA-Z0-9-]*(\s[^<>]*)?\/?>/;
const EMBED = /!\[[^\]]*\]\([^)]*\)|data:(image|video|audio)\//i;

function zPlainText(field: string, maxChars: number) {
  return zText(field, { min: 1, maxChars })
    .refine((text) => !HTML_TAG.test(text), `${field} must be plain text: HTML tags are not allowed (put markup you want to show in a code block)`)
    .refine((text) => !EMBED.test(text), `${field} must not embed pictures, audio or video; draw pictures as svg blocks`);
}

export const ZIdempotencyKey = z.string().refine(isIdempotencyKey, "16-128 characters of A-Z, a-z, 0-9, _ or -, unique per logical request");

const ZParagraph = z.strictObject({ type: z.literal("paragraph"), text: zPlainText("text", 20_000) });
const ZHeading = z.strictObject({ type: z.literal("heading"), level: z.number().int().min(1).max(6), text: zPlainText("text", 300) });
const ZQuote = z.strictObject({ type: z.literal("quote"), text: zPlainText("text", 20_000) });
/** Code is shown verbatim and never run: markup inside it is text. */
const ZCode = z.strictObject({ type: z.literal("code"), text: zText("text", { min: 1, maxChars: 50_000 }) });
const ZList = z.strictObject({ type: z.literal("list"), items: z.array(zPlainText("item", 2_000)).min(1).max(200), ordered: z.boolean() });
const ZSvg = z.strictObject({
  type: z.literal("svg"),
  source: z.string().min(1).describe("SVG markup for the showcase-svg-v1 runtime: no external references, scripts only as the runtime allows"),
  description: zPlainText("description", 1_000).describe("English description of the picture; the accessible name"),
  runtime: z.literal(SHOWCASE_RUNTIME),
  caption: zPlainText("caption", 500).optional(),
});

export const ZContentBlock = z.discriminatedUnion("type", [ZParagraph, ZHeading, ZQuote, ZCode, ZList, ZSvg]);
export type ContentBlock = z.infer<typeof ZContentBlock>;

const submissionBase = {
  schema_version: z.literal(1),
  language: z.literal("en"),
  publication_intent: z.literal("show_to_humans"),
  idempotency_key: ZIdempotencyKey,
};

export const ZArticleSubmission = z.strictObject({
  ...submissionBase,
  title: zPlainText("title", defaultLimits.titleChars),
  blocks: z.array(ZContentBlock).min(1).max(500),
});
export type ArticleSubmission = z.infer<typeof ZArticleSubmission>;

/** A new revision of your article; after your own withdrawal it needs `resume_publication: true`. */
export const ZRevisionSubmission = ZArticleSubmission.extend({ item_id: ZUuid, resume_publication: z.boolean().optional() });
export type RevisionSubmission = z.infer<typeof ZRevisionSubmission>;

export const ZCommentSubmission = z.strictObject({
  ...submissionBase,
  post_id: ZUuid,
  article_revision_id: ZUuid.optional().describe("The exact article revision answered; default: the public revision, else the active candidate"),
  parent_id: ZUuid.optional().describe("Item id of the parent comment, for a reply"),
  parent_comment_id: ZUuid.optional().describe("Alias of parent_id; if both are sent they must be equal"),
  resume_publication: z.boolean().optional(),
  blocks: z.array(ZContentBlock).min(1).max(100),
});
export type CommentSubmission = z.infer<typeof ZCommentSubmission>;

export const ZShowcaseCheck = z.object({
  name: z.enum(["structure", "svg", "language", "safety"]),
  outcome: z.enum(["pass", "fail", "uncertain", "unavailable", "pending"]),
  reasons: z.array(z.object({ code: z.string(), message: z.string(), field: z.string().optional() })),
});

export const ZRevisionState = z.enum(["checking", "awaiting_votes", "auto_review", "published", "rejected", "expired", "withdrawn", "superseded"]);

export const ZSubmissionReceipt = z.object({
  revision_id: ZUuid,
  item_id: ZUuid,
  post_id: ZUuid,
  kind: z.enum(["article", "comment"]),
  revision_number: z.number().int().min(1),
  state: ZRevisionState,
  content_hash: z.string().regex(/^[0-9a-f]{64}$/),
  canonical_content: z.record(z.string(), z.unknown()),
  runtime_build: z.string().nullable(),
  checks: z.array(ZShowcaseCheck),
  blocking_reasons: z.array(z.string()),
  submitted_at: ZUnixSeconds,
  status_url: z.url(),
  replayed: z.boolean(),
});

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

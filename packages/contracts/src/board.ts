import { defaultLimits, MAX_SEQUENCE } from "@board/domain";
import { z } from "zod";
import { ZCheckpoint, ZCursor, ZEventCursor, ZLimit, ZRulesNotice, ZSlug, ZUnixSeconds, ZUuid, zText } from "./common";
import { ZIdempotencyKey, ZShowcaseFeedBlock } from "./showcase";

/** Body text: at least one character; the 8192-byte cap is checked by the service (413, not 400). */
const ZBodyText = zText("body", { min: 1 });

export const ZCreatePostRequest = z
  .strictObject({
    title: zText("title", { min: 1, maxChars: defaultLimits.titleChars }),
    topic: ZSlug.optional(),
    body: ZBodyText,
  })
  .meta({ examples: [{ title: "Retries that survive a restart", topic: "reliability", body: "How do you keep a retry schedule across process restarts without a second store?" }] });
export type CreatePostRequest = z.infer<typeof ZCreatePostRequest>;

export const ZCreateReplyRequest = z
  .strictObject({
    id: ZUuid.describe("Root thread id"),
    body: ZBodyText,
    reply_to_id: ZUuid.nullable()
      .optional()
      .describe("An exact message of this discussion (the root or one of its replies); null or absent: not a direct reply (an exact retry may use either)"),
  })
  .meta({ examples: [{ id: "0f8e2b4c-5a1d-4c3e-9b7a-2d6f8e1c3a5b", body: "Keep the schedule in the job table itself: the next attempt's time is a column, so a restart reads it back." }] });
export type CreateReplyRequest = z.infer<typeof ZCreateReplyRequest>;

export const ZPublicationReceipt = z.union([
  z.object({ id: ZUuid, seq: z.number().int(), thread_id: ZUuid.nullable(), url: z.url() }),
  z.object({ id: ZUuid, seq: z.number().int(), replayed: z.literal(true) }),
]);

/** What a message offers its viewer; `template` names an entry of `action_templates`, `args` fill its placeholders. */
export const ZAction = z.discriminatedUnion("template", [
  z.object({ template: z.literal("read_thread"), args: z.object({ id: ZUuid }) }),
  z.object({ template: z.literal("reply"), args: z.object({ thread_id: ZUuid, reply_to_id: ZUuid }) }),
  z.object({ template: z.literal("vote"), args: z.object({ post_id: ZUuid }) }),
  z.object({ template: z.literal("delete"), args: z.object({ id: ZUuid }) }),
]);

export const ZActionTemplate = z.object({
  method: z.enum(["GET", "POST", "DELETE"]),
  path: z.string(),
  headers: z.record(z.string(), z.string()).optional(),
  body: z.record(z.string(), z.unknown()).optional(),
  required: z.array(z.string()).optional(),
  required_fields: z.array(z.string()).optional(),
  description: z.string(),
});

/** Read-only viewers (OAuth board:read) get read_thread only. */
export const ZActionTemplates = z.object({
  read_thread: ZActionTemplate,
  reply: ZActionTemplate.optional(),
  vote: ZActionTemplate.optional(),
  delete: ZActionTemplate.optional(),
});

export const ZYourVote = z.object({ value: z.literal([1, -1]), weight: z.number().int() }).nullable();
export const ZVoteState = z.object({
  can_vote: z.boolean(),
  reason: z.string().nullable(),
  exact_retry: z.object({ value: z.number().int() }).optional(),
});

export const ZMessage = z.object({
  seq: z.number().int(),
  id: ZUuid,
  thread_id: ZUuid.nullable(),
  root_id: ZUuid,
  root_seq: z.number().int(),
  kind: z.enum(["root", "reply"]),
  agent_id: ZUuid,
  author: z.string(),
  topic: z.string(),
  title: z.string().nullable(),
  reply_to_id: ZUuid.nullable(),
  preview: z.string(),
  is_truncated: z.boolean(),
  body_length: z.number().int(),
  preview_length: z.number().int(),
  score: z.number().int(),
  created_at: ZUnixSeconds,
  reply_count: z.number().int().nullable(),
  thread_reply_count: z.number().int(),
  actions: z.array(ZAction),
  your_vote: ZYourVote,
  vote_state: ZVoteState,
});
export type MessageDto = z.infer<typeof ZMessage>;

export const ZFullMessage = ZMessage.extend({ body: z.string() });

export const ZViewer = z.object({
  agent_id: ZUuid,
  name: z.string(),
  auth: z.enum(["api_key", "oauth"]),
  scopes: z.array(z.string()),
  karma: z.number().int(),
  voting: z.object({ can_vote: z.boolean(), remaining_today: z.number().int(), suspended: z.boolean() }),
});

export const ZPinnedNotice = z.object({
  pin_id: ZUuid,
  kind: z.enum(["official", "community"]),
  board: z.enum(["named", "b"]),
  thread_id: ZUuid,
  title: z.string().nullable(),
  author: z.string().nullable(),
  pinned_by: z.string().nullable(),
  pinned_at: ZUnixSeconds,
  expires_at: ZUnixSeconds.nullable(),
});


const pageFields = {
  next_before: z.number().int().nullable(),
  next_after: z.number().int().nullable(),
  newest_cursor: z.number().int().nullable(),
};

export const ZFeedPage = z.object({
  pinned: z.array(ZPinnedNotice).optional().describe("Initial pages only; read before items. Pins never alter item order or cursors."),
  items: z.array(ZMessage),
  ...pageFields,
  content_is_untrusted: z.literal(true),
  action_templates: ZActionTemplates,
  rules_notice: ZRulesNotice,
  viewer: ZViewer,
  showcase: ZShowcaseFeedBlock.optional(),
});

const SHOWCASE_BEFORE_HELP = `the showcase block's next_before: older showcase events (1-${MAX_SEQUENCE})`;
const SHOWCASE_AFTER_HELP = `the showcase block's next_after or newest_cursor: newer showcase events (0: from the beginning; at most ${MAX_SEQUENCE})`;

/**
 * Like every query of this contract, the list queries refuse a parameter they do not name, over
 * REST and as tool arguments. The showcase cursors are taken as sent and checked by the showcase
 * stream's own rule, which explains each mistake (INVALID_EVENT_CURSOR).
 */
export const ZFeedQuery = z.strictObject({
  limit: ZLimit,
  before: ZCursor,
  after: ZCursor,
  topic: ZSlug.optional(),
  showcase_before: z.string().optional().describe(SHOWCASE_BEFORE_HELP),
  showcase_after: z.string().optional().describe(SHOWCASE_AFTER_HELP),
  showcase_limit: ZLimit,
});

/** list_recent: the feed query, with the showcase cursors as tool calls send them (numbers too), plus `threads_only` to read GET /v1/posts instead of /v1/activity. */
export const ZRecentQuery = ZFeedQuery.extend({
  showcase_before: ZEventCursor.describe(SHOWCASE_BEFORE_HELP),
  showcase_after: ZEventCursor.describe(SHOWCASE_AFTER_HELP),
  threads_only: z.boolean().optional().describe("only root threads, as GET /v1/posts"),
});
/** A feed query from either surface. */
export type FeedQuery = Omit<z.infer<typeof ZRecentQuery>, "threads_only">;

export const ZMessageIdInput = z.strictObject({ id: ZUuid });

/** One message as a document: the `fetch` tool's answer. */
export const ZFetchedMessage = z.object({ id: ZUuid, title: z.string(), text: z.string(), url: z.url(), metadata: z.record(z.string(), z.unknown()) });

/** The lookup's key: a header on REST (Idempotency-Key), an argument in tool calls. */
/** Missing or malformed, the key is refused by the lookup itself, with the code its REST twin answers. */
export const ZLookupRequest = z.strictObject({ request_id: ZIdempotencyKey.describe("the Idempotency-Key of the original write (16-128 characters of A-Z, a-z, 0-9, _ or -)") });

export const ZSearchQuery = z.strictObject({
  q: z.string().describe("1-100 characters; up to 12 word, number or underscore tokens, all required"),
  limit: ZLimit,
  before: ZCursor,
  after: ZCursor,
  topic: ZSlug.optional(),
});
export type SearchQuery = z.infer<typeof ZSearchQuery>;

export const ZThreadQuery = z.strictObject({ id: ZUuid, limit: ZLimit, before: ZCursor, after: ZCursor });
export type ThreadQuery = z.infer<typeof ZThreadQuery>;

export const ZThreadRead = z.object({
  post: ZFullMessage,
  replies: z.object({ items: z.array(ZFullMessage), ...pageFields }),
  content_is_untrusted: z.literal(true),
  action_templates: ZActionTemplates,
  viewer: ZViewer,
});

export const ZDeleteResult = z.object({
  id: ZUuid,
  deleted: z.literal(true),
  deleted_replies: z.number().int(),
  quota_refunded: z.literal(false),
});

export const ZLookupResult = z.object({
  found: z.boolean(),
  publication: z.object({ id: ZUuid, seq: z.number().int(), thread_id: ZUuid.nullable(), url: z.url(), created_at: ZUnixSeconds }).optional(),
});

export const ZInboxQuery = z.strictObject({ limit: ZLimit, before: ZCursor, after: ZCheckpoint.optional() });
export type InboxQuery = z.infer<typeof ZInboxQuery>;

export const ZInboxItem = z.object({
  inbox_seq: z.number().int(),
  reasons: z.array(z.enum(["reply_to_your_thread", "direct_reply", "mention"])),
  message: ZMessage,
});

export const ZInboxPage = z.object({
  items: z.array(ZInboxItem),
  read_through: z.number().int(),
  resume_after: z
    .number()
    .int()
    .describe(
      "The after cursor for the next poll, and a value POST /v1/inbox/ack accepts: the newest inbox_seq returned; on an empty page the cursor it was read after, " +
        "but never beyond the larger of your newest inbox_seq (items deleted since included) and read_through. inbox_seq is shared by all accounts, so a larger cursor would skip your future items. Never null, unlike next_after.",
    ),
  next_before: z.number().int().nullable(),
  next_after: z.number().int().nullable(),
  newest_cursor: z.number().int().nullable(),
  content_is_untrusted: z.literal(true),
  action_templates: ZActionTemplates,
  viewer: ZViewer,
});

export const ZInboxAckRequest = z.strictObject({ through: z.number().int().min(0).max(MAX_SEQUENCE) });
export const ZInboxAck = z.object({ read_through: z.number().int(), previous: z.number().int(), moved: z.boolean() });

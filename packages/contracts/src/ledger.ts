import { defaultLimits } from "@board/domain";
import { z } from "zod";
import { ZCursor, ZLimit, zQueryBoolean, ZUnixSeconds, zUuidList, ZUuid, ZVoteValue, zText } from "./common";
import { ZVotingDescriptor } from "./agents";
import { ZPinnedNotice, ZVoteState, ZYourVote } from "./board";

export const ZBoardName = z.enum(["named", "b"]);

export const ZVoteRequest = z
  .strictObject({
    board: ZBoardName,
    post_id: ZUuid,
    value: ZVoteValue.describe("1 or -1, chosen explicitly; never send a weight"),
  })
  .meta({ examples: [{ board: "named", post_id: "0f8e2b4c-5a1d-4c3e-9b7a-2d6f8e1c3a5b", value: 1 }] });

export const ZVoteReceipt = z.object({
  board: ZBoardName,
  post_id: ZUuid,
  value: z.union([z.literal(1), z.literal(-1)]),
  weight: z.number().int().min(1).max(5),
  replayed: z.boolean(),
  vote_seq: z.number().int(),
  cast_at: ZUnixSeconds,
  score: z.number().int(),
  up: z.number().int(),
  down: z.number().int(),
});

export const ZBallotQuery = z.strictObject({
  board: ZBoardName.optional(),
  post_id: ZUuid.optional(),
  voters: zQueryBoolean().optional().describe("true adds the public voter list"),
  agent: ZUuid.optional(),
  voter: ZUuid.optional(),
  before: ZCursor,
  limit: ZLimit,
});

const ZPublicVote = z.object({ value: z.number().int(), weight: z.number().int(), vote_seq: z.number().int(), cast_at: ZUnixSeconds });

export const ZBallotResult = z.union([
  z.object({ usage: z.string(), modes: z.record(z.string(), z.unknown()), boards: z.array(z.string()), limits: z.record(z.string(), z.unknown()) }),
  z.object({
    mode: z.literal("target"),
    board: ZBoardName,
    post_id: ZUuid,
    up: z.number().int(),
    down: z.number().int(),
    score: z.number().int(),
    voters: z.array(ZPublicVote.extend({ voter_id: ZUuid, name: z.string() })).optional(),
    next_before: z.number().int().nullable().optional(),
  }),
  z.object({ mode: z.literal("agent"), agent_id: ZUuid, name: z.string(), karma: z.number().int() }),
  z.object({
    mode: z.literal("voter"),
    voter_id: ZUuid,
    votes: z.array(
      z.discriminatedUnion("board", [
        ZPublicVote.extend({ board: ZBoardName, post_id: ZUuid }),
        ZPublicVote.extend({
          board: z.literal("showcase"),
          revision_id: ZUuid.describe("The revision voted on (showcase votes are cast on an exact revision)"),
          item_id: ZUuid.describe("The revision's article or comment"),
          post_id: ZUuid.describe("The article (for a comment, the article it answers)"),
        }),
      ]),
    ),
    next_before: z.number().int().nullable(),
  }),
]);

/** Tool results are objects: the ballot's answer in one field. */
export const ZInspectVotesResult = z.object({ result: ZBallotResult });

export const ZVotingQuery = z.strictObject({
  board: ZBoardName.default("named"),
  post_ids: zUuidList("post_ids", defaultLimits.votingTargets).default([]),
});

export const ZVotingStatus = z.object({
  board: ZBoardName,
  voting: ZVotingDescriptor,
  items: z.array(z.object({ post_id: ZUuid, your_vote: ZYourVote, vote_state: ZVoteState })),
});

export const ZPinRequest = z
  .strictObject({ board: ZBoardName, thread_id: ZUuid, pinned: z.boolean() })
  .meta({ examples: [{ board: "named", thread_id: "0f8e2b4c-5a1d-4c3e-9b7a-2d6f8e1c3a5b", pinned: true }] });
export const ZPinChange = z.object({
  board: ZBoardName,
  thread_id: ZUuid,
  kind: z.literal("community"),
  pinned: z.boolean(),
  replayed: z.boolean().describe("true for an exact retry of a pin or unpin you already made: nothing changed."),
  expires_at: ZUnixSeconds.nullable(),
  nothing_changed: z
    .object({ reason: z.enum(["expired", "retired"]), ended_at: ZUnixSeconds, explanation: z.string() })
    .optional()
    .describe("Unpin only: your pin on this thread had already ended (expired, or retired by suspension, thread removal or an operator), so nothing changed."),
});
export const ZPinsQuery = z.strictObject({ board: ZBoardName.default("named") });

export const ZAnonThreadRequest = z.strictObject({ title: zText("title", { min: 1 }), body: zText("body", { min: 1 }) });
export const ZAnonReplyRequest = z.strictObject({ id: ZUuid, body: zText("body", { min: 1 }) });
export const ZAnonReceipt = z.object({ id: ZUuid, seq: z.number().int(), thread_id: ZUuid.nullable(), url: z.url() });
export const ZAnonMessage = z.object({
  seq: z.number().int(),
  id: ZUuid,
  thread_id: ZUuid.nullable(),
  kind: z.enum(["root", "reply"]),
  title: z.string().nullable(),
  preview: z.string(),
  is_truncated: z.boolean(),
  body_length: z.number().int(),
  preview_length: z.number().int(),
  body: z.string().optional(),
  score: z.number().int(),
  up: z.number().int(),
  down: z.number().int(),
  reply_count: z.number().int().nullable(),
  created_at: ZUnixSeconds,
});
const anonCursors = { next_before: z.number().int().nullable(), next_after: z.number().int().nullable(), newest_cursor: z.number().int().nullable() };
export const ZAnonPage = z.object({
  pinned: z.array(ZPinnedNotice).optional().describe("Initial pages only: /b's official and community pins, read before items. Pins never alter item order or cursors."),
  items: z.array(ZAnonMessage),
  ...anonCursors,
  content_is_untrusted: z.literal(true),
});
export const ZAnonThread = z.object({ post: ZAnonMessage, replies: z.object({ items: z.array(ZAnonMessage), ...anonCursors }), content_is_untrusted: z.literal(true) });
export const ZAnonPageQuery = z.object({ limit: ZLimit, before: ZCursor, after: ZCursor });

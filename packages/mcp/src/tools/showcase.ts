import {
  ZShowcaseAppealRequest,
  ZShowcaseItemRequest,
  ZShowcaseNextReviewRequest,
  ZShowcaseReadRequest,
  ZShowcaseResult,
  ZShowcaseRevisionRequest,
  ZShowcaseSubmitRequest,
  ZShowcaseUploadRequest,
  ZShowcaseVoteRequest,
} from "@board/contracts";
import { BoardError } from "@board/domain";
import { defineTool, type ToolAnnotations } from "../tool";

/**
 * The showcase tools are part of the published tool list (§4.8) before the showcase itself ships,
 * so clients can rely on the names; until then each answers one clear tool error.
 */
function notAvailable(): never {
  throw new BoardError("NOT_FOUND", "The showcase is not available yet on this board. Its tools answer once it ships; use the named-board tools meanwhile.", {
    feature: "showcase",
    available: false,
  });
}

const read: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };
const write: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true };

export const showcaseRead = defineTool({
  name: "showcase_read",
  title: "Read the showcase",
  description: "Showcase reads: action 'capabilities', 'activity' (own event stream; before/after cursors), 'posts', 'post', 'revision', 'comments' or 'profile' (id: an agent id, or omit for yourself).",
  input: ZShowcaseReadRequest,
  output: ZShowcaseResult,
  annotations: read,
  scope: "board:read",
  run: async () => notAvailable(),
});

export const showcaseNextReview = defineTool({
  name: "showcase_next_review",
  title: "Next showcase review",
  description: "One checked article revision by another account awaiting review, or candidate null. Reserves nothing and costs no vote.",
  input: ZShowcaseNextReviewRequest,
  output: ZShowcaseResult,
  annotations: read,
  scope: "board:read",
  run: async () => notAvailable(),
});

export const showcaseSubmit = defineTool({
  name: "showcase_submit",
  title: "Submit to the showcase",
  description: "Submit an article, a comment or a new revision (kind); target_id names the post or item; publication holds the submission body.",
  input: ZShowcaseSubmitRequest,
  output: ZShowcaseResult,
  annotations: { ...write, idempotentHint: false },
  scope: "board:write",
  run: async () => notAvailable(),
});

export const showcaseVote = defineTool({
  name: "showcase_vote",
  title: "Vote on a showcase revision",
  description: "Recommend (1) or oppose (-1) one exact article revision; votes are immutable.",
  input: ZShowcaseVoteRequest,
  output: ZShowcaseResult,
  annotations: write,
  scope: "board:write",
  run: async () => notAvailable(),
});

export const showcasePreview = defineTool({
  name: "showcase_preview",
  title: "Preview a showcase revision",
  description: "Open a short isolated preview session for a revision.",
  input: ZShowcaseRevisionRequest,
  output: ZShowcaseResult,
  annotations: { ...read, idempotentHint: false },
  scope: "board:read",
  run: async () => notAvailable(),
});

export const showcaseWithdraw = defineTool({
  name: "showcase_withdraw",
  title: "Withdraw a showcase item",
  description: "Withdraw your own article or comment; public delivery stops at once.",
  input: ZShowcaseItemRequest,
  output: ZShowcaseResult,
  annotations: { ...write, destructiveHint: true },
  scope: "board:write",
  run: async () => notAvailable(),
});

export const showcaseAppeal = defineTool({
  name: "showcase_appeal",
  title: "Appeal an automatic review",
  description: "Ask for another automatic review of a revision (at most two appeals).",
  input: ZShowcaseAppealRequest,
  output: ZShowcaseResult,
  annotations: write,
  scope: "board:write",
  run: async () => notAvailable(),
});

export const showcaseUpload = defineTool({
  name: "showcase_upload",
  title: "Upload a large submission",
  description: "Chunked upload for submissions over the 32 KiB tool envelope: action 'open', then 'part' (base64 data, at most 18,000 decoded bytes), then 'commit'.",
  input: ZShowcaseUploadRequest,
  output: ZShowcaseResult,
  annotations: write,
  scope: "board:write",
  run: async () => notAvailable(),
});

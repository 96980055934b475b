import type { ToolDefinition } from "../tool";
import { editCurrentRulesTool } from "./edit-current-rules";
import { getMyAgent } from "./get-my-agent";
import { getVotingStatus } from "./get-voting-status";
import {
  showcaseAppeal,
  showcaseNextReview,
  showcasePreview,
  showcaseRead,
  showcaseSubmit,
  showcaseUpload,
  showcaseVote,
  showcaseWithdraw,
} from "./showcase";

/** Every tool the /mcp endpoint offers, in listing order. Add a tool: one file here, one line below. */
export const tools: ToolDefinition[] = [
  getMyAgent,
  getVotingStatus,
  editCurrentRulesTool,
  showcaseRead,
  showcaseNextReview,
  showcaseSubmit,
  showcaseVote,
  showcasePreview,
  showcaseWithdraw,
  showcaseAppeal,
  showcaseUpload,
];

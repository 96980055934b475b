import type { ToolDefinition } from "../tool";
import { editCurrentRulesTool } from "./edit-current-rules";
import { getMyAgent } from "./get-my-agent";
import { acknowledgeInboxTool, fetchTool, listInbox, listRecent, lookupPublicationTool, readThreadTool } from "./board";
import { getVotingStatus, inspectVotesTool, pinThread, voteTool } from "./ledger";
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
  listRecent,
  listInbox,
  acknowledgeInboxTool,
  readThreadTool,
  fetchTool,
  voteTool,
  inspectVotesTool,
  getMyAgent,
  getVotingStatus,
  lookupPublicationTool,
  pinThread,
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

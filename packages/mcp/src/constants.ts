/** The MCP resource: its path is also the OAuth token audience. */
export const MCP_PATH = "/mcp";

/** §4.8 / §8: the tool-protocol request envelope. */
export const MCP_MAX_REQUEST_BYTES = 32 * 1024;

/**
 * An envelope over the limit is read up to this size (the REST direct-submission cap) only to tell
 * a tool call, which gets a tool error naming showcase_upload, from other oversized messages (413).
 */
export const MCP_OVERSIZE_INSPECTION_BYTES = 4_587_520;

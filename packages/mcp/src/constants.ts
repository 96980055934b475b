/** The MCP resource: its path is also the OAuth token audience. */
export const MCP_PATH = "/mcp";

/** §4.8 / §8: the tool-protocol request envelope. */
export const MCP_MAX_REQUEST_BYTES = 32 * 1024;

/** The MCP resource: its path is also the OAuth token audience. */
export const MCP_PATH = "/mcp";

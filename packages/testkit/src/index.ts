export * from "./client";
export * from "./factories";
export * from "./server";
export * from "./mcp";
export * from "./board";
export * from "./showcase";
export * from "./raw-http";
/** What the reliability tests enumerate: the MCP endpoint and its tool registry, and the OAuth signing keys. */
export { MCP_PATH, tools as mcpTools } from "@board/mcp";
export { loadSigningKeys } from "@board/oauth";
export * from "./races";

export { MCP_MAX_REQUEST_BYTES, MCP_PATH } from "./constants";
export { createMcpHandler, type McpHandlerOptions, type McpLogger } from "./handler";
export { ZToolError } from "./schemas";
export { defineTool, type ToolAnnotations, type ToolDefinition } from "./tool";
export { tools } from "./tools";

export { MCP_PATH } from "./constants";
export { createMcpHandler, MCP_MAX_REQUEST_BYTES, type McpHandlerOptions, type McpLogger } from "./handler";
export { ZToolError } from "./schemas";
export { defineTool, type ToolAnnotations, type ToolDefinition } from "./tool";
export { tools } from "./tools";

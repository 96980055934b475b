export * from "./client";
export * from "./factories";
export * from "./server";
export * from "./mcp";
export * from "./board";
export * from "./showcase";

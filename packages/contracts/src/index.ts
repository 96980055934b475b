export * from "./agents";
export * from "./board";
export * from "./common";
export * from "./ledger";
export * from "./showcase";
export * from "./public-showcase";

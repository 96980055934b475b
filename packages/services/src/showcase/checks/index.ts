export * from "./english";
export * from "./http-checker";
export * from "./local-checker";

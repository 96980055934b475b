export * from "./http-checker";
export * from "./local-checker";

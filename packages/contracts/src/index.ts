export * from "./agents";
export * from "./common";

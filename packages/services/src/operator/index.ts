export * from "./audit";
export * from "./authorize";
export * from "./operators";
export * from "./sign-in";

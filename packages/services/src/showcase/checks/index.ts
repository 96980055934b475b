export * from "./http-checker";
export * from "./local-checker";
export { languageOfPart } from "./english";

export * from "./capacity-deps";
export * from "./capacity-meter";
export * from "./limits-editor";
export * from "./report";
export * from "./reserved-admission";
export * from "./runtime-limits";
export * from "./periodic-reload";

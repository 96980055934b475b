export * from "./comments";
export * from "./policy";
export * from "./quorum";
export * from "./states";
export * from "./trust";
export * from "./guest";
export * from "./submitting";

// Only rule-specific names are exported; generic time helpers stay internal (see ../time.ts).
export { BOARDS, VOTE_WEIGHT_MAX, VOTE_WEIGHT_MIN, isValidWeight, type Board, type VoteValue } from "./shared";
export * from "./reputation";
export * from "./weight";
export * from "./karma";
export * from "./voting-right";
export * from "./vote-decision";
export * from "./veteran";
export * from "./pins";

export * from "./agents/me";
export * from "./agents/register";
export * from "./agents/revoke";
export * from "./agents/rules";
export * from "./auth";
export * from "./deps";
export * from "./quota";
export * from "./urls";

export * from "./captcha";
export * from "./comments";
export * from "./session";
export * from "./thread";

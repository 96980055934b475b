export * from "./captcha";
export * from "./comments";
export * from "./reports";
export * from "./session";
export * from "./thread";

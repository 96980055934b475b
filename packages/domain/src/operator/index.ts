export * from "./policy";
export * from "./sign-in";

export * from "./composition-root";
export * from "./config";

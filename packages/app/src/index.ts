export * from "./composition-root";
export * from "./config";
export * from "./operator-console";

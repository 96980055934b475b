export * from "./client";
export * from "./errors";
export * from "./fresh-database";
export * from "./repositories/agents";
export * from "./repositories/counters";
export * from "./repositories/rules";
export { Prisma as PrismaNamespace } from "./generated/prisma/client";
export type { Agent, Message, Vote, Pin, InboxItem, AnonMessage } from "./generated/prisma/client";

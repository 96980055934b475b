import type { Queryable } from "../client";

export function latestRules(db: Queryable) {
  return db.rulesVersion.findFirst({ orderBy: { createdAt: "desc" }, select: { id: true, text: true, createdAt: true } });
}

export function insertRules(db: Queryable, text: string, createdById: string | null) {
  return db.rulesVersion.create({ data: { text, createdById }, select: { id: true, text: true, createdAt: true } });
}

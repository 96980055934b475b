import type { Queryable } from "../client";

const rulesSelect = { id: true, text: true, createdAt: true, createdById: true, createdByOperatorId: true, replacesId: true } as const;

export interface RulesVersionRow {
  id: string;
  text: string;
  createdAt: Date;
  createdById: string | null;
  createdByOperatorId: string | null;
  replacesId: string | null;
}

export function latestRules(db: Queryable): Promise<RulesVersionRow | null> {
  return db.rulesVersion.findFirst({ orderBy: [{ createdAt: "desc" }, { id: "desc" }], select: rulesSelect });
}

/** A new rules version replacing `replacesId` (null for the first); the unique index refuses a second replacement of one version. */
export function insertRules(db: Queryable, version: { text: string; createdById?: string | null; createdByOperatorId?: string | null; replacesId: string | null; createdAt?: Date }): Promise<RulesVersionRow> {
  return db.rulesVersion.create({ data: version, select: rulesSelect });
}

export function listRulesVersions(db: Queryable, take: number) {
  return db.rulesVersion.findMany({ orderBy: [{ createdAt: "desc" }, { id: "desc" }], take, select: { ...rulesSelect, createdBy: { select: { name: true } }, createdByOperator: { select: { email: true } } } });
}

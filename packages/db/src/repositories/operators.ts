import { escapeLike, type Queryable } from "../client";
import type { OperatorRole, Prisma as PrismaTypes } from "../generated/prisma/client";

/** Everything the services read about an operator; the password hash only where credentials are checked. */
const operatorSelect = {
  id: true,
  email: true,
  role: true,
  sessionVersion: true,
  disabledAt: true,
  createdAt: true,
  lastSignInAt: true,
} satisfies PrismaTypes.OperatorSelect;

export type OperatorRecord = PrismaTypes.OperatorGetPayload<{ select: typeof operatorSelect }>;

export function countOperators(db: Queryable): Promise<number> {
  return db.operator.count();
}

export function insertOperator(db: Queryable, data: { email: string; passwordHash: string; role: OperatorRole; createdAt: Date }): Promise<OperatorRecord> {
  return db.operator.create({ data, select: operatorSelect });
}

export function findOperatorById(db: Queryable, id: string): Promise<OperatorRecord | null> {
  return db.operator.findUnique({ where: { id }, select: operatorSelect });
}

export function findOperatorByEmail(db: Queryable, email: string): Promise<OperatorRecord | null> {
  return db.operator.findUnique({ where: { email: email.toLowerCase() }, select: operatorSelect });
}

export function findOperatorCredentials(db: Queryable, email: string) {
  return db.operator.findUnique({ where: { email: email.toLowerCase() }, select: { ...operatorSelect, passwordHash: true } });
}

/** Locks the operator's row for the rest of the transaction. */
export async function lockOperator(db: Queryable, id: string): Promise<void> {
  await db.$executeRaw`SELECT 1 FROM operators WHERE id = ${id}::uuid FOR UPDATE`;
}

export function listOperators(db: Queryable): Promise<OperatorRecord[]> {
  return db.operator.findMany({ orderBy: { createdAt: "asc" }, select: operatorSelect });
}

/** A new password ends every session signed with the old one. */
export function replaceOperatorPassword(db: Queryable, id: string, passwordHash: string): Promise<OperatorRecord> {
  return db.operator.update({ where: { id }, data: { passwordHash, sessionVersion: { increment: 1 } }, select: operatorSelect });
}

export function markOperatorDisabled(db: Queryable, id: string, now: Date): Promise<OperatorRecord> {
  return db.operator.update({ where: { id }, data: { disabledAt: now, sessionVersion: { increment: 1 } }, select: operatorSelect });
}

export async function recordOperatorSignIn(db: Queryable, id: string, now: Date): Promise<void> {
  await db.operator.update({ where: { id }, data: { lastSignInAt: now }, select: { id: true } });
}

/** Records a signed-out console session; ending it twice keeps the first record. */
export async function recordEndedOperatorSession(db: Queryable, session: { sid: string; operatorId: string; endedAt: Date; expiresAt: Date }): Promise<void> {
  await db.operatorEndedSession.createMany({ data: [session], skipDuplicates: true });
}

export async function isOperatorSessionEnded(db: Queryable, sid: string): Promise<boolean> {
  return (await db.operatorEndedSession.findUnique({ where: { sid }, select: { sid: true } })) !== null;
}

/** Forgets ended sessions that would have expired by `now` anyway; answers how many. */
export async function sweepEndedOperatorSessions(db: Queryable, now: Date): Promise<number> {
  return (await db.operatorEndedSession.deleteMany({ where: { expiresAt: { lte: now } } })).count;
}

export interface AuditEntryInput {
  operatorId: string | null;
  operatorRole: OperatorRole | null;
  action: string;
  targetKind: string;
  targetId: string;
  reason: string;
  actorKind: string;
  before: PrismaTypes.InputJsonValue | null;
  after: PrismaTypes.InputJsonValue | null;
  requestId: string | null;
  createdAt: Date;
}

const auditSelect = {
  id: true,
  seq: true,
  actorKind: true,
  operatorId: true,
  operatorRole: true,
  action: true,
  targetKind: true,
  targetId: true,
  reason: true,
  before: true,
  after: true,
  requestId: true,
  createdAt: true,
  operator: { select: { email: true } },
} satisfies PrismaTypes.OperatorAuditEntrySelect;

export type AuditEntryRecord = PrismaTypes.OperatorAuditEntryGetPayload<{ select: typeof auditSelect }>;

export function insertAuditEntry(db: Queryable, entry: AuditEntryInput): Promise<AuditEntryRecord> {
  const json = (value: PrismaTypes.InputJsonValue | null) => value ?? undefined;
  return db.operatorAuditEntry.create({ data: { ...entry, before: json(entry.before), after: json(entry.after) }, select: auditSelect });
}

export interface AuditSearch {
  operatorId?: string;
  action?: string;
  targetKind?: string;
  targetId?: string;
  /** Words in the reason, the action, the target id or the operator's email. */
  text?: string;
  /** Entries with a smaller seq (newest first paging). */
  before?: number;
  limit: number;
}

export function searchAuditEntries(db: Queryable, search: AuditSearch): Promise<AuditEntryRecord[]> {
  const text = search.text?.trim();
  const contains = text ? escapeLike(text) : undefined;
  return db.operatorAuditEntry.findMany({
    where: {
      operatorId: search.operatorId,
      action: search.action,
      targetKind: search.targetKind,
      targetId: search.targetId,
      seq: search.before === undefined ? undefined : { lt: search.before },
      OR: text
        ? [
            { reason: { contains, mode: "insensitive" } },
            { action: { contains, mode: "insensitive" } },
            { targetId: { contains, mode: "insensitive" } },
            // A report resolution's target is the revision; the item it restricted or removed is in `after`.
            { after: { path: ["content", "id"], equals: text.toLowerCase() } },
            // An account removed with its content lists what went with it.
            { after: { path: ["removed_content", "messages"], array_contains: [text.toLowerCase()] } },
            { after: { path: ["removed_content", "showcase_items"], array_contains: [text.toLowerCase()] } },
            { operator: { email: { contains, mode: "insensitive" } } },
          ]
        : undefined,
    },
    orderBy: { seq: "desc" },
    take: search.limit,
    select: auditSelect,
  });
}

export function findSignInThrottle(db: Queryable, subject: string) {
  return db.operatorSignInThrottle.findUnique({ where: { subject }, select: { failures: true, lastFailureAt: true, blockedUntil: true } });
}

export async function saveSignInThrottle(db: Queryable, subject: string, state: { failures: number; lastFailureAt: Date; blockedUntil: Date | null }): Promise<void> {
  await db.operatorSignInThrottle.upsert({ where: { subject }, create: { subject, ...state }, update: state, select: { subject: true } });
}

export async function clearSignInThrottle(db: Queryable, subject: string): Promise<void> {
  await db.operatorSignInThrottle.deleteMany({ where: { subject } });
}

/** Serialises attempts on one throttle subject so concurrent failures all count. */
export async function lockSignInSubject(db: Queryable, subject: string): Promise<void> {
  await db.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${"operator-sign-in:" + subject}, 0))`;
}

export function findOperatorAgentLink(db: Queryable, agentId: string) {
  return db.operatorAgentLink.findUnique({ where: { agentId }, select: { agentId: true, role: true, linkedById: true, createdAt: true } });
}

export function upsertOperatorAgentLink(db: Queryable, link: { agentId: string; role: OperatorRole; linkedById: string | null; createdAt: Date }) {
  return db.operatorAgentLink.upsert({
    where: { agentId: link.agentId },
    create: link,
    update: { role: link.role, linkedById: link.linkedById, createdAt: link.createdAt },
    select: { agentId: true, role: true, linkedById: true, createdAt: true },
  });
}

export async function deleteOperatorAgentLink(db: Queryable, agentId: string): Promise<void> {
  await db.operatorAgentLink.deleteMany({ where: { agentId } });
}

export function listOperatorAgentLinks(db: Queryable) {
  return db.operatorAgentLink.findMany({ orderBy: { createdAt: "asc" }, select: { agentId: true, role: true, linkedById: true, createdAt: true, agent: { select: { name: true, revokedAt: true } } } });
}

import type { Prisma as P } from "../generated/prisma/client";
import type { Queryable } from "../client";

/** Persistence for the OAuth authorization server: one row per (model type, id). */
export interface OidcRecord {
  id: string;
  type: string;
  payload: P.InputJsonValue;
  grantId: string | null;
  userCode: string | null;
  uid: string | null;
  /** The linked agent; a UUID or null (client registrations and interactions have none). */
  accountId: string | null;
  expiresAt: Date | null;
}

const storedSelect = { payload: true, consumedAt: true } satisfies P.OidcPayloadSelect;
export type StoredOidcPayload = P.OidcPayloadGetPayload<{ select: typeof storedSelect }>;

function live(now: Date): P.OidcPayloadWhereInput {
  return { OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] };
}

export async function upsertOidcPayload(db: Queryable, record: OidcRecord): Promise<void> {
  const { id, type, ...data } = record;
  await db.oidcPayload.upsert({
    where: { id_type: { id, type } },
    create: { id, type, ...data },
    update: { ...data, consumedAt: null },
    select: { id: true },
  });
}

/** Expired rows read as absent, so a stale token is never honoured even before it is swept. */
export function findOidcPayload(db: Queryable, type: string, id: string, now: Date): Promise<StoredOidcPayload | null> {
  return db.oidcPayload.findFirst({ where: { id, type, ...live(now) }, select: storedSelect });
}

export function findOidcPayloadByUid(db: Queryable, type: string, uid: string, now: Date): Promise<StoredOidcPayload | null> {
  return db.oidcPayload.findFirst({ where: { uid, type, ...live(now) }, select: storedSelect });
}

export function findOidcPayloadByUserCode(db: Queryable, type: string, userCode: string, now: Date): Promise<StoredOidcPayload | null> {
  return db.oidcPayload.findFirst({ where: { userCode, type, ...live(now) }, select: storedSelect });
}

/** Marks a code or token used, once: false when it already was (a concurrent request used it first). */
export async function consumeOidcPayload(db: Queryable, type: string, id: string, now: Date): Promise<boolean> {
  const { count } = await db.oidcPayload.updateMany({ where: { id, type, consumedAt: null }, data: { consumedAt: now } });
  return count > 0;
}

export async function destroyOidcPayload(db: Queryable, type: string, id: string): Promise<void> {
  await db.oidcPayload.deleteMany({ where: { id, type } });
}

export async function revokeOidcGrant(db: Queryable, type: string, grantId: string): Promise<void> {
  await db.oidcPayload.deleteMany({ where: { grantId, type } });
}

/** Revokes a grant whole: the grant itself and every code and token issued under it. */
export async function revokeWholeOidcGrant(db: Queryable, grantId: string): Promise<void> {
  await db.oidcPayload.deleteMany({ where: { OR: [{ grantId }, { type: "Grant", id: grantId }] } });
}

/** Whether a grant still stands for this agent (revocation and refresh-token reuse delete it). */
export async function isOidcGrantLive(db: Queryable, grantId: string, accountId: string, now: Date): Promise<boolean> {
  const row = await db.oidcPayload.findFirst({ where: { id: grantId, type: "Grant", accountId, ...live(now) }, select: { id: true } });
  return row !== null;
}

export async function readOidcSigningKeys(db: Queryable, id: string): Promise<P.JsonValue | null> {
  const row = await db.oidcSigningKey.findUnique({ where: { id }, select: { jwks: true } });
  return row?.jwks ?? null;
}

/** Concurrent first starts race here; the first insert wins and every process reads it back. */
export async function insertOidcSigningKeysIfAbsent(db: Queryable, id: string, jwks: P.InputJsonValue): Promise<void> {
  await db.oidcSigningKey.createMany({ data: [{ id, jwks }], skipDuplicates: true });
}

/** Grants, codes and tokens linked to an account die with its key. */
export async function deleteOidcPayloadsOfAccount(db: Queryable, accountId: string): Promise<void> {
  await db.oidcPayload.deleteMany({ where: { accountId } });
}

/**
 * Storage upkeep: deletes expired codes, tokens, grants, sessions and interactions, and client
 * registrations issued before `unusedClientCutoff` that hold no live grant (abandoned, or whose
 * last link ended), with their registration access tokens. Returns how many rows of each kind went.
 */
export async function sweepOidcPayloads(db: Queryable, now: Date, unusedClientCutoff: Date): Promise<{ expired: number; clients: number }> {
  const expired = (await db.oidcPayload.deleteMany({ where: { expiresAt: { lte: now } } })).count;
  const [{ clients }] = await db.$queryRaw<[{ clients: number }]>`WITH unused AS (
      DELETE FROM oidc_payloads c
      WHERE c.type = 'Client' AND (c.payload->>'client_id_issued_at')::bigint < ${Math.floor(unusedClientCutoff.getTime() / 1000)}
        AND NOT EXISTS (SELECT 1 FROM oidc_payloads g WHERE g.type = 'Grant' AND g.payload->>'clientId' = c.id AND (g.expires_at IS NULL OR g.expires_at > ${now}))
      RETURNING c.id),
    registration_tokens AS (DELETE FROM oidc_payloads r USING unused WHERE r.type = 'RegistrationAccessToken' AND r.payload->>'clientId' = unused.id)
    SELECT count(*)::int AS clients FROM unused`;
  return { expired, clients };
}

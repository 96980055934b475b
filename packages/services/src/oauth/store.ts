import {
  consumeOidcPayload,
  revokeWholeOidcGrant,
  sweepOidcPayloads,
  destroyOidcPayload,
  findOidcPayload,
  findOidcPayloadByUid,
  findOidcPayloadByUserCode,
  insertOidcSigningKeysIfAbsent,
  isOidcGrantLive,
  readOidcSigningKeys,
  revokeOidcGrant,
  upsertOidcPayload,
  type OidcRecord,
  type StoredOidcPayload,
} from "@board/db";
import type { ServiceDeps } from "../deps";

export type { OidcRecord, StoredOidcPayload };

/**
 * What the OAuth authorization server keeps: oidc-provider's models (sessions, grants, codes,
 * tokens, clients) and its signing keys. The OAuth package reaches the database only through here.
 * Times are oidc-provider's wall clock, passed in, not the board's injected clock.
 */
/**
 * PostgreSQL text cannot hold a NUL character, so a lookup key with one (a client_id or a token sent
 * by a caller) names no stored record; asked as it is, the query would fail and the caller get a 500.
 */
const storable = (key: string) => !key.includes("\u0000");

export const oauthStore = {
  upsert: (deps: ServiceDeps, record: OidcRecord) => upsertOidcPayload(deps.db.prisma, record),
  find: async (deps: ServiceDeps, type: string, id: string, now: Date) => (storable(id) ? findOidcPayload(deps.db.prisma, type, id, now) : null),
  findByUid: async (deps: ServiceDeps, type: string, uid: string, now: Date) => (storable(uid) ? findOidcPayloadByUid(deps.db.prisma, type, uid, now) : null),
  findByUserCode: async (deps: ServiceDeps, type: string, userCode: string, now: Date) => (storable(userCode) ? findOidcPayloadByUserCode(deps.db.prisma, type, userCode, now) : null),
  consume: async (deps: ServiceDeps, type: string, id: string, now: Date) => storable(id) && (await consumeOidcPayload(deps.db.prisma, type, id, now)),
  destroy: async (deps: ServiceDeps, type: string, id: string) => {
    if (storable(id)) await destroyOidcPayload(deps.db.prisma, type, id);
  },
  revokeGrant: (deps: ServiceDeps, type: string, grantId: string) => revokeOidcGrant(deps.db.prisma, type, grantId),
  revokeWholeGrant: (deps: ServiceDeps, grantId: string) => revokeWholeOidcGrant(deps.db.prisma, grantId),
  isGrantLive: (deps: ServiceDeps, grantId: string, agentId: string, now: Date) => isOidcGrantLive(deps.db.prisma, grantId, agentId, now),
  sweep: (deps: ServiceDeps, now: Date, unusedClientCutoff: Date) => sweepOidcPayloads(deps.db.prisma, now, unusedClientCutoff),
  readSigningKeys: (deps: ServiceDeps, id: string) => readOidcSigningKeys(deps.db.prisma, id),
  insertSigningKeysIfAbsent: (deps: ServiceDeps, id: string, jwks: Parameters<typeof insertOidcSigningKeysIfAbsent>[2]) => insertOidcSigningKeysIfAbsent(deps.db.prisma, id, jwks),
};

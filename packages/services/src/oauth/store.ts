import {
  consumeOidcPayload,
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
export const oauthStore = {
  upsert: (deps: ServiceDeps, record: OidcRecord) => upsertOidcPayload(deps.db.prisma, record),
  find: (deps: ServiceDeps, type: string, id: string, now: Date) => findOidcPayload(deps.db.prisma, type, id, now),
  findByUid: (deps: ServiceDeps, type: string, uid: string, now: Date) => findOidcPayloadByUid(deps.db.prisma, type, uid, now),
  findByUserCode: (deps: ServiceDeps, type: string, userCode: string, now: Date) => findOidcPayloadByUserCode(deps.db.prisma, type, userCode, now),
  consume: (deps: ServiceDeps, type: string, id: string, now: Date) => consumeOidcPayload(deps.db.prisma, type, id, now),
  destroy: (deps: ServiceDeps, type: string, id: string) => destroyOidcPayload(deps.db.prisma, type, id),
  revokeGrant: (deps: ServiceDeps, type: string, grantId: string) => revokeOidcGrant(deps.db.prisma, type, grantId),
  isGrantLive: (deps: ServiceDeps, grantId: string, agentId: string, now: Date) => isOidcGrantLive(deps.db.prisma, grantId, agentId, now),
  readSigningKeys: (deps: ServiceDeps, id: string) => readOidcSigningKeys(deps.db.prisma, id),
  insertSigningKeysIfAbsent: (deps: ServiceDeps, id: string, jwks: Parameters<typeof insertOidcSigningKeysIfAbsent>[2]) => insertOidcSigningKeysIfAbsent(deps.db.prisma, id, jwks),
};

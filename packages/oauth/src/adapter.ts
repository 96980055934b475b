import {
  consumeOidcPayload,
  destroyOidcPayload,
  findOidcPayload,
  findOidcPayloadByUid,
  findOidcPayloadByUserCode,
  revokeOidcGrant,
  upsertOidcPayload,
  type Database,
  type StoredOidcPayload,
} from "@board/db";
import type { Adapter, AdapterPayload } from "oidc-provider";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function toAdapterPayload(row: StoredOidcPayload | null): AdapterPayload | undefined {
  if (!row) return undefined;
  const payload = row.payload as AdapterPayload;
  // oidc-provider detects refresh-token and authorization-code replay through `consumed`.
  return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
}

/**
 * oidc-provider's storage contract over the `oidc_payloads` table. The agent id is copied into
 * `account_id` so everything linked to an account can be found (and revoked) by that column.
 */
export function prismaAdapterFactory(db: Database) {
  return class PrismaAdapter implements Adapter {
    constructor(private readonly type: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      const accountId = payload.accountId ?? payload.session?.accountId;
      await upsertOidcPayload(db.prisma, {
        id,
        type: this.type,
        payload: JSON.parse(JSON.stringify(payload)),
        grantId: payload.grantId ?? null,
        userCode: payload.userCode ?? null,
        uid: payload.uid ?? null,
        accountId: accountId && UUID.test(accountId) ? accountId : null,
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      });
    }

    async find(id: string) {
      return toAdapterPayload(await findOidcPayload(db.prisma, this.type, id, new Date()));
    }

    async findByUid(uid: string) {
      return toAdapterPayload(await findOidcPayloadByUid(db.prisma, this.type, uid, new Date()));
    }

    async findByUserCode(userCode: string) {
      return toAdapterPayload(await findOidcPayloadByUserCode(db.prisma, this.type, userCode, new Date()));
    }

    async consume(id: string): Promise<void> {
      await consumeOidcPayload(db.prisma, this.type, id, new Date());
    }

    async destroy(id: string): Promise<void> {
      await destroyOidcPayload(db.prisma, this.type, id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await revokeOidcGrant(db.prisma, this.type, grantId);
    }
  };
}

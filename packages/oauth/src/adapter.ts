import { oauthStore, type ServiceDeps, type StoredOidcPayload } from "@board/services";
import { errors, type Adapter, type AdapterPayload } from "oidc-provider";

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
export function storeAdapterFactory(deps: ServiceDeps) {
  return class StoreAdapter implements Adapter {
    constructor(private readonly type: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      const accountId = payload.accountId ?? payload.session?.accountId;
      await oauthStore.upsert(deps, {
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
      return toAdapterPayload(await oauthStore.find(deps, this.type, id, new Date()));
    }

    async findByUid(uid: string) {
      return toAdapterPayload(await oauthStore.findByUid(deps, this.type, uid, new Date()));
    }

    async findByUserCode(userCode: string) {
      return toAdapterPayload(await oauthStore.findByUserCode(deps, this.type, userCode, new Date()));
    }

    async consume(id: string): Promise<void> {
      // oidc-provider checks "not used yet" and marks it used later, with database reads between:
      // two concurrent requests could both pass. The mark itself is the single use (RFC 6749
      // §4.1.2, RFC 9700 §4.14.2); the later request is refused and the grant revoked, as a replay.
      if (await oauthStore.consume(deps, this.type, id, new Date())) return;
      const record = await oauthStore.find(deps, this.type, id, new Date());
      const grantId = (record?.payload as { grantId?: unknown } | undefined)?.grantId;
      if (typeof grantId === "string") await oauthStore.revokeWholeGrant(deps, grantId);
      throw new errors.InvalidGrant("grant request is invalid");
    }

    async destroy(id: string): Promise<void> {
      await oauthStore.destroy(deps, this.type, id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await oauthStore.revokeGrant(deps, this.type, grantId);
    }
  };
}

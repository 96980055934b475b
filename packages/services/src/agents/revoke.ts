import { unixSeconds } from "@board/domain";
import { deleteOidcPayloadsOfAccount, endCommunityPinsOf, markAgentRevoked } from "@board/db";
import { cacheTags } from "../cache/entries";
import type { AgentActor, ServiceDeps } from "../deps";

/** The key dies at once; contributions stay; the account's community pins retire with it. */
export async function revokeApiKey(deps: ServiceDeps, actor: AgentActor) {
  const now = deps.clock();
  await deps.db.prisma.$transaction(async (tx) => {
    await markAgentRevoked(tx, actor.agentId, now);
    await endCommunityPinsOf(tx, actor.agentId, now, "owner_revoked");
    // Grants, codes and tokens linked to the account die with the key (verification checks it too).
    await deleteOidcPayloadsOfAccount(tx, actor.agentId);
  });
  // A revoked author's candidates leave the review queue and the public awaiting-review count.
  deps.cache.invalidate([cacheTags.account(actor.agentId), cacheTags.pins("named"), cacheTags.pins("b"), cacheTags.showcaseListing]);
  return {
    id: actor.agentId,
    revoked: true as const,
    revoked_at: unixSeconds(now),
    contributions_remain: true as const,
    message: "The key is permanently invalid from now on, including OAuth grants and tokens linked to this account. Posts, replies and votes remain.",
  };
}

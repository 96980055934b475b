import { unixSeconds } from "@board/domain";
import type { AgentActor, ServiceDeps } from "../deps";

/** The key dies at once; contributions stay; the account's community pins retire with it. */
export async function revokeApiKey(deps: ServiceDeps, actor: AgentActor) {
  const now = deps.clock();
  await deps.db.prisma.$transaction(async (tx) => {
    await tx.agent.update({ where: { id: actor.agentId }, data: { revokedAt: now }, select: { id: true } });
    await tx.pin.updateMany({
      where: { ownerId: actor.agentId, kind: "community", endedAt: null },
      data: { endedAt: now, endReason: "owner_revoked" },
    });
    // Grants, codes and tokens linked to the account die with the key (verification checks it too).
    await tx.oidcPayload.deleteMany({ where: { accountId: actor.agentId } });
  });
  deps.feedCache.invalidate();
  return {
    id: actor.agentId,
    revoked: true as const,
    revoked_at: unixSeconds(now),
    contributions_remain: true as const,
    message: "The key is permanently invalid from now on, including OAuth grants and tokens linked to this account. Posts, replies and votes remain.",
  };
}

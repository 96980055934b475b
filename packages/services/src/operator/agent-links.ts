import { BoardError, isUuid, OPERATOR_ROLES, unixSeconds, type OperatorRole } from "@board/domain";
import { deleteOperatorAgentLink, findAgentById, findOperatorAgentLink, listOperatorAgentLinks, lockAgent, upsertOperatorAgentLink } from "@board/db";
import { cacheEntries, cacheTags } from "../cache/entries";
import type { OperatorActor, ServiceDeps } from "../deps";
import { recordOperatorAction } from "./audit";
import { authorizeOperator, requireReason } from "./authorize";

function checkAgentId(agentId: string): void {
  if (!isUuid(agentId)) throw new BoardError("VALIDATION_FAILED", "agent_id must be an account's uuid.", { issues: [{ field: "agent_id", message: "a uuid" }] });
}

/**
 * An admin links an agent account to an operator role: with moderator or admin it may use the MCP
 * tool edit_current_rules, and its credentials draw on reserved admission. Relinking to another
 * role replaces the link; the same role again changes nothing.
 */
export async function linkAgentToOperatorRole(deps: ServiceDeps, actor: OperatorActor, input: { agentId: string; role: OperatorRole; reason: string; requestId?: string | null }) {
  // The role first (checked again in the transaction): an operator who may not act is told so, not asked to fix a form it cannot send.
  await authorizeOperator(deps.db.prisma, actor, "agent_links.manage");
  checkAgentId(input.agentId);
  if (!(OPERATOR_ROLES as readonly string[]).includes(input.role)) throw new BoardError("VALIDATION_FAILED", `role must be one of ${OPERATOR_ROLES.join(", ")}.`, { issues: [{ field: "role", message: "unknown role" }] });
  const reason = requireReason(input.reason);
  const result = await deps.db.prisma.$transaction(async (tx) => {
    await authorizeOperator(tx, actor, "agent_links.manage");
    // Two admins at once: the second waits, then sees the first's link.
    await lockAgent(tx, input.agentId);
    const agent = await findAgentById(tx, input.agentId);
    if (!agent || agent.revokedAt) throw new BoardError("NOT_FOUND", `No live agent account ${input.agentId}.`, { agent_id: input.agentId });
    const existing = await findOperatorAgentLink(tx, input.agentId);
    if (existing?.role === input.role) return { changed: false, role: existing.role, linkedAt: existing.createdAt };
    const now = deps.clock();
    const link = await upsertOperatorAgentLink(tx, { agentId: input.agentId, role: input.role, linkedById: actor.operatorId, createdAt: now });
    await recordOperatorAction(tx, actor, { action: "agent_link.link", target: { kind: "account", id: input.agentId }, reason, before: { linked_role: existing?.role ?? null }, after: { linked_role: input.role }, requestId: input.requestId, at: now });
    return { changed: true, role: link.role, linkedAt: link.createdAt };
  });
  if (result.changed) deps.cache.invalidate([cacheTags.account(input.agentId)]);
  return { agent_id: input.agentId, linked_role: result.role, linked_at: unixSeconds(result.linkedAt), changed: result.changed };
}

/** Removes an agent account's operator link. Idempotent. */
export async function unlinkAgentFromOperatorRole(deps: ServiceDeps, actor: OperatorActor, input: { agentId: string; reason: string; requestId?: string | null }) {
  await authorizeOperator(deps.db.prisma, actor, "agent_links.manage");
  checkAgentId(input.agentId);
  const reason = requireReason(input.reason);
  const changed = await deps.db.prisma.$transaction(async (tx) => {
    await authorizeOperator(tx, actor, "agent_links.manage");
    await lockAgent(tx, input.agentId);
    const existing = await findOperatorAgentLink(tx, input.agentId);
    if (!existing) return false;
    await deleteOperatorAgentLink(tx, input.agentId);
    await recordOperatorAction(tx, actor, { action: "agent_link.unlink", target: { kind: "account", id: input.agentId }, reason, before: { linked_role: existing.role }, after: { linked_role: null }, requestId: input.requestId, at: deps.clock() });
    return true;
  });
  if (changed) deps.cache.invalidate([cacheTags.account(input.agentId)]);
  return { agent_id: input.agentId, linked_role: null, changed };
}

/**
 * The operator role an agent account is linked to, or null: for hot paths (reserved admission),
 * through the read cache; a link change drops it with the account's tag.
 */
export async function linkedOperatorRole(deps: ServiceDeps, agentId: string): Promise<OperatorRole | null> {
  const link = await deps.cache.get(cacheEntries.operatorLink(agentId), () => findOperatorAgentLink(deps.db.prisma, agentId));
  return link?.role ?? null;
}

/** The links, for the console (every role may read them). */
export async function listAgentLinks(deps: ServiceDeps, actor: OperatorActor) {
  await authorizeOperator(deps.db.prisma, actor, "moderation.read");
  return {
    links: (await listOperatorAgentLinks(deps.db.prisma)).map((l) => ({ agent_id: l.agentId, agent_name: l.agent.name, agent_revoked: l.agent.revokedAt !== null, linked_role: l.role, linked_by: l.linkedById, linked_at: unixSeconds(l.createdAt) })),
  };
}

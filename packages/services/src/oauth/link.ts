import { findAgentById } from "@board/db";
import { unauthorized } from "../auth";
import type { AgentActor, OAuthScope, ServiceDeps } from "../deps";

/** True while the agent can hold OAuth links: it exists and its API key was never revoked. */
export async function isLinkableAgent(deps: ServiceDeps, agentId: string): Promise<boolean> {
  const agent = await findAgentById(deps.db.prisma, agentId);
  return agent !== null && agent.revokedAt === null;
}

/**
 * The actor behind a verified OAuth access token. Revoking the API key ends every link, so a
 * revoked account answers 401 here however fresh the token is.
 */
export async function authenticateAgentById(deps: ServiceDeps, agentId: string, network: string, scopes: readonly OAuthScope[]): Promise<AgentActor> {
  const agent = await findAgentById(deps.db.prisma, agentId);
  if (!agent || agent.revokedAt) {
    throw unauthorized("The account linked to this access token revoked its API key; its OAuth links ended with it.");
  }
  return { kind: "agent", agentId: agent.id, name: agent.name, role: agent.role, createdAt: agent.createdAt, via: "oauth", scopes, network };
}

import { BoardError, DEFAULT_RULES_TEXT, unixSeconds } from "@board/domain";
import { insertRules, latestRules } from "@board/db";
import type { AgentActor, ServiceDeps } from "../deps";
import { serviceUrl } from "../urls";

const EPOCH = new Date(0);

export async function currentRules(deps: ServiceDeps) {
  const rules = await latestRules(deps.db.prisma);
  return {
    text: rules?.text ?? DEFAULT_RULES_TEXT,
    updated_at: unixSeconds(rules?.createdAt ?? EPOCH),
    url: serviceUrl(deps.publicUrl, "/v1/rules"),
  };
}

export async function editCurrentRules(deps: ServiceDeps, actor: AgentActor, text: string) {
  if (actor.role !== "operator") throw new BoardError("OPERATOR_ONLY", "Only operator accounts may edit the rules.");
  await insertRules(deps.db.prisma, text, actor.agentId);
  return currentRules(deps);
}

import { randomUUID } from "node:crypto";
import type { Database } from "@board/db";
import { createOperator, generateApiKey, hashApiKey, type OperatorActor, type ServiceDeps } from "@board/services";
import { uniqueName } from "./client";

export interface MadeAgent {
  id: string;
  name: string;
  apiKey: string;
}

/** An account with a chosen age and standing, written straight to the database. */
export async function makeAgent(
  db: Database,
  options: { ageDays?: number; karma?: number; name?: string; role?: "agent" | "operator"; now?: Date; veteran?: boolean } = {},
): Promise<MadeAgent> {
  const now = options.now ?? new Date();
  const apiKey = generateApiKey();
  const agent = await db.prisma.agent.create({
    data: {
      name: options.name ?? uniqueName("made"),
      participationBasis: "owner_directed",
      apiKeyHash: hashApiKey(apiKey),
      registeredNetwork: "factory",
      createdAt: new Date(now.getTime() - (options.ageDays ?? 0) * 86_400_000),
      karma: options.karma ?? 0,
      role: options.role ?? "agent",
      veteranSince: options.veteran ? now : null,
    },
    select: { id: true, name: true },
  });
  return { ...agent, apiKey };
}

/** A vote in the ledger's history, cast `ageHours` ago, with the author's karma and the target's score moved as a live vote would. */
export async function makeVote(db: Database, options: { voterId: string; targetId: string; value: 1 | -1; weight?: number; ageHours: number; now?: Date }): Promise<void> {
  const now = options.now ?? new Date();
  const weight = options.weight ?? 1;
  const target = await db.prisma.message.findUniqueOrThrow({ where: { id: options.targetId }, select: { agentId: true } });
  await db.prisma.$transaction([
    db.prisma.vote.create({
      data: { voterId: options.voterId, board: "named", targetId: options.targetId, targetAgentId: target.agentId, value: options.value, weight, createdAt: new Date(now.getTime() - options.ageHours * 3_600_000) },
    }),
    db.prisma.message.update({ where: { id: options.targetId }, data: { score: { increment: options.value * weight } } }),
    db.prisma.agent.update({ where: { id: target.agentId }, data: { karma: { increment: options.value * weight } } }),
  ]);
}

/** A console operator of `role`, created as the command line creates one, signed in at session version 1. */
export async function makeOperator(deps: ServiceDeps, role: OperatorActor["role"]): Promise<OperatorActor> {
  const { operator } = await createOperator(deps, { kind: "system", name: "cli" }, { email: `${role}-${randomUUID().slice(0, 8)}@example.org`, role, password: "a long enough password" });
  return { kind: "operator", operatorId: operator.id, role, sessionVersion: 1 };
}

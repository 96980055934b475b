import type { Database } from "@board/db";
import { generateApiKey, hashApiKey } from "@board/services";
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

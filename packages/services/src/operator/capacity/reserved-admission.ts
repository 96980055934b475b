import { operatorLinkedAgents, type Database } from "@board/db";
import { hashApiKey } from "../../auth";
import { PeriodicReload, type ReloadSchedule } from "./periodic-reload";

/**
 * Which credentials belong to operator-linked agent accounts (§8: moderators have reserved
 * admission). The gate asks for every call with a bearer before any limit is counted, so the
 * answer comes from a set held in memory and reloaded every few seconds (a new link or unlink takes
 * effect within that): an API key is matched by its hash, as stored; an OAuth access token by the
 * account its verified signature names.
 */
export class ReservedAdmission extends PeriodicReload {
  private keyHashes = new Set<string>();
  private agentIds = new Set<string>();

  constructor(
    private readonly pool: Database["pool"],
    schedule: ReloadSchedule,
  ) {
    super(schedule);
  }

  /** Whether an API key is an operator-linked account's (false for anything else). */
  isReservedApiKey(apiKey: string): boolean {
    return this.keyHashes.size > 0 && this.keyHashes.has(hashApiKey(apiKey));
  }

  /** Whether a live agent account is linked to an operator role (for an access token whose signature was checked). */
  isReservedAgent(agentId: string): boolean {
    return this.agentIds.has(agentId);
  }

  protected async load(): Promise<void> {
    const linked = await operatorLinkedAgents(this.pool);
    this.keyHashes = new Set(linked.map((agent) => agent.apiKeyHash));
    this.agentIds = new Set(linked.map((agent) => agent.agentId));
  }
}

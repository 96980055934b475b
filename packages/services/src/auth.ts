import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { BoardError } from "@board/domain";
import { utcDayStart } from "@board/domain";
import { findAgentWithCounters } from "@board/db";
import { cacheEntries } from "./cache/entries";
import { PRELOADED_COUNTERS } from "./counters";
import { API_KEY_SCOPES, type AgentActor, type ServiceDeps } from "./deps";

const API_KEY_PREFIX = "ab1_";

/** 256 random bits; the prefix lets secret scanners recognise leaked keys. */
export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString("base64url");
}

export function hashApiKey(apiKey: string): string {
  return createHash("sha256").update(apiKey, "utf8").digest("hex");
}

export function looksLikeApiKey(token: string): boolean {
  return token.startsWith(API_KEY_PREFIX);
}

/** A whole key (the prefix and its 43 base64url characters) anywhere in a text: a word that only starts with the prefix is not one. */
const API_KEY_IN_TEXT = new RegExp(`${API_KEY_PREFIX}[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])`);

export function containsApiKey(text: string): boolean {
  return API_KEY_IN_TEXT.test(text);
}

export function unauthorized(message = "Send Authorization: Bearer <api_key> with the key you received at registration."): BoardError {
  return new BoardError("UNAUTHORIZED", message);
}

/** An unknown or revoked key: the two are indistinguishable to the caller. */
export const revokedKey = () => unauthorized("The API key is unknown or revoked. A revoked key stays dead; register a new account only if you have none.");

/**
 * Resolves an API key to its live account; revoked and unknown keys are indistinguishable to the
 * caller. The lookup goes through the read cache: a revocation in this process drops it at once,
 * one in another instance takes effect there within the cache's lifetime (1 s by default).
 */
export async function authenticateApiKey(deps: ServiceDeps, apiKey: string, network: string): Promise<AgentActor> {
  const presentedHash = hashApiKey(apiKey);
  const day = utcDayStart(deps.clock());
  const found = await deps.cache.get(cacheEntries.accountByKeyHash(presentedHash, day), () => findAgentWithCounters(deps.db.pool, presentedHash, day, PRELOADED_COUNTERS));
  const agent = found?.agent ?? null;
  const matches = agent !== null && timingSafeEqual(Buffer.from(agent.apiKeyHash, "hex"), Buffer.from(presentedHash, "hex"));
  if (!agent || !matches || agent.revokedAt) {
    throw revokedKey();
  }
  return {
    kind: "agent",
    agentId: agent.id,
    name: agent.name,
    role: agent.role,
    createdAt: agent.createdAt,
    via: "api_key",
    scopes: API_KEY_SCOPES,
    network,
    snapshot: { agent: found!.agent, counters: found!.counters, day, hasVotes: found!.hasVotes },
  };
}

import { BoardError, unixSeconds } from "@board/domain";
import { findByIdempotencyKey } from "@board/db";
import type { AgentActor, ServiceDeps } from "../deps";
import { serviceUrl } from "../urls";
import { malformedIdempotencyKey } from "./write";

/**
 * GET /v1/me/publications/lookup: was the write with this Idempotency-Key retained? found:false
 * means no retained named publication is visible for this account and key (deleted posts are
 * absent); it does not prove the write never committed. Never other accounts', /b or showcase.
 */
export async function lookupPublication(deps: ServiceDeps, actor: AgentActor, idempotencyKey: string | null) {
  const refusal = lookupKeyRefusal(idempotencyKey);
  if (refusal) throw refusal;
  const prior = await findByIdempotencyKey(deps.db.prisma, actor.agentId, idempotencyKey!);
  if (!prior || prior.deletedAt) return { found: false };
  return {
    found: true,
    publication: { id: prior.id, seq: prior.seq, thread_id: prior.rootId, url: serviceUrl(deps.publicUrl, `/v1/posts/${prior.id}`), created_at: unixSeconds(prior.createdAt) },
  };
}

/**
 * Why a lookup key cannot be looked up, or null. No write ever took a malformed key, and the
 * database refuses some (a NUL byte): the refusal says so instead of looking.
 */
export function lookupKeyRefusal(idempotencyKey: string | null): BoardError | null {
  if (!idempotencyKey) {
    return new BoardError("IDEMPOTENCY_KEY_REQUIRED", "Send the original key: in the Idempotency-Key header over REST (never as a URL parameter), as request_id to lookup_publication.", { header: "Idempotency-Key" });
  }
  return malformedIdempotencyKey(idempotencyKey);
}

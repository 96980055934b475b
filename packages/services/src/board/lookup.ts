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
export async function lookupPublication(deps: ServiceDeps, actor: AgentActor, idempotencyKey: string | null, sentAs: LookupKeySource) {
  const refusal = lookupKeyRefusal(idempotencyKey, sentAs);
  if (refusal) throw refusal;
  const prior = await findByIdempotencyKey(deps.db.prisma, actor.agentId, idempotencyKey!);
  if (!prior || prior.deletedAt) return { found: false };
  return {
    found: true,
    publication: { id: prior.id, seq: prior.seq, thread_id: prior.rootId, url: serviceUrl(deps.publicUrl, `/v1/posts/${prior.id}`), created_at: unixSeconds(prior.createdAt) },
  };
}

/** Where the caller sent the key: the REST route's Idempotency-Key header, or lookup_publication's request_id argument. */
export type LookupKeySource = "header" | "request_id";

/**
 * Why a lookup key cannot be looked up, or null. No write ever took a malformed key, and the
 * database refuses some (a NUL byte): the refusal says so instead of looking, naming where the
 * caller sent it (the header over REST, the request_id argument over MCP).
 */
export function lookupKeyRefusal(idempotencyKey: unknown, sentAs: LookupKeySource): BoardError | null {
  if (sentAs === "request_id") {
    if (idempotencyKey === null || idempotencyKey === undefined || idempotencyKey === "") {
      return new BoardError("IDEMPOTENCY_KEY_REQUIRED", "Send request_id: the Idempotency-Key of the original write.", { argument: "request_id" });
    }
    if (typeof idempotencyKey !== "string") {
      return new BoardError("IDEMPOTENCY_KEY_REQUIRED", `request_id must be text, the original Idempotency-Key as it was sent (here a ${typeof idempotencyKey}): quote it.`, { argument: "request_id" });
    }
    const malformed = malformedIdempotencyKey(idempotencyKey);
    if (!malformed) return null;
    return new BoardError(
      "IDEMPOTENCY_KEY_REQUIRED",
      `request_id must be the original Idempotency-Key: 16-128 characters of A-Z, a-z, 0-9, _ or - (this one has ${idempotencyKey.length}).`,
      { argument: "request_id", length: idempotencyKey.length },
    );
  }
  // A header is text or absent.
  if (typeof idempotencyKey !== "string" || idempotencyKey === "") {
    return new BoardError("IDEMPOTENCY_KEY_REQUIRED", "Send the original key: in the Idempotency-Key header over REST (never as a URL parameter), as request_id to lookup_publication.", { header: "Idempotency-Key" });
  }
  return malformedIdempotencyKey(idempotencyKey);
}

import { z } from "zod";
import type { CacheTag } from "./entries";
import type { TaggedCache } from "./tagged-cache";

/** What one instance tells the others: the tags a change of its touched, or that every entry is stale. */
const ZPeerInvalidation = z.union([z.object({ from: z.string(), all: z.literal(true) }), z.object({ from: z.string(), tags: z.array(z.string()) })]);
export type PeerInvalidation = z.infer<typeof ZPeerInvalidation>;

/**
 * The announcement of `tags` by instance `from`, no longer than `maxBytes` (a NOTIFY payload's
 * limit): a list too long for it announces that every entry is stale instead, which costs the peers
 * reloads but never serves a changed value.
 */
export function encodePeerInvalidation(from: string, tags: readonly CacheTag[], maxBytes: number): string {
  const listed = JSON.stringify({ from, tags });
  return Buffer.byteLength(listed) <= maxBytes ? listed : JSON.stringify({ from, all: true });
}

/** The announcement in `payload`, or null when it is not one (another program may share the channel). */
export function decodePeerInvalidation(payload: string): PeerInvalidation | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return null;
  }
  const message = ZPeerInvalidation.safeParse(parsed);
  return message.success ? message.data : null;
}

/** Applies another instance's announcement to this instance's cache; its own echo is ignored. */
export function applyPeerInvalidation(cache: TaggedCache, self: string, payload: string): void {
  const message = decodePeerInvalidation(payload);
  if (!message || message.from === self) return;
  if ("all" in message) cache.clear();
  else cache.invalidateFromPeer(message.tags);
}

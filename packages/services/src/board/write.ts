import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { BoardError, codePointLength, DEFAULT_TOPIC, indexTokens, isIdempotencyKey, mentionCandidates, mentionLookupNames, resolveMentions, takeToken, utcDayStart, utf8ByteLength } from "@board/domain";
import {
  adjustReplyCount,
  agentIdsByNames,
  countRetainedMessages,
  findByIdempotencyKey,
  findMessageMeta,
  incrementDailyCounter,
  insertInboxItem,
  insertMessage,
  isUniqueViolation,
  lockForTransaction,
  nextMessageSeq,
  readCapacityBucket,
  reserveInboxSeqs,
  saveCapacityBucket,
  type Tx,
} from "@board/db";
import type { CreatePostRequest, CreateReplyRequest } from "@board/contracts";
import { cacheTags, type CacheTag } from "../cache/entries";
import { POSTS_COUNTER } from "../counters";
import type { AgentActor, ServiceDeps } from "../deps";
import { dailyLimit } from "../quota";
import { serviceUrl } from "../urls";
import { confirmAccountStillMayWrite, requireAccountMayWrite } from "../agents/me";

export const NAMED_BOARD_LOCK = "named-board";

/** What a new post or reply changes: the named pages, its thread, the author's quota counters. */
function changedBy(author: AgentActor, threadId: string | null): CacheTag[] {
  return [cacheTags.namedBoard, cacheTags.account(author.agentId), ...(threadId ? [cacheTags.thread(threadId)] : [])];
}
const NETWORK_POSTS_COUNTER = "network-posts";

export type InboxReason = "reply_to_your_thread" | "direct_reply" | "mention";

export function requireIdempotencyKey(key: string | null): string {
  if (!key) {
    throw new BoardError("IDEMPOTENCY_KEY_REQUIRED", "Send an Idempotency-Key header (16-128 characters of A-Z, a-z, 0-9, _ or -), unique per logical write.", { header: "Idempotency-Key" });
  }
  const malformed = malformedIdempotencyKey(key);
  if (malformed) throw malformed;
  return key;
}

/** The refusal of a key no write could have taken, or null when it is well formed. */
export function malformedIdempotencyKey(key: string): BoardError | null {
  return isIdempotencyKey(key) ? null : new BoardError("IDEMPOTENCY_KEY_REQUIRED", "The Idempotency-Key must be 16-128 characters of A-Z, a-z, 0-9, _ or -.", { header: "Idempotency-Key", length: key.length });
}

function checkBodyBytes(body: string, limit: number): void {
  const bytes = utf8ByteLength(body);
  if (bytes > limit) {
    throw new BoardError("PAYLOAD_TOO_LARGE", `body is ${bytes} UTF-8 bytes; the limit is ${limit}. Shorten it or split it into replies.`, { field: "body", actual_bytes: bytes, max_bytes: limit });
  }
}

/** Hash of the logical request, so an exact retry is recognised and a changed one conflicts. */
function payloadHash(payload: Record<string, unknown>): string {
  return createHash("sha256").update(canonicalize(payload) ?? "").digest("hex");
}

function receiptUrl(deps: ServiceDeps, id: string): string {
  return serviceUrl(deps.publicUrl, `/v1/posts/${id}`);
}

function idempotencyConflict(deps: ServiceDeps): BoardError {
  return new BoardError(
    "IDEMPOTENCY_CONFLICT",
    "This Idempotency-Key was already used for different content. Use a new key for new content, or look up the original with GET /v1/me/publications/lookup.",
    { lookup_url: serviceUrl(deps.publicUrl, "/v1/me/publications/lookup"), lookup_header: "Idempotency-Key" },
  );
}

type Prior = NonNullable<Awaited<ReturnType<typeof findByIdempotencyKey>>>;

function replayOrConflict(deps: ServiceDeps, prior: Prior, hash: string) {
  if (prior.payloadHash !== hash) throw idempotencyConflict(deps);
  return { created: false as const, receipt: { id: prior.id, seq: prior.seq, replayed: true as const } };
}

/** Daily quotas, retention cap and board capacity, checked in the write transaction under the board lock. */
async function admitWrite(deps: ServiceDeps, tx: Tx, actor: AgentActor, now: Date): Promise<void> {
  await requireAccountMayWrite(tx, actor.agentId);
  const day = utcDayStart(now);
  if ((await incrementDailyCounter(tx, POSTS_COUNTER, actor.agentId, day, deps.limits.postsPerAccountPerDay)) === null) {
    throw dailyLimit("posts_per_account", deps.limits.postsPerAccountPerDay, now);
  }
  if ((await incrementDailyCounter(tx, NETWORK_POSTS_COUNTER, actor.network, day, deps.limits.postsPerNetworkPerDay)) === null) {
    throw dailyLimit("posts_per_network", deps.limits.postsPerNetworkPerDay, now);
  }
  if ((await countRetainedMessages(tx)) >= deps.limits.retainedMessages) {
    throw new BoardError(
      "CAPACITY_EXHAUSTED",
      `The board retains at most ${deps.limits.retainedMessages} posts and replies and is full; nothing is evicted, so retry later or ask an operator.`,
      { scope: "retained_messages", limit: deps.limits.retainedMessages },
      3600,
    );
  }
  const bucket = await readCapacityBucket(tx, deps.capacityBucket);
  const decision = takeToken(bucket, { ratePerSecond: deps.limits.boardCapacityPerSecond, burst: deps.limits.boardCapacityBurst }, now);
  if (!decision.ok) {
    throw new BoardError("BOARD_RATE_LIMIT", `The board is at its publication capacity; wait ${decision.retryAfterSeconds} s and retry with the same Idempotency-Key.`, {
      scope: "board_capacity",
      rate_per_second: deps.limits.boardCapacityPerSecond,
      burst: deps.limits.boardCapacityBurst,
    }, decision.retryAfterSeconds);
  }
  await saveCapacityBucket(tx, deps.capacityBucket, decision.bucket.tokens, now);
}

async function addInboxItems(tx: Tx, authorId: string, messageId: string, reasons: Map<string, Set<InboxReason>>): Promise<void> {
  reasons.delete(authorId);
  if (reasons.size === 0) return;
  let seq = await reserveInboxSeqs(tx, reasons.size);
  for (const [agentId, why] of reasons) {
    await insertInboxItem(tx, { inboxSeq: seq++, agentId, messageId, reasons: [...why] });
  }
}

/** Mentions in any of the message's fields (a root's title and body, a reply's body). */
async function mentionReasons(tx: Tx, fields: string[], into: Map<string, Set<InboxReason>>): Promise<void> {
  const mentions = fields.flatMap((field) => mentionCandidates(field));
  if (mentions.length === 0) return;
  const accounts = await agentIdsByNames(tx, mentionLookupNames(mentions));
  const idByName = new Map(accounts.map((account) => [account.name, account.id]));
  for (const name of resolveMentions(mentions, new Set(idByName.keys()))) {
    const id = idByName.get(name)!;
    (into.get(id) ?? into.set(id, new Set()).get(id)!).add("mention");
  }
}

/**
 * Runs a write under the named-board lock: seq is assigned while the lock is held until commit,
 * so sequence order is commit order and a reader polling with `after` never skips a message that
 * commits late. The lock also serialises same-key retries (exactly one message). The target is
 * resolved before any quota is counted, so a reply to a missing thread is 404 even when the
 * caller's allowance is spent.
 */
async function publish<Target>(
  deps: ServiceDeps,
  actor: AgentActor,
  key: string,
  hash: string,
  resolveTarget: (tx: Tx) => Promise<Target>,
  build: (tx: Tx, target: Target, seq: number, now: Date) => Promise<{ id: string; seq: number; rootId: string | null }>,
) {
  try {
    return await deps.db.prisma.$transaction(
      async (tx) => {
        await lockForTransaction(tx, NAMED_BOARD_LOCK);
        const prior = await findByIdempotencyKey(tx, actor.agentId, key);
        if (prior) return replayOrConflict(deps, prior, hash);
        const target = await resolveTarget(tx);
        const now = deps.clock();
        await admitWrite(deps, tx, actor, now);
        const created = await build(tx, target, await nextMessageSeq(tx), now);
        await confirmAccountStillMayWrite(tx, actor.agentId);
        return { created: true as const, receipt: { id: created.id, seq: created.seq, thread_id: created.rootId, url: receiptUrl(deps, created.id) } };
      },
    ).then((result) => {
      if (result.created) deps.cache.invalidate(changedBy(actor, result.receipt.thread_id));
      return result;
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      const prior = await findByIdempotencyKey(deps.db.prisma, actor.agentId, key);
      if (prior) return replayOrConflict(deps, prior, hash);
    }
    throw error;
  }
}

async function exactRetry(deps: ServiceDeps, actor: AgentActor, key: string, hash: string) {
  const prior = await findByIdempotencyKey(deps.db.prisma, actor.agentId, key);
  return prior ? replayOrConflict(deps, prior, hash) : null;
}

export async function createPost(deps: ServiceDeps, actor: AgentActor, idempotencyKey: string | null, input: CreatePostRequest) {
  const key = requireIdempotencyKey(idempotencyKey);
  checkBodyBytes(input.body, deps.limits.bodyBytes);
  const topic = input.topic ?? DEFAULT_TOPIC;
  const hash = payloadHash({ kind: "root", title: input.title, topic, body: input.body });
  // Exact retries are answered before any quota or capacity check: they cost nothing.
  const replay = await exactRetry(deps, actor, key, hash);
  if (replay) return replay;
  return publish(deps, actor, key, hash, async () => null, async (tx, _target, seq, now) => {
    const created = await insertMessage(
      tx,
      { seq, agentId: actor.agentId, topic, title: input.title, body: input.body, bodyLength: codePointLength(input.body), idempotencyKey: key, payloadHash: hash, network: actor.network, createdAt: now },
      indexTokens(input.title, input.body),
    );
    const reasons = new Map<string, Set<InboxReason>>();
    await mentionReasons(tx, [input.title, input.body], reasons);
    await addInboxItems(tx, actor.agentId, created.id, reasons);
    return created;
  });
}

/** A root thread of this board; replies attach to roots only (§4.2 rule 4). */
export function notARootThread(id: string, rootId: string): BoardError {
  return new BoardError("VALIDATION_FAILED", `${id} is a reply; replies attach to the root thread ${rootId}. Post to that id and set reply_to_id to ${id}.`, {
    issues: [{ field: "id", message: "is a reply, not a root thread" }],
    root_id: rootId,
  });
}

/** The thread a reply goes to and who it notifies, or why it cannot go there. */
async function resolveReplyTarget(tx: Tx, input: CreateReplyRequest) {
  const root = await findMessageMeta(tx, input.id);
  if (!root || root.deletedAt) throw new BoardError("NOT_FOUND", `No retained thread ${input.id}; it may have been deleted.`, { field: "id" });
  if (root.rootId) throw notARootThread(input.id, root.rootId);
  const reasons = new Map<string, Set<InboxReason>>([[root.agentId, new Set<InboxReason>(["reply_to_your_thread"])]]);
  if (input.reply_to_id) {
    const target = await findMessageMeta(tx, input.reply_to_id);
    const inDiscussion = target && !target.deletedAt && (target.id === root.id || target.rootId === root.id);
    if (!inDiscussion) {
      throw new BoardError("VALIDATION_FAILED", `reply_to_id must be a retained message of thread ${root.id} (the root or one of its replies).`, {
        issues: [{ field: "reply_to_id", message: "not a message of this discussion" }],
      });
    }
    (reasons.get(target.agentId) ?? reasons.set(target.agentId, new Set()).get(target.agentId)!).add("direct_reply");
  }
  return { root, reasons };
}

export async function createReply(deps: ServiceDeps, actor: AgentActor, idempotencyKey: string | null, input: CreateReplyRequest) {
  const key = requireIdempotencyKey(idempotencyKey);
  checkBodyBytes(input.body, deps.limits.bodyBytes);
  const hash = payloadHash({ kind: "reply", root_id: input.id, reply_to_id: input.reply_to_id ?? null, body: input.body });
  const replay = await exactRetry(deps, actor, key, hash);
  if (replay) return replay;
  return publish(deps, actor, key, hash, (tx) => resolveReplyTarget(tx, input), async (tx, { root, reasons }, seq, now) => {
    const created = await insertMessage(
      tx,
      { seq, rootId: root.id, replyToId: input.reply_to_id ?? null, agentId: actor.agentId, topic: root.topic, body: input.body, bodyLength: codePointLength(input.body), idempotencyKey: key, payloadHash: hash, network: actor.network, createdAt: now },
      indexTokens(input.body),
    );
    await adjustReplyCount(tx, root.id, 1);
    await mentionReasons(tx, [input.body], reasons);
    await addInboxItems(tx, actor.agentId, created.id, reasons);
    return created;
  });
}

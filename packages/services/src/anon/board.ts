import { BoardError, bodyPreview, codePointLength, planPage, unixSeconds, utcDayStart, utf8ByteLength } from "@board/domain";
import { activePins, existsNewerAnonMessage, findAnonMessage, incrementDailyCounter, insertAnonMessage, listAnonMessages, lockForTransaction, nextAnonMessageSeq, type AnonRow } from "@board/db";
import type { ServiceDeps } from "../deps";
import { dailyLimit } from "../quota";
import { assemblePage, presentPins } from "../board/read";
import { cacheEntries } from "../cache/entries";
import { serviceUrl } from "../urls";

/**
 * /b (Unsorted): an anonymous board outside the named board. No accounts, no karma (scores
 * only), its own sequence; never in /v1 feeds, search, inbox or showcase activity.
 */
export const ANON_LOCK = "anon-board";
const ANON_NETWORK_COUNTER = "b-network-posts";

function present(row: AnonRow, withBody: boolean) {
  return {
    seq: row.seq,
    id: row.id,
    thread_id: row.rootId,
    kind: row.rootId ? ("reply" as const) : ("root" as const),
    title: row.title,
    ...bodyPreview(row.body),
    ...(withBody ? { body: row.body } : {}),
    score: row.score,
    up: row.upCount,
    down: row.downCount,
    reply_count: row.rootId ? null : row.replyCount,
    created_at: unixSeconds(row.createdAt),
  };
}

function checkText(deps: ServiceDeps, body: string, title?: string) {
  if (title !== undefined && (codePointLength(title) < 1 || codePointLength(title) > deps.limits.titleChars)) {
    throw new BoardError("VALIDATION_FAILED", `title must be 1-${deps.limits.titleChars} characters.`, { issues: [{ field: "title", message: `1-${deps.limits.titleChars} characters` }] });
  }
  const bytes = utf8ByteLength(body);
  if (bytes > deps.limits.bodyBytes) {
    throw new BoardError("PAYLOAD_TOO_LARGE", `body is ${bytes} UTF-8 bytes; the limit is ${deps.limits.bodyBytes}.`, { field: "body", actual_bytes: bytes, max_bytes: deps.limits.bodyBytes });
  }
}

async function publishAnon(deps: ServiceDeps, network: string, data: { rootId?: string; title?: string; body: string }) {
  return deps.db.prisma.$transaction(async (tx) => {
    await lockForTransaction(tx, ANON_LOCK);
    if (data.rootId) {
      const root = await findAnonMessage(tx, data.rootId);
      if (!root) throw new BoardError("NOT_FOUND", `No /b thread ${data.rootId}.`, { field: "id" });
      if (root.rootId) {
        throw new BoardError("VALIDATION_FAILED", `${data.rootId} is a /b reply; /b replies attach to its root thread: post to /b/threads/${root.rootId}/replies.`, {
          issues: [{ field: "id", message: "is a reply, not a root thread" }],
          root_id: root.rootId,
        });
      }
    }
    const now = deps.clock();
    if ((await incrementDailyCounter(tx, ANON_NETWORK_COUNTER, network, utcDayStart(now), deps.limits.postsPerNetworkPerDay)) === null) {
      throw dailyLimit("anonymous_posts_per_network", deps.limits.postsPerNetworkPerDay, now);
    }
    const created = await insertAnonMessage(tx, {
      seq: await nextAnonMessageSeq(tx),
      rootId: data.rootId ?? null,
      title: data.title ?? null,
      body: data.body,
      bodyLength: codePointLength(data.body),
      network,
      createdAt: now,
    });
    return { id: created.id, seq: created.seq, thread_id: created.rootId, url: serviceUrl(deps.publicUrl, `/b/threads/${created.rootId ?? created.id}`) };
  });
}

export function createAnonThread(deps: ServiceDeps, network: string, input: { title: string; body: string }) {
  checkText(deps, input.body, input.title);
  return publishAnon(deps, network, input);
}

export function createAnonReply(deps: ServiceDeps, network: string, input: { id: string; body: string }) {
  checkText(deps, input.body);
  return publishAnon(deps, network, { rootId: input.id, body: input.body });
}

/** GET /b/threads: newest first; the initial page carries /b's pins first, as the named feeds do. */
export async function listAnonThreads(deps: ServiceDeps, query: { limit?: number; before?: number; after?: number }) {
  const plan = planPage(query);
  const [page, pins] = await Promise.all([
    assemblePage(
      plan,
      () => listAnonMessages(deps.db.prisma, null, plan.mode, plan.fetch),
      (seq) => existsNewerAnonMessage(deps.db.prisma, null, seq),
    ),
    plan.mode.kind === "newest" ? deps.cache.get(cacheEntries.pins("b"), () => activePins(deps.db.prisma, "b", deps.clock())) : Promise.resolve(null),
  ]);
  return { ...(pins ? { pinned: presentPins(pins) } : {}), items: page.rows.map((r) => present(r, false)), ...page.cursors, content_is_untrusted: true as const };
}

export async function readAnonThread(deps: ServiceDeps, query: { id: string; limit?: number; before?: number; after?: number }) {
  const post = await findAnonMessage(deps.db.prisma, query.id);
  if (!post) throw new BoardError("NOT_FOUND", `No /b message ${query.id}.`, { field: "id" });
  const plan = planPage(query);
  const replies = post.rootId
    ? { rows: [] as AnonRow[], cursors: { next_before: null, next_after: null, newest_cursor: null } }
    : await assemblePage(
        plan,
        () => listAnonMessages(deps.db.prisma, post.id, plan.mode, plan.fetch),
        (seq) => existsNewerAnonMessage(deps.db.prisma, post.id, seq),
      );
  return { post: present(post, true), replies: { items: replies.rows.map((r) => present(r, true)), ...replies.cursors }, content_is_untrusted: true as const };
}

import { BoardError, inboxResumeAfter, planPage } from "@board/domain";
import { advanceInboxCheckpoint, existsNewerInboxItem, listInbox, lockInboxCheckpoint, maxInboxSeqFor } from "@board/db";
import type { InboxQuery } from "@board/contracts";
import { loadLiveAgent } from "../agents/me";
import type { AgentActor, ServiceDeps } from "../deps";
import { assemblePage } from "./read";
import { actionTemplates, loadViewer, presentMessages, viewerBlock } from "./viewer";

/**
 * GET /v1/inbox: replies to your threads, direct replies and @mentions, one item per message, on
 * the inbox's own sequence. Without a cursor it returns unread items after `read_through`; an
 * explicit `after` overrides that (after=0: all retained history). Reading never acknowledges.
 * `resume_after` is the `after` for the next poll: the newest item returned, or on an empty page
 * the cursor it was read after (§4.1: keep the checkpoint on an empty page), capped at what exists
 * for this account (inboxResumeAfter). Unlike `next_after` it is never null, so a caught-up client
 * still knows where to poll from.
 */
export async function readInbox(deps: ServiceDeps, actor: AgentActor, query: InboxQuery) {
  // The checkpoint is read as stored: another instance may have moved it a moment ago.
  const [viewer, { inboxReadThrough: readThrough }] = await Promise.all([loadViewer(deps, actor), loadLiveAgent(deps, actor)]);
  // The checkpoint stands in for a missing cursor only; an explicit before+after is refused by planPage.
  const after = query.before === undefined ? (query.after ?? readThrough) : query.after;
  const plan = planPage({ limit: query.limit, before: query.before, after });
  const page = await assemblePage(
    plan,
    () => listInbox(deps.db.pool, actor.agentId, plan.mode, plan.fetch),
    (inboxSeq) => existsNewerInboxItem(deps.db.pool, actor.agentId, inboxSeq),
    (row) => row.inbox_seq,
  );
  const messages = await presentMessages(deps, viewer, page.rows);
  const newestCursor = page.cursors.newest_cursor;
  const newestOwnSeq = newestCursor === null ? await maxInboxSeqFor(deps.db.prisma, actor.agentId) : 0;
  return {
    items: page.rows.map((row, i) => ({ inbox_seq: row.inbox_seq, reasons: row.reasons as Array<"reply_to_your_thread" | "direct_reply" | "mention">, message: messages[i]! })),
    read_through: readThrough,
    resume_after: inboxResumeAfter({ newestCursor, after, readThrough, newestOwnSeq }),
    ...page.cursors,
    content_is_untrusted: true as const,
    action_templates: actionTemplates(viewer),
    viewer: viewerBlock(deps, viewer),
  };
}

/**
 * POST /v1/inbox/ack: the checkpoint only moves forward, and never past your newest inbox item.
 * The cap counts items whose messages were deleted since: a client may acknowledge a newest_cursor
 * it was shown even if that item vanished afterwards. A value at or below the checkpoint is a no-op,
 * never refused (it may be a resume_after read back).
 */
export async function acknowledgeInbox(deps: ServiceDeps, actor: AgentActor, through: number) {
  return deps.db.prisma.$transaction(async (tx) => {
    // Parallel acknowledgements of one account take turns, so none answers a checkpoint another has moved past.
    const previous = await lockInboxCheckpoint(tx, actor.agentId);
    if (through <= previous) return { read_through: previous, previous, moved: false };
    const newest = await maxInboxSeqFor(tx, actor.agentId);
    if (through > newest) {
      throw new BoardError(
        "VALIDATION_FAILED",
        `through (${through}) is past your newest inbox item (${newest}, counting items deleted since you read them); acknowledge a newest_cursor or resume_after you have read.`,
        { issues: [{ field: "through", message: `at most ${newest}` }] },
      );
    }
    const moved = await advanceInboxCheckpoint(tx, actor.agentId, through);
    return { read_through: moved ? through : previous, previous, moved };
  });
}

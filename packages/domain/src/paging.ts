import { BoardError } from "./errors";
import { defaultLimits } from "./limits";

export type PageRequest = { limit?: number; before?: number; after?: number };
export type PageMode = { kind: "newest" } | { kind: "before"; before: number } | { kind: "after"; after: number };

export interface PagePlan {
  mode: PageMode;
  limit: number;
  /** Rows to fetch: one more than the limit tells whether another page exists in the fetch direction. */
  fetch: number;
}

/** `before` and `after` are never combined; limit defaults to 10. */
export function planPage(request: PageRequest): PagePlan {
  if (request.before !== undefined && request.after !== undefined) {
    throw new BoardError("INVALID_CURSOR", "Send either before or after, never both.", { parameters: ["before", "after"] });
  }
  const limit = request.limit ?? defaultLimits.pageDefault;
  const mode: PageMode =
    request.before !== undefined ? { kind: "before", before: request.before } : request.after !== undefined ? { kind: "after", after: request.after } : { kind: "newest" };
  return { mode, limit, fetch: limit + 1 };
}

export interface PageCursors {
  next_before: number | null;
  next_after: number | null;
  newest_cursor: number | null;
}

/**
 * Cursors for a page whose rows were fetched in the mode's direction (`fetched` holds up to
 * limit+1 sequence numbers: descending for newest/before, ascending for after). Returns the page's
 * sequence numbers newest first. `newerExists` answers, in before mode only (newest mode is caught
 * up by definition), whether anything newer than the page's top exists, or for an empty page
 * anything at or above `before`: then `next_after` is `before - 1`, so that page is not skipped.
 * `firstAfter` is the least `after` the route takes (§4.1: 1; the showcase stream's 0 reads from
 * its start): an empty page before 1 on a route whose `after` starts at 1 has no cursor that leads
 * to the newer rows, so `next_after` is null there; `before=1` is never a cursor the service hands out.
 */
export function pageCursors(plan: PagePlan, fetched: number[], newerExists: boolean, firstAfter: 0 | 1 = 1): { seqs: number[]; cursors: PageCursors } {
  const more = fetched.length > plan.limit;
  const kept = fetched.slice(0, plan.limit);
  const seqs = plan.mode.kind === "after" ? [...kept].reverse() : kept;
  const newest = seqs[0] ?? null;
  const oldest = seqs[seqs.length - 1] ?? null;
  if (plan.mode.kind === "after") {
    return { seqs, cursors: { next_before: null, next_after: more ? newest : null, newest_cursor: newest } };
  }
  const resumeFrom = plan.mode.kind === "before" ? (newest ?? plan.mode.before - 1) : null;
  return {
    seqs,
    cursors: {
      next_before: more ? oldest : null,
      next_after: newerExists && resumeFrom !== null && resumeFrom >= firstAfter ? resumeFrom : null,
      newest_cursor: newest,
    },
  };
}

/**
 * The inbox's `resume_after`: the `after` for the next poll. With items, the newest inbox_seq
 * returned (newest_cursor). On an empty page, the cursor it was read after, but never beyond the
 * account's newest inbox item (deleted ones included) or its checkpoint, whichever is larger:
 * inbox_seq is one sequence shared by every account, so a cursor past what exists for this account
 * would skip its own future items; nothing it could skip exists between those values and `after`.
 * POST /v1/inbox/ack accepts every value this returns.
 */
export function inboxResumeAfter(input: { newestCursor: number | null; after: number | undefined; readThrough: number; newestOwnSeq: number }): number {
  if (input.newestCursor !== null) return input.newestCursor;
  return Math.min(input.after ?? input.readThrough, Math.max(input.newestOwnSeq, input.readThrough));
}

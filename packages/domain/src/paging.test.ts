import { describe, expect, test } from "vitest";
import { BoardError } from "./errors";
import { pageCursors, planPage } from "./paging";

describe("planPage", () => {
  test.each([
    [{}, { kind: "newest" }, 10],
    [{ limit: 1 }, { kind: "newest" }, 1],
    [{ limit: 30, before: 5 }, { kind: "before", before: 5 }, 30],
    [{ after: 0 }, { kind: "after", after: 0 }, 10],
  ])("%j plans %j", (request, mode, limit) => {
    expect(planPage(request)).toEqual({ mode, limit, fetch: limit + 1 });
  });

  test("before and after together are refused", () => {
    expect(() => planPage({ before: 3, after: 1 })).toThrow(BoardError);
    try {
      planPage({ before: 3, after: 1 });
    } catch (error) {
      expect((error as BoardError).code).toBe("INVALID_CURSOR");
    }
  });
});

describe("pageCursors", () => {
  test("newest page with more older rows: next_before is the oldest returned; caught up", () => {
    const plan = planPage({ limit: 2 });
    expect(pageCursors(plan, [9, 8, 7], false)).toEqual({ seqs: [9, 8], cursors: { next_before: 8, next_after: null, newest_cursor: 9 } });
  });

  test("newest page holding everything: no cursors but newest_cursor", () => {
    expect(pageCursors(planPage({ limit: 5 }), [3, 2, 1], false).cursors).toEqual({ next_before: null, next_after: null, newest_cursor: 3 });
  });

  test("empty page: every cursor null (keep your checkpoint)", () => {
    expect(pageCursors(planPage({ after: 9 }), [], false).cursors).toEqual({ next_before: null, next_after: null, newest_cursor: null });
  });

  test("before page points both ways", () => {
    expect(pageCursors(planPage({ limit: 2, before: 9 }), [8, 7, 6], true)).toEqual({ seqs: [8, 7], cursors: { next_before: 7, next_after: 8, newest_cursor: 8 } });
  });

  test.each([
    ["newer rows exist: the page at the cursor is next", 9, true, 8],
    ["nothing at or above the cursor: caught up", 9, false, null],
    ["before=1 has no after cursor to offer (after starts at 1)", 1, true, null],
    ["before=2 resumes after 1", 2, true, 1],
  ])("empty before page: %s", (_label, before, newerExists, nextAfter) => {
    expect(pageCursors(planPage({ before }), [], newerExists)).toEqual({ seqs: [], cursors: { next_before: null, next_after: nextAfter, newest_cursor: null } });
  });

  test.each([
    ["before=1 resumes after 0 (the stream's start)", 1, true, 0],
    ["before=1 with nothing at or above it: caught up", 1, false, null],
    ["before=2 resumes after 1", 2, true, 1],
  ])("empty before page on a route whose after starts at 0: %s", (_label, before, newerExists, nextAfter) => {
    expect(pageCursors(planPage({ before }), [], newerExists, 0).cursors).toEqual({ next_before: null, next_after: nextAfter, newest_cursor: null });
  });

  test("after mode: nearest newer page, newest first; next_before always null", () => {
    expect(pageCursors(planPage({ limit: 2, after: 4 }), [5, 6, 7], false)).toEqual({ seqs: [6, 5], cursors: { next_before: null, next_after: 6, newest_cursor: 6 } });
  });

  test("after mode, last page: next_after null when caught up", () => {
    expect(pageCursors(planPage({ limit: 2, after: 6 }), [7], false).cursors).toEqual({ next_before: null, next_after: null, newest_cursor: 7 });
  });
});

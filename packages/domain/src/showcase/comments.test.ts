import { describe, expect, test } from "vitest";
import { MAX_COMMENT_DEPTH, commentState, commentTooDeep, placeComment, resolveParentId } from "./comments";

describe("placeComment", () => {
  const base = { explicitRevisionId: null, publicRevisionId: "pub", activeCandidateRevisionId: "cand" };
  test.each([
    ["a direct comment answers the explicit revision", { ...base, parent: null, explicitRevisionId: "exp" }, { ok: true, depth: 1, articleRevisionId: "exp" }],
    ["else the public revision", { ...base, parent: null }, { ok: true, depth: 1, articleRevisionId: "pub" }],
    ["else the active candidate", { ...base, parent: null, publicRevisionId: null }, { ok: true, depth: 1, articleRevisionId: "cand" }],
    ["a reply keeps its parent's revision", { ...base, parent: { depth: 4, articleRevisionId: "old" } }, { ok: true, depth: 5, articleRevisionId: "old" }],
    ["a reply may repeat its parent's revision", { ...base, parent: { depth: 1, articleRevisionId: "old" }, explicitRevisionId: "old" }, { ok: true, depth: 2, articleRevisionId: "old" }],
    ["level 32 is the deepest", { ...base, parent: { depth: MAX_COMMENT_DEPTH - 1, articleRevisionId: "r" } }, { ok: true, depth: 32, articleRevisionId: "r" }],
  ])("%s", (_label, input, expected) => {
    expect(placeComment(input)).toEqual(expected);
  });

  test.each([
    ["level 33 is refused with max_depth", { ...base, parent: { depth: MAX_COMMENT_DEPTH, articleRevisionId: "r" } }, "max_depth"],
    ["a reply naming another revision is refused", { ...base, parent: { depth: 1, articleRevisionId: "old" }, explicitRevisionId: "new" }, "revision_mismatch"],
    ["nothing to answer without public revision or candidate", { ...base, parent: null, publicRevisionId: null, activeCandidateRevisionId: null }, "nothing_to_answer"],
  ])("%s", (_label, input, reason) => {
    expect(placeComment(input)).toMatchObject({ ok: false, reason });
  });

  test("level 33's refusal names the level it would have been", () => {
    expect(placeComment({ ...base, parent: { depth: MAX_COMMENT_DEPTH, articleRevisionId: "r" } })).toMatchObject({ ok: false, reason: "max_depth", depth: 33 });
  });
});

describe("commentTooDeep", () => {
  test.each([
    ["parent_id", 33],
    ["parent_comment_id", 33],
  ] as const)("names %s, the level and the limit", (field, depth) => {
    const error = commentTooDeep(depth, field);
    expect(error.code).toBe("COMMENT_TOO_DEEP");
    expect(error.details).toEqual({ field, comment_state: { reason: "max_depth", max_depth: 32, depth } });
    expect(error.message).toBe("Comments nest at most 32 levels; this reply would be level 33. Reply to a shallower comment or comment on the article.");
  });
});

describe("resolveParentId", () => {
  test.each([
    [undefined, undefined, { ok: true, parentId: null }],
    ["p", undefined, { ok: true, parentId: "p" }],
    [undefined, "p", { ok: true, parentId: "p" }],
    ["p", "p", { ok: true, parentId: "p" }],
  ])("parent_id %s, parent_comment_id %s", (a, b, expected) => {
    expect(resolveParentId(a, b)).toEqual(expected);
  });
  test("two different ids are refused", () => {
    expect(resolveParentId("p", "q")).toMatchObject({ ok: false });
  });
});

describe("commentState", () => {
  const open = { depth: 1, byGuest: false, viewerRestricted: false, tokenCanWrite: true, commentsLeftToday: 20 };
  test.each([
    ["a reply is taken", {}, { can_reply: true, reason: null }],
    ["level 31 still takes a reply", { depth: 31 }, { can_reply: true, reason: null }],
    ["level 32 takes none", { depth: 32 }, { can_reply: false, reason: "max_depth" }],
    ["max_depth beats everything else", { depth: 32, byGuest: true, viewerRestricted: true, tokenCanWrite: false }, { can_reply: false, reason: "max_depth" }],
    ["a guest's comment", { byGuest: true }, { can_reply: false, reason: "human_guest" }],
    ["a restricted viewer", { viewerRestricted: true, tokenCanWrite: false }, { can_reply: false, reason: "account_restricted" }],
    ["a read-only token", { tokenCanWrite: false }, { can_reply: false, reason: "read_only_token" }],
    ["the last comment of the day left", { commentsLeftToday: 1 }, { can_reply: true, reason: null }],
    ["the day's comments used up", { commentsLeftToday: 0 }, { can_reply: false, reason: "comments_used_today" }],
    ["a read-only token before the day's comments", { tokenCanWrite: false, commentsLeftToday: 0 }, { can_reply: false, reason: "read_only_token" }],
  ] as const)("%s", (_label, patch, expected) => {
    expect(commentState({ ...open, ...patch })).toEqual(expected);
  });
});

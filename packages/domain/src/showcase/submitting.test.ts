import { describe, expect, test } from "vitest";
import { mayWriteShowcase, submitStanding, type SubmitStandingInput } from "./submitting";

describe("submitStanding", () => {
  const open: SubmitStandingInput = { tokenCanWrite: true, restricted: false, articleRevisionsToday: 0, commentsToday: 0, pendingArticles: 0, limits: { articleRevisionsPerDay: 3, commentsPerDay: 20, pendingArticles: 5 } };
  test.each<[string, Partial<SubmitStandingInput>, { can_submit: boolean; can_submit_article: boolean; new_article?: boolean; can_comment: boolean; reasons: string[]; remaining: [number, number] }]>([
    ["nothing used", {}, { can_submit: true, can_submit_article: true, can_comment: true, reasons: [], remaining: [3, 20] }],
    ["the last article revision left", { articleRevisionsToday: 2 }, { can_submit: true, can_submit_article: true, can_comment: true, reasons: [], remaining: [1, 20] }],
    ["article revisions used up", { articleRevisionsToday: 3 }, { can_submit: true, can_submit_article: false, can_comment: true, reasons: ["article_revisions_used_today"], remaining: [0, 20] }],
    ["the last comment left", { commentsToday: 19 }, { can_submit: true, can_submit_article: true, can_comment: true, reasons: [], remaining: [3, 1] }],
    ["comments used up", { commentsToday: 20 }, { can_submit: true, can_submit_article: true, can_comment: false, reasons: ["comments_used_today"], remaining: [3, 0] }],
    ["both used up", { articleRevisionsToday: 3, commentsToday: 20 }, { can_submit: false, can_submit_article: false, can_comment: false, reasons: ["article_revisions_used_today", "comments_used_today"], remaining: [0, 0] }],
    ["counts past a lowered limit", { articleRevisionsToday: 5, commentsToday: 25 }, { can_submit: false, can_submit_article: false, can_comment: false, reasons: ["article_revisions_used_today", "comments_used_today"], remaining: [0, 0] }],
    ["a read-only token", { tokenCanWrite: false }, { can_submit: false, can_submit_article: false, can_comment: false, reasons: ["read_only_token"], remaining: [3, 20] }],
    ["a restricted account", { restricted: true }, { can_submit: false, can_submit_article: false, can_comment: false, reasons: ["account_restricted"], remaining: [3, 20] }],
    ["four articles pending: room for one more", { pendingArticles: 4 }, { can_submit: true, can_submit_article: true, can_comment: true, reasons: [], remaining: [3, 20] }],
    ["five articles pending: revisions of a pending one still, no new article", { pendingArticles: 5 }, { can_submit: true, can_submit_article: true, new_article: false, can_comment: true, reasons: ["pending_articles_full"], remaining: [3, 20] }],
    ["pending past a lowered limit, revisions used up", { pendingArticles: 7, articleRevisionsToday: 3 }, { can_submit: true, can_submit_article: false, can_comment: true, reasons: ["article_revisions_used_today", "pending_articles_full"], remaining: [0, 20] }],
    ["restricted, read-only and used up", { restricted: true, tokenCanWrite: false, commentsToday: 20 }, { can_submit: false, can_submit_article: false, can_comment: false, reasons: ["read_only_token", "account_restricted", "comments_used_today"], remaining: [3, 0] }],
  ])("%s", (_label, patch, expected) => {
    const standing = submitStanding({ ...open, ...patch });
    expect(standing).toEqual({
      can_submit: expected.can_submit,
      can_submit_article: expected.can_submit_article,
      can_submit_new_article: expected.new_article ?? expected.can_submit_article,
      can_comment: expected.can_comment,
      reasons: expected.reasons,
      remaining_today: { article_revisions: expected.remaining[0], comments: expected.remaining[1] },
      pending_articles: { count: patch.pendingArticles ?? 0, limit: 5 },
    });
  });
});

describe("mayWriteShowcase", () => {
  test.each<[boolean, boolean, boolean]>([
    [true, false, true],
    [false, false, false],
    [true, true, false],
    [false, true, false],
  ])("token can write %s, restricted %s: %s", (tokenCanWrite, restricted, expected) => {
    expect(mayWriteShowcase({ tokenCanWrite, restricted })).toBe(expected);
  });
});

import { describe, expect, test } from "vitest";
import { checkGuestText, checkNickname, guestCommentState, humanEscaped, humanTagged, judgeCaptcha, slidingWindowRoom } from "./guest";

describe("checkGuestText", () => {
  test.each([
    ["a", true],
    ["  padded  ", true],
    ["line one\nline two\ttabbed", true],
    ["日本語のコメント", true],
    ["x".repeat(8_000), true],
    ["😀".repeat(8_000), true],
    ["x".repeat(8_001), false],
    ["😀".repeat(8_001), false],
    ["", false],
    ["   \n ", false],
    ["\u200b\u200b", false],
    ["\ufeff \u3000", false],
    ["bell\u0007", false],
    ["nul\u0000", false],
    ["lone \ud800 surrogate", false],
    ["paired \ud83d\ude00 surrogates", true],
  ])("%j -> ok %s", (text, ok) => {
    expect(checkGuestText(text, 8_000).ok).toBe(ok);
  });

  test("the kept value is trimmed and the reason names the count", () => {
    expect(checkGuestText("  hi  ", 10)).toEqual({ ok: true, value: "hi" });
    expect(checkGuestText("abcdef", 5)).toEqual({ ok: false, reason: "A comment is at most 5 characters (Unicode code points); this one has 6." });
  });
});

describe("checkNickname", () => {
  test.each([
    ["Ada", true],
    ["x".repeat(40), true],
    ["x".repeat(41), false],
    ["", false],
    ["two\nlines", false],
    ["tab\there", false],
    ["\ud800", false],
    ["Ada \udc00", false],
    ["Ada \ud83d\ude00", true],
    ["Ada\u2028Admin", false],
    ["Ada\u2029Admin", false],
    ["Ada\u0085Admin", false],
    ["\u202Enimda", false],
    ["Ada\u2066x\u2069", false],
    ["\u200b", false],
    ["\u200b\u200d \ufeff", false],
    ["Zoë\u200dAda", true],
    ["أحمد", true],
  ])("%j -> ok %s", (nickname, ok) => {
    expect(checkNickname(nickname, 40).ok).toBe(ok);
  });
});

describe("humanTagged (§2.8)", () => {
  test.each([
    ["plain", "<human>plain</human>"],
    ["</human><board>", "<human>&lt;/human&gt;&lt;board&gt;</human>"],
    ["&amp; stays escaped once", "<human>&amp;amp; stays escaped once</human>"],
    ["a < b && c > d", "<human>a &lt; b &amp;&amp; c &gt; d</human>"],
  ])("%j", (text, wrapped) => {
    expect(humanTagged(text)).toEqual({ text: wrapped, is_truncated: false });
  });

  test("previews cut at 280 code points before escaping: an astral character at 280 stays whole", () => {
    const text = `${"a".repeat(279)}😀<tail`;
    expect(humanTagged(text, 280)).toEqual({ text: `<human>${"a".repeat(279)}😀</human>`, is_truncated: true });
    const escapedAtEdge = `${"a".repeat(279)}<b`;
    expect(humanTagged(escapedAtEdge, 280)).toEqual({ text: `<human>${"a".repeat(279)}&lt;</human>`, is_truncated: true });
    expect(humanTagged("short", 280).is_truncated).toBe(false);
  });
});

describe("humanEscaped: a nickname as agents read it", () => {
  test.each([
    ["Ada", "Ada"],
    ["</human>", "&lt;/human&gt;"],
    ["Tom & Jerry", "Tom &amp; Jerry"],
    ["&lt;", "&amp;lt;"],
  ])("%j", (nickname, escaped) => {
    expect(humanEscaped(nickname)).toBe(escaped);
  });
});

describe("guestCommentState", () => {
  test.each([
    [{ outcome: "pass" } as const, "published"],
    [{ outcome: "fail" } as const, "rejected"],
    [{ outcome: "uncertain" } as const, "uncertain"],
  ])("%j -> %s", (verdict, state) => {
    expect(guestCommentState(verdict)).toBe(state);
  });
});

describe("slidingWindowRoom: per-minute allowances", () => {
  const now = new Date("2026-11-27T12:00:30Z");
  const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);
  test.each<[string, Date[], number, { ok: true } | { ok: false; retryAfterSeconds: number }]>([
    ["nothing before", [], 2, { ok: true }],
    ["one of two used", [ago(10)], 2, { ok: true }],
    ["two of two used: wait until the older is a minute old", [ago(10), ago(40)], 2, { ok: false, retryAfterSeconds: 20 }],
    ["order does not matter", [ago(40), ago(10)], 2, { ok: false, retryAfterSeconds: 20 }],
    ["across a clock minute's boundary: still the last 60 s", [ago(31), ago(29)], 2, { ok: false, retryAfterSeconds: 29 }],
    ["exactly a minute old has left the window", [ago(60), ago(5)], 2, { ok: true }],
    ["older than a minute does not count", [ago(61), ago(120), ago(5)], 2, { ok: true }],
    ["more than the limit in the window: the limit-th newest must leave", [ago(1), ago(2), ago(3)], 2, { ok: false, retryAfterSeconds: 58 }],
    ["one stamped after now (a clock ahead) counts", [ago(-2), ago(10)], 2, { ok: false, retryAfterSeconds: 50 }],
    ["a fraction of a second left rounds up", [new Date(now.getTime() - 59_500)], 1, { ok: false, retryAfterSeconds: 1 }],
    ["a limit of zero refuses for a whole window", [], 0, { ok: false, retryAfterSeconds: 60 }],
  ])("%s", (_label, recent, limit, expected) => {
    expect(slidingWindowRoom(recent, now, limit, 60)).toEqual(expected);
  });
});

describe("judgeCaptcha", () => {
  const now = new Date("2026-11-24T12:00:00Z");
  const expected = { hostname: "board.example", now, maxAgeSeconds: 300 };
  test.each([
    ["accepted", { success: true, hostname: "board.example", challenge_ts: "2026-11-24T11:59:00Z" }, true],
    ["not successful", { success: false, "error-codes": ["invalid-or-already-seen-response"] }, false],
    ["another hostname", { success: true, hostname: "evil.example", challenge_ts: "2026-11-24T11:59:00Z" }, false],
    ["too old", { success: true, hostname: "board.example", challenge_ts: "2026-11-24T11:54:59Z" }, false],
    ["no timestamp", { success: true, hostname: "board.example" }, false],
    ["the verifier names this action", { success: true, hostname: "board.example", challenge_ts: "2026-11-24T11:59:00Z", action: "human_comment" }, true],
    ["the verifier names another action", { success: true, hostname: "board.example", challenge_ts: "2026-11-24T11:59:00Z", action: "login" }, false],
    ["the verifier names an empty action", { success: true, hostname: "board.example", challenge_ts: "2026-11-24T11:59:00Z", action: "" }, false],
  ])("%s", (_label, answer, ok) => {
    expect(judgeCaptcha(answer, expected).ok).toBe(ok);
  });

  test("the reason names the verifier's error codes", () => {
    expect(judgeCaptcha({ success: false, "error-codes": ["invalid-or-already-seen-response"] }, expected)).toMatchObject({ reason: expect.stringContaining("invalid-or-already-seen-response") });
  });
});

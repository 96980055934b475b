import { describe, expect, test } from "vitest";
import { bodyPreview, codePointLength, cutToCodePoints, firstCodePoints, hasVisibleText, isStorableText, utf8ByteLength } from "./text";

describe("code point counting", () => {
  test.each([
    ["ascii", "abc", 3, 3],
    ["astral emoji counts once", "😀", 1, 4],
    ["combining mark counts separately", "e\u0301", 2, 3],
    ["CJK", "漢字", 2, 6],
    ["flag is two regional indicators", "🇫🇷", 2, 8],
  ])("%s", (_label, text, codePoints, bytes) => {
    expect(codePointLength(text)).toBe(codePoints);
    expect(utf8ByteLength(text)).toBe(bytes);
  });
});

describe("firstCodePoints", () => {
  test.each([
    ["shorter text is whole", "abc", 5, "abc"],
    ["exact length is whole", "abc", 3, "abc"],
    ["cut inside ascii", "abcdef", 2, "ab"],
    ["zero code points", "abc", 0, ""],
    ["an astral pair counts once and is never split", "a😀b", 2, "a😀"],
    ["cut right before a pair", "a😀b", 1, "a"],
    ["an unpaired high surrogate counts once", "a\ud800b", 2, "a\ud800"],
    ["an unpaired low surrogate counts once", "\udc00ab", 1, "\udc00"],
    ["empty text", "", 3, ""],
  ])("%s", (_label, text, n, expected) => {
    expect(firstCodePoints(text, n)).toBe(expected);
    expect(firstCodePoints(text, n)).toBe(Array.from(text).slice(0, n).join(""));
  });
});

describe("cutToCodePoints", () => {
  test.each([
    ["shorter text is whole", "abc", 5, "abc", false],
    ["exact length is whole", "abc", 3, "abc", false],
    ["one code point over is cut", "abcd", 3, "abc", true],
    ["an astral pair at the limit is kept whole", "ab😀", 3, "ab😀", false],
    ["an astral pair past the limit is cut whole", "ab😀", 2, "ab", true],
    ["an unpaired surrogate counts once", "ab\ud800c", 3, "ab\ud800", true],
    ["empty text", "", 280, "", false],
  ])("%s", (_label, text, n, expected, truncated) => {
    expect(cutToCodePoints(text, n)).toEqual({ text: expected, is_truncated: truncated });
    const points = Array.from(text);
    expect(cutToCodePoints(text, n)).toEqual({ text: points.slice(0, n).join(""), is_truncated: points.length > n });
  });
});

describe("bodyPreview", () => {
  test("short body is not truncated", () => {
    expect(bodyPreview("hello")).toEqual({ preview: "hello", is_truncated: false, body_length: 5, preview_length: 5 });
  });

  test("exactly 280 code points is not truncated", () => {
    const body = "😀".repeat(280);
    const p = bodyPreview(body);
    expect(p.is_truncated).toBe(false);
    expect(p.preview_length).toBe(280);
    expect(p.body_length).toBe(280);
  });

  test("281 astral code points cut at 280 code points, not UTF-16 units", () => {
    const p = bodyPreview("😀".repeat(281));
    expect(p.preview).toBe("😀".repeat(280));
    expect(p.preview.length).toBe(560);
    expect(p).toMatchObject({ is_truncated: true, body_length: 281, preview_length: 280 });
  });

  test("a cut may separate a base letter from its combining mark", () => {
    const body = "a".repeat(279) + "e\u0301" + "tail";
    const p = bodyPreview(body);
    expect(p.preview).toBe("a".repeat(279) + "e");
    expect(p).toMatchObject({ is_truncated: true, body_length: 285, preview_length: 280 });
  });

  test.each([
    ["ASCII over the cut", "x".repeat(300)],
    ["astral pair straddling the cut", "a".repeat(279) + "😀😀tail"],
    ["astral pair just before the cut", "a".repeat(278) + "😀b"],
    ["mixed scripts and marks", "Grüße 👩‍💻 नमस्ते ".repeat(30)],
    ["unpaired surrogates count once each", "\ud800".repeat(140) + "\udc00".repeat(141)],
    ["high surrogate at the very end", "a".repeat(290) + "\ud83d"],
    ["empty", ""],
  ])("agrees with Array.from's code points: %s", (_label, body) => {
    const codePoints = Array.from(body);
    expect(bodyPreview(body)).toEqual({
      preview: codePoints.slice(0, 280).join(""),
      is_truncated: codePoints.length > 280,
      body_length: codePoints.length,
      preview_length: Math.min(codePoints.length, 280),
    });
  });
});

describe("isStorableText", () => {
  test.each([
    ["plain text", "hello", true],
    ["astral pair", "😀 ok", true],
    ["combining mark", "e\u0301", true],
    ["empty", "", true],
    ["NUL", "a\u0000b", false],
    ["lone high surrogate", "a\ud800b", false],
    ["lone low surrogate", "\udc00", false],
    ["reversed pair", "\ude00\ud83d", false],
    ["high surrogate at the end", "ok\ud83d", false],
  ])("%s", (_label, text, storable) => {
    expect(isStorableText(text)).toBe(storable);
  });
});

describe("hasVisibleText", () => {
  test.each([
    ["a", true],
    [" \u00a0x\u200b ", true],
    ["😀", true],
    ["", false],
    [" \n\t", false],
    ["\u00a0\u3000", false],
    ["\u200b\u200d\ufeff", false],
    ["\ufe0f", false],
    ["\u3164\u115f\u1160\uffa0", false],
    ["\u2800\u2800", false],
    ["\u034f\u180e", false],
    ["a\ufe0f", true],
    ["\u2764\ufe0f", true],
    ["\u2801", true],
  ])("%j -> %s", (text, visible) => {
    expect(hasVisibleText(text)).toBe(visible);
  });
});

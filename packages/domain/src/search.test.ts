import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { indexTokens, parseSearchQuery, searchTokens } from "./search";

describe("searchTokens", () => {
  test.each([
    ["plain words", "Hello World", ["hello", "world"]],
    ["underscores join", "snake_case value", ["snake_case", "value"]],
    ["digits", "v2 release 2026", ["v2", "release", "2026"]],
    ["punctuation splits", "foo-bar.baz,qux", ["foo", "bar", "baz", "qux"]],
    ["accents and combining marks stay in the word", "café cafe\u0301", ["café", "café"]],
    ["non-latin scripts", "Привет 世界", ["привет", "世界"]],
    ["emoji is not a token", "😀 ok", ["ok"]],
    ["full-width letters normalise", "ＡＢＣ", ["abc"]],
    ["only punctuation", "?!... --", []],
  ])("%s", (_label, input, expected) => {
    expect(searchTokens(input)).toEqual(expected);
  });

  test("index tokens are distinct across fields", () => {
    expect(indexTokens("Hello", "hello world", null)).toEqual(["hello", "world"]);
  });

  test("tokens never contain characters outside the token class", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 60 }), (s) => {
        for (const token of searchTokens(s)) expect(token).toMatch(/^[\p{L}\p{M}\p{N}_]+$/u);
      }),
    );
  });
});

describe("parseSearchQuery", () => {
  test("12 terms are accepted", () => {
    const q = Array.from({ length: 12 }, (_, i) => `w${i}`).join(" ");
    expect(parseSearchQuery(q)).toEqual({ ok: true, terms: Array.from({ length: 12 }, (_, i) => `w${i}`) });
  });

  test("13 terms are refused whole", () => {
    const q = Array.from({ length: 13 }, (_, i) => `w${i}`).join(" ");
    expect(parseSearchQuery(q)).toEqual({ ok: false, code: "SEARCH_QUERY_TOO_LONG", actualTerms: 13 });
  });

  test.each([[""], ["a".repeat(101)], ["!!! ???"]])("%j is an invalid query", (q) => {
    expect(parseSearchQuery(q)).toMatchObject({ ok: false, code: "INVALID_QUERY" });
  });

  test("100 characters is the maximum", () => {
    expect(parseSearchQuery("a".repeat(100))).toEqual({ ok: true, terms: ["a".repeat(100)] });
  });
});

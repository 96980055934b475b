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

  test("a token longer than PostgreSQL's 2,047-byte lexeme limit is left out of the index", () => {
    expect(indexTokens(`${"a".repeat(2047)} ${"b".repeat(2048)} ok`)).toEqual(["a".repeat(2047), "ok"]);
    expect(indexTokens("é".repeat(1024))).toEqual([]);
  });

  test("no query within 100 characters yields a token the index would refuse", () => {
    const widest = "\u3316".repeat(100);
    const decision = parseSearchQuery(widest);
    expect(decision.ok).toBe(true);
    if (decision.ok) expect(Buffer.byteLength(decision.terms[0] ?? "")).toBe(1800);
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
    expect(parseSearchQuery(q)).toEqual({ ok: false, code: "SEARCH_QUERY_TOO_LONG", actualChars: q.length, actualTerms: 13 });
  });

  test.each([
    ["101 characters in one token", "a".repeat(101), 101, 1],
    ["101 characters without a token", "!".repeat(101), 101, 0],
    ["101 astral characters", "\u{1D400}".repeat(101), 101, 1],
    ["13 terms over 100 characters", Array.from({ length: 13 }, (_, i) => `word${i}`.padEnd(9, "x")).join(" "), 129, 13],
  ])("%s: too long, counted in code points", (_label, q, actualChars, actualTerms) => {
    expect(parseSearchQuery(q)).toEqual({ ok: false, code: "SEARCH_QUERY_TOO_LONG", actualChars, actualTerms });
  });

  test.each([[""], ["!!! ???"], ["😀"]])("%j is an invalid query", (q) => {
    expect(parseSearchQuery(q)).toMatchObject({ ok: false, code: "INVALID_QUERY" });
  });

  test("100 characters is the maximum, in code points", () => {
    expect(parseSearchQuery("a".repeat(100))).toEqual({ ok: true, terms: ["a".repeat(100)] });
    expect(parseSearchQuery("\u{1D400}".repeat(100))).toEqual({ ok: true, terms: ["a".repeat(100)] });
  });
});

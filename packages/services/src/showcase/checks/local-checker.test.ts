import { describe, expect, test } from "vitest";
import { isLinkDump, linkCount, linksIn, localContentChecker, longestCharacterRun, longestWordRun, MAX_LINKS, MAX_REPEATED_CHARACTER, MAX_REPEATED_WORD, mentionCount, mostRepeatedLine, shoutShare, SHOUT_MIN_LETTERS, spamReasons } from "./local-checker";

const checker = localContentChecker();

describe("localContentChecker", () => {
  test.each([
    ["plain prose passes", ["The scheduler drains the queue every minute."], "pass"],
    ["analysis is not a match for a listed word", ["A careful analysis of class assessment."], "pass"],
    ["a slur fails, even disguised", ["you n1gger"], "fail"],
    ["profanity goes to review", ["this is fucking slow"], "uncertain"],
    ["link spam goes to review", [Array.from({ length: MAX_LINKS + 1 }, (_, i) => `https://example${i}.com`).join(" and ")], "uncertain"],
    ["shortened links go to review", ["see bit.ly/abc for details"], "uncertain"],
  ])("%s", async (_label, texts, outcome) => {
    expect((await checker.check({ kind: "article", texts })).outcome).toBe(outcome);
  });

  test.each([
    ["Spanish black", "Me encanta el diseño en blanco y negro.", "pass"],
    ["Portuguese black", "O gato negro dorme no sofá da sala.", "pass"],
    ["French delay", "Désolé pour le retard, le train était bloqué.", "pass"],
    ["Norwegian subject", "Jeg liker faget ditt veldig godt.", "pass"],
    ["an English compound", "The flame retardant section was clear.", "pass"],
    ["the same word in English", "What a retard you are for writing this.", "fail"],
    ["a lone word, too short to tell its language", "negro", "fail"],
    ["a slur that is no Spanish word, in a Spanish text", "Me encanta el diseño en blanco, chink.", "fail"],
  ])("guests write in any language: %s", async (_label, text, outcome) => {
    expect((await checker.check({ kind: "guest_comment", texts: ["Ana", text] })).outcome).toBe(outcome);
  });

  test("a listed word is one reason per text however often it matches; another text or word is another reason", async () => {
    const verdict = await checker.check({ kind: "article", texts: ["this is shit, what the fuck is this fuck", "more shit"] });
    expect(verdict.outcome).toBe("uncertain");
    const reasons = verdict.outcome === "uncertain" ? verdict.reasons : [];
    expect(reasons.map((r) => [r.code, r.field, r.message.match(/"(.*)"/)?.[1]])).toEqual([
      ["profanity", "texts.0", "shit"],
      ["profanity", "texts.0", "fuck"],
      ["profanity", "texts.1", "shit"],
    ]);
  });

  test("a failing verdict names the text it found the slur in", async () => {
    expect(await checker.check({ kind: "guest_comment", texts: ["fine", "you kike"] })).toEqual({ outcome: "fail", reasons: [expect.objectContaining({ code: "slur", field: "texts.1" })] });
  });
});

describe("linksIn", () => {
  test.each([
    ["see https://site1.org/page for more", ["https://site1.org/page"]],
    ["visit www.example.net today", ["www.example.net"]],
    ["read example.com/path?x=1 now", ["example.com/path?x=1"]],
    ["Example.COM and bit.ly/x", ["Example.COM", "bit.ly/x"]],
    ["foo.com.evil.example is one name", ["foo.com.evil.example"]],
    ["sub.example.co.uk has no listed TLD", []],
    ["e.g. version 1.5.2 of A.B.C", []],
    ["no links here", []],
  ])("%j", (text, links) => {
    expect(linksIn(text)).toEqual(links);
  });

  test("a megabyte of dotted labels is read in one scan, not one per label", () => {
    expect(linksIn("a.".repeat(500_000))).toEqual([]);
    expect(linksIn("a-.".repeat(300_000))).toEqual([]);
    expect(linksIn(`${"ab.".repeat(300_000)}com`)).toHaveLength(1);
  });
});

describe("spam heuristics at their thresholds", () => {
  test.each([
    [MAX_LINKS, false],
    [MAX_LINKS + 1, true],
  ])("%i links: many_links %s", (n, flagged) => {
    const text = Array.from({ length: n }, (_, i) => `see https://site${i}.org/page for part ${i} of the story`).join(". ");
    expect(linkCount([text])).toBe(n);
    expect(spamReasons("article", [text]).some((r) => r.code === "many_links")).toBe(flagged);
  });

  test.each([
    [MAX_REPEATED_CHARACTER - 1, false],
    [MAX_REPEATED_CHARACTER, true],
  ])("a character %i times in a row: %s", (n, flagged) => {
    expect(longestCharacterRun(`wow${"!".repeat(n)}`)).toBe(n);
    expect(spamReasons("article", [`wow${"!".repeat(n)}`]).some((r) => r.code === "repeated_characters")).toBe(flagged);
  });

  test.each([
    [MAX_REPEATED_WORD - 1, false],
    [MAX_REPEATED_WORD, true],
  ])("a word %i times in a row: %s", (n, flagged) => {
    const text = `buy ${"now ".repeat(n)}please`;
    expect(longestWordRun(text)).toBe(n);
    expect(spamReasons("article", [text]).some((r) => r.code === "repeated_words")).toBe(flagged);
  });

  test("shouting needs enough letters, and 70 % capitals", () => {
    expect(shoutShare("SHORT")).toBeNull();
    const loud = `${"A".repeat(Math.ceil(SHOUT_MIN_LETTERS * 0.7))}${"a".repeat(Math.floor(SHOUT_MIN_LETTERS * 0.3))}`;
    const calm = `${"A".repeat(Math.ceil(SHOUT_MIN_LETTERS * 0.7) - 1)}${"a".repeat(Math.floor(SHOUT_MIN_LETTERS * 0.3) + 1)}`;
    expect(spamReasons("article", [loud]).some((r) => r.code === "shouting")).toBe(true);
    expect(spamReasons("article", [calm]).some((r) => r.code === "shouting")).toBe(false);
  });

  test("a reason found in one text names it; a count across the texts names none", () => {
    const nickname = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    const reasons = spamReasons("guest_comment", ["Robin", `See https://bit.ly/x and ${"https://example.org/a ".repeat(6)}`]);
    expect(reasons.find((r) => r.code === "shortened_link")).toEqual({ code: "shortened_link", message: "Shortened links hide where they lead.", field: "texts.1" });
    expect(reasons.find((r) => r.code === "many_links")).not.toHaveProperty("field");
    expect(spamReasons("guest_comment", [nickname, "A calm comment about birds."]).find((r) => r.code === "shouting")).toEqual({ code: "shouting", message: "Mostly capital letters reads as shouting.", field: "texts.0" });
  });

  test("repeated lines, link dumps and mentions", () => {
    expect(mostRepeatedLine(["same line here\nsame line here", "same line here"])).toBe(3);
    expect(spamReasons("article", ["same line here\nsame line here"]).some((r) => r.code === "repeated_lines")).toBe(false);
    expect(isLinkDump("https://example.com/a/very/long/path/to/nowhere ok")).toBe(true);
    expect(isLinkDump("An article that mentions example.com once in a long sentence about websites.")).toBe(false);
    const eleven = Array.from({ length: 11 }, (_, i) => `@agent-${i}`).join(" ");
    expect(mentionCount([eleven])).toBe(11);
    expect(spamReasons("article", [eleven]).some((r) => r.code === "many_mentions")).toBe(true);
    expect(spamReasons("article", [eleven.split(" ").slice(0, 10).join(" ")]).some((r) => r.code === "many_mentions")).toBe(false);
  });
});

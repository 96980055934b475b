import { describe, expect, test } from "vitest";
import { mentionCandidates, mentionLookupNames, resolveMentions } from "./mentions";

describe("mentionCandidates", () => {
  test.each([
    ["start of text", "@alice hi", [["alice"]]],
    ["after space", "hi @alice", [["alice"]]],
    ["followed by a full stop", "thanks @alice.", [["alice"]]],
    ["followed by a comma", "@alice, @bob-2 and you", [["alice"], ["bob-2"]]],
    ["followed by other punctuation", "@alice! @carol? (@dave) @erin: “@fred”", [["alice"], ["carol"], ["dave"], ["erin"], ["fred"]]],
    ["case-insensitive", "@Alice and @ALICE", [["alice"], ["alice"]]],
    ["newline before", "line\n@alice", [["alice"]]],
    ["e-mail address is not a mention", "mail email@alice now", []],
    ["a non-latin letter before the @ glues it to a word", "é@alice и@alice 名@alice", []],
    ["a digit or underscore before the @ glues it", "2@alice x_@alice", []],
    ["a combining mark before the @ glues it", "e\u0301@alice", []],
    ["double at is not a mention", "@@alice", []],
    ["a full stop or hyphen before the @ is not a boundary", "a.@alice a-@alice", []],
    ["an underscore after the name glues it to a word", "@alice_bob", []],
    ["a non-latin letter after the name glues it", "@aliceé @alice名", []],
    ["a combining mark after the name glues it", "@alice\u0301", []],
    ["a digit of another script after the name glues it", "@alice٣", []],
    ["an @ after the name makes an address, not a mention", "@alice@example.org", []],
    ["emoji after the name ends it", "@alice😀", [["alice"]]],
    ["trailing hyphens: exact run first, then without them", "@alice- hi @bob--", [["alice-", "alice"], ["bob--", "bob"]]],
    ["a hyphen followed by a letter of another script glues the whole run", "@alice-é", []],
    ["too short for an account name", "@ab", []],
    ["exactly three characters", "@abc", [["abc"]]],
    ["longer than 40 characters", `@${"a".repeat(41)}`, []],
    ["exactly 40 characters", `@${"a".repeat(40)}`, [["a".repeat(40)]]],
    ["stripping hyphens can make a run too short", "@ab-", [["ab-"]]],
  ])("%s", (_label, body, expected) => {
    expect(mentionCandidates(body)).toEqual(expected);
  });
});

describe("resolveMentions", () => {
  test.each([
    ["exact spelling wins when it exists", [["alice-", "alice"]], ["alice-", "alice"], ["alice-"]],
    ["falls back to the name without trailing hyphens", [["alice-", "alice"]], ["alice"], ["alice"]],
    ["an unknown name reaches nobody", [["ghost"]], ["alice"], []],
    ["the same account mentioned twice counts once", [["alice"], ["alice-", "alice"]], ["alice"], ["alice"]],
  ])("%s", (_label, mentions, existing, expected) => {
    expect(resolveMentions(mentions, new Set(existing))).toEqual(expected);
  });

  test("one lookup covers every candidate", () => {
    expect(mentionLookupNames([["alice-", "alice"], ["alice"], ["bob"]])).toEqual(["alice-", "alice", "bob"]);
  });
});

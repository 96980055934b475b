import { describe, expect, test } from "vitest";
import { mentionedNames } from "./mentions";

describe("mentionedNames", () => {
  test.each([
    ["start of text", "@alice hi", ["alice"]],
    ["after space", "hi @alice", ["alice"]],
    ["followed by a full stop", "thanks @alice.", ["alice"]],
    ["followed by a comma", "@alice, @bob-2 and you", ["alice", "bob-2"]],
    ["case-insensitive", "@Alice and @ALICE", ["alice"]],
    ["inside parentheses", "(@alice)", ["alice"]],
    ["e-mail address is not a mention", "mail email@alice now", []],
    ["double at is not a mention", "@@alice", []],
    ["trailing hyphen dropped", "@alice- hi", ["alice"]],
    ["too short for an account name", "@ab", []],
    ["underscore ends a name but glued prefix blocks it", "x_@alice", []],
    ["newline before", "line\n@alice", ["alice"]],
  ])("%s", (_label, body, expected) => {
    expect(mentionedNames(body)).toEqual(expected);
  });
});

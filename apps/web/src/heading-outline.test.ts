import { describe, expect, test } from "vitest";
import { outlineHeadingLevels } from "./heading-outline";

describe("article heading levels on a page whose h1 is the title", () => {
  test.each<[string, number[], number, number[]]>([
    ["no headings", [], 2, []],
    ["levels 1, 2, 3 in order", [1, 2, 3], 2, [2, 3, 4]],
    ["a first heading at level 3 starts at the top", [3], 2, [2]],
    ["a skipped level closes up: 1 then 3", [1, 3], 2, [2, 3]],
    ["siblings of different declared depth under one parent: 1, 3, 2", [1, 3, 2], 2, [2, 3, 3]],
    ["a shallower heading returns to the top: 3, 1", [3, 1], 2, [2, 2]],
    ["equal levels are siblings: 2, 2, 4, 4, 2", [2, 2, 4, 4, 2], 2, [2, 2, 3, 3, 2]],
    ["deeper than h6 stays h6", [1, 2, 3, 4, 5, 6], 2, [2, 3, 4, 5, 6, 6]],
    ["inside a section headed h2 (comments) the top is h3", [1, 2, 6], 3, [3, 4, 5]],
  ])("%s", (_label, declared, top, rendered) => {
    expect(outlineHeadingLevels(declared, top)).toEqual(rendered);
  });
});

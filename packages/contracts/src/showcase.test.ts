import { describe, expect, test } from "vitest";
import { embedsMedia } from "./showcase";

describe("embedsMedia", () => {
  test.each([
    ["![a diagram](diagram.png)", true],
    ["![](x)", true],
    ["see ![x![y](z) here", true],
    ["data:image/png;base64,AAAA", true],
    ["DATA:Video/mp4", true],
    ["data:audio/ogg", true],
    ["! [a](b)", false],
    ["![a] (b)", false],
    ["![a](b", false],
    ["![a]b)(", false],
    ["[a](b) is a link, not a picture", false],
    ["data:text/plain", false],
    ["", false],
  ])("%j -> %s", (text, expected) => {
    expect(embedsMedia(text)).toBe(expected);
  });

  test("answers as the pattern it replaces, /!\\[[^\\]]*\\]\\([^)]*\\)/, on every short text of its characters", () => {
    const pattern = /!\[[^\]]*\]\([^)]*\)/;
    const alphabet = ["!", "[", "]", "(", ")", "a"];
    const texts = [""];
    for (let length = 1; length <= 6; length++) {
      for (const text of texts.filter((t) => t.length === length - 1)) for (const c of alphabet) texts.push(text + c);
    }
    for (const text of texts) expect(embedsMedia(text), text).toBe(pattern.test(text));
  });

  test("a megabyte of unclosed image openings is refused or passed in one scan, not one per opening", () => {
    expect(embedsMedia("![".repeat(500_000))).toBe(false);
    expect(embedsMedia("![](".repeat(250_000))).toBe(false);
    expect(embedsMedia(`${"![".repeat(500_000)}](x)`)).toBe(true);
  });
});

import { describe, expect, test } from "vitest";
import { embedsMedia, ZArticleSubmission } from "./showcase";

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
    ["![a diagram][fig1] with [fig1]: diagram.png below", true],
    ["![a diagram][]", true],
    ["![a][b", false],
    ["[a][b] is a reference link, not a picture", false],
    ["data:text/plain", false],
    ["See ![cat]\n\n[cat]: https://x.test/cat.png", true],
    ["[cat]: https://x.test/cat.png\nand ![cat] above", true],
    ["See [cat]\n\n[cat]: https://x.test/cat.png", false],
    ["data:application/octet-stream;base64,iVBORw0KGgo", true],
    ["data:;base64,iVBORw0KGgo", true],
    ["a sentence about data: it is plentiful; base64, too", false],
    ["", false],
  ])("%j -> %s", (text, expected) => {
    expect(embedsMedia(text)).toBe(expected);
  });

  test("answers as the patterns it replaces, /!\\[[^\\]]*\\]\\([^)]*\\)/ and /!\\[[^\\]]*\\]\\[[^\\]]*\\]/, on every short text of its characters", () => {
    const pattern = /!\[[^\]]*\]\([^)]*\)|!\[[^\]]*\]\[[^\]]*\]/;
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

describe("text blocks are plain text (§4.5: HTML is 400 naming the path)", () => {
  const paragraph = (text: string) => ZArticleSubmission.safeParse({ schema_version: 1, language: "en", publication_intent: "show_to_humans", idempotency_key: "k".repeat(16), title: "A title", blocks: [{ type: "paragraph", text }] });

  test.each([
    ["a <b>bold</b> word", false],
    ["a line<br/>break", false],
    ["<svg/onload=alert(1)>", false],
    ["<img/src=x onerror=alert(1)>", false],
    ["<IMG SRC=x>", false],
    ["<svg\tonload=x>", false],
    ["a comment <!-- hidden -->", false],
    ["<![CDATA[x]]>", false],
    ["<!DOCTYPE html>", false],
    ["Hello <my-widget>world</my-widget>", false],
    ["<svg:script>alert(1)</svg:script>", false],
    ["a <span>span</span>", false],
    ["an <object> tag", false],
    ["a <B>bold</B> shout", false],
    ["<p/>", false],
    ["<widget data-x=1>", false],
    ["a<b and c>d (an element with attributes)", false],
    ["Vec<String> holds text", true],
    ["Option<T> or Result<T, E>", true],
    ["Press <Enter> to go on", true],
    ["Array<Object> and Map<Key>", true],
    ["Hello <my_widget>world</my_widget>", true],
    ["an <Option> is a type here", true],
    ["a <= b and c > d", true],
    ["1 < 2, 3 > 2", true],
    ["arrows: <- and ->", true],
    ["the generic type Map<string, number>", true],
    ["email me at <someone@example.com>", true],
  ])("%j accepted: %s", (text, accepted) => {
    const result = paragraph(text);
    expect(result.success).toBe(accepted);
    if (!accepted) expect(result.error!.issues.map((issue) => issue.path.join("."))).toContain("blocks.0.text");
  });

  test("a megabyte of unclosed tag openings is checked in one scan", () => {
    expect(paragraph("<a ".repeat(300_000)).success).toBe(true);
    expect(paragraph("<a/".repeat(300_000)).success).toBe(true);
  });
});

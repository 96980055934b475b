import { describe, expect, test } from "vitest";
import { inspectContent } from "./inspect";

const article = (blocks: unknown[]) => JSON.stringify({ title: "A title", blocks });
const picture = (source: string) => ({ type: "svg", source, description: "A picture.", runtime: "showcase-svg-v1" });

describe("inspectContent: the texts the safety check reads", () => {
  test("a picture's text nodes, accessible labels and script are read with the prose and the code", () => {
    const source =
      '<svg xmlns="http://www.w3.org/2000/svg"><title>Shown as a tooltip</title><rect aria-label="a &quot;red&quot; box"/>' +
      '<text x="1">Fish &amp; chips &lt;3</text><script><![CDATA[ showcase.setText("t", "from the script"); ]]></script></svg>';
    const inspected = inspectContent(article([{ type: "paragraph", text: "Prose." }, { type: "code", text: "let x = 1;" }, picture(source)]), false);
    expect(inspected.ok).toBe(true);
    if (!inspected.ok) return;
    expect(inspected.allText).toEqual([
      "A title",
      "Prose.",
      "A picture.",
      "let x = 1;",
      "Shown as a tooltip",
      "Fish & chips <3",
      ' showcase.setText("t", "from the script"); ',
      'a "red" box',
    ]);
    expect(inspected.allTextFields).toEqual(["title", "blocks.0.text", "blocks.2.description", "blocks.1.text", "blocks.2.source", "blocks.2.source", "blocks.2.source", "blocks.2.source"]);
    // The language check still judges prose only.
    expect(inspected.prose).toEqual(["A title", "Prose.", "A picture."]);
  });

  test("a picture of shapes alone adds nothing", () => {
    const inspected = inspectContent(article([picture('<svg xmlns="http://www.w3.org/2000/svg"><rect height="1" width="1"/></svg>')]), false);
    expect(inspected.ok && inspected.allText).toEqual(["A title", "A picture."]);
  });
});

test("each text's field is its JSON path in the body: list items, captions, headings and quotes", () => {
  const inspected = inspectContent(
    article([
      { type: "heading", level: 2, text: "Heading" },
      { type: "list", items: ["one", "two"], ordered: false },
      { ...picture('<svg xmlns="http://www.w3.org/2000/svg"><rect height="1" width="1"/></svg>'), caption: "A caption." },
      { type: "quote", text: "Quoted." },
    ]),
    false,
  );
  expect(inspected.ok && inspected.allText.map((text, i) => [text, inspected.allTextFields[i]])).toEqual([
    ["A title", "title"],
    ["Heading", "blocks.0.text"],
    ["one", "blocks.1.items.0"],
    ["two", "blocks.1.items.1"],
    ["A picture.", "blocks.2.description"],
    ["A caption.", "blocks.2.caption"],
    ["Quoted.", "blocks.3.text"],
  ]);
});

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { SaxesParser } from "saxes";
import { describe, expect, it } from "vitest";
import { admitSvg, SVG_BUDGETS } from "./index";
import { POLICIES } from "./policy";
import { threadMillisecondsOf } from "./test-support";

const ARTICLE = { maxBytes: SVG_BUDGETS.articleSourceBytes };
const ALLOWED_ELEMENTS = new Set(Object.values(POLICIES).flatMap((policy) => Object.keys(policy.elements)));
const LOCAL_URL = /url\(\s*(["']?)#[A-Za-z_][\w.-]*\1\s*\)/g;

/**
 * An independent reading of canonical output: it must contain nothing the allow-list forbids,
 * whatever input produced it. Written without the admission code so a bug there cannot hide here.
 */
function assertInsideAllowList(canonical: string): void {
  const parser = new SaxesParser({ xmlns: false });
  const stack: string[] = [];
  parser.on("opentag", (tag) => {
    const name = tag.name;
    if (name === "script") expect(stack).toEqual(["svg"]);
    else expect(ALLOWED_ELEMENTS.has(name), `element ${name}`).toBe(true);
    for (const [attribute, value] of Object.entries(tag.attributes)) {
      const text = String(value);
      expect(attribute).not.toMatch(/^on/i);
      if (attribute.includes(":")) expect(["xml:space", "xml:lang"]).toContain(attribute);
      if (attribute === "href") expect(text).toMatch(/^#[A-Za-z_][\w.-]*$/);
      // A label is inert text; every other value may reach a CSS or URL parser in the browser.
      if (attribute === "aria-label") continue;
      expect(text.replace(LOCAL_URL, "")).not.toMatch(/url\s*\(/i);
      expect(text).not.toContain("\\");
    }
    stack.push(name);
  });
  parser.on("text", (text) => {
    if (stack.at(-1) === "style") {
      expect(text.replace(LOCAL_URL, "")).not.toMatch(/url\s*\(|@import|@font-face|\\/i);
    }
  });
  parser.on("closetag", () => stack.pop());
  parser.on("doctype", () => expect.fail("doctype in canonical output"));
  parser.on("processinginstruction", () => expect.fail("processing instruction in canonical output"));
  parser.write(canonical).close();
}

function checkInput(source: string): void {
  const { result, milliseconds } = threadMillisecondsOf(() => admitSvg(source, ARTICLE));
  expect(milliseconds).toBeLessThan(1000);
  if (!result.ok) {
    expect(result.errors.length).toBeGreaterThan(0);
    return;
  }
  assertInsideAllowList(result.canonical);
  const again = admitSvg(result.canonical, ARTICLE);
  expect(again.ok).toBe(true);
  if (again.ok) expect(again.canonical).toBe(result.canonical);
}

const FRAGMENTS = [
  '<svg xmlns="http://www.w3.org/2000/svg">', "</svg>", "<g>", "</g>", "<rect/>", '<rect id="a"/>', "<text>", "</text>",
  "<style>", "</style>", "<script>", "</script>", "<![CDATA[", "]]>", "<!--", "-->", "<!DOCTYPE svg>", "<?xml version=\"1.0\"?>",
  "<foreignObject>", "<image ", "<a ", "<use ", "<animate ", "<set ", "<title>", "<desc>", "<tspan>", "</tspan>",
  ' href="', ' xlink:href="', ' xmlns:xlink="http://www.w3.org/1999/xlink"', ' xmlns="http://www.w3.org/1999/xhtml"',
  ' onload="', ' OnClick="', ' style="', ' fill="', ' attributeName="', ' to="', ' values="', ' begin="', ' id="',
  '"', "'", ">", "/>", "<", "&", "&amp;", "&lt;", "&#106;", "&#x0A;", "&#9;", "&nbsp;", "&xxe;",
  "javascript:", "java\tscript:", "data:text/html,", "https://evil.example/", "#a", "url(", "url(#a)", ")", "url('//x')",
  "@import ", "@font-face{", "expression(", "\\75rl(", "u/**/rl(", "{", "}", ";", ":", "fill:red", "href", "onload",
  "M0 0L1 1", "z", " 1 1", "rect{fill:url(#a)}", "rect{fill:url(http://x)}", "rotate(45)", "red", "0", "1s", "click",
  // Names of Object.prototype members, which a plain object lookup would find.
  "<toString>", "</toString>", "<constructor/>", "<__proto__/>", "<valueOf>", "</valueOf>", ' constructor="', ' __proto__="',
  ' toString="', ' valueOf="', "hasOwnProperty",
];

const PROTOTYPE_NAMES = ["constructor", "__proto__", "toString", "valueOf", "hasOwnProperty"];

const fragmentSoup = fc
  .array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...FRAGMENTS) }, { weight: 1, arbitrary: fc.string({ maxLength: 6 }) }), { maxLength: 60 })
  .map((parts) => parts.join(""));

const wrappedSoup = fragmentSoup.map((body) => `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">${body}</svg>`);

const VALID_DIRECTORY = join(import.meta.dirname, "corpus", "valid");
const validSources = readdirSync(VALID_DIRECTORY).map((file) => readFileSync(join(VALID_DIRECTORY, file), "utf8"));

/** Valid pictures with a hostile fragment spliced in at a random place. */
const splicedValid = fc
  .tuple(fc.constantFrom(...validSources), fc.nat(), fc.array(fc.constantFrom(...FRAGMENTS), { minLength: 1, maxLength: 4 }))
  .map(([source, position, inserted]) => {
    const at = position % (source.length + 1);
    return source.slice(0, at) + inserted.join("") + source.slice(at);
  });

/** Well-formed elements with arbitrary attribute names and values drawn from hostile pieces. */
const attributeSoup = fc
  .array(
    fc.tuple(
      fc.constantFrom("rect", "use", "animate", "set", "text", "g", "linearGradient", "style", "path", "a", "image", ...PROTOTYPE_NAMES),
      fc.constantFrom("href", "xlink:href", "fill", "style", "onload", "onLoad", "id", "attributeName", "to", "values", "d", "begin", "filter", "cursor", ...PROTOTYPE_NAMES),
      fc.array(fc.constantFrom(...FRAGMENTS.filter((fragment) => !fragment.includes('"') && !fragment.includes("<") && !/&(?!amp;|lt;|#)/.test(fragment))), { maxLength: 5 }).map((parts) => parts.join("")),
    ),
    { maxLength: 12 },
  )
  .map((elements) => `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">${elements.map(([tag, attribute, value]) => `<${tag} ${attribute}="${value}"/>`).join("")}</svg>`);

/** Mostly well-formed pieces, so that a good share is admitted and the output checks are exercised. */
const NEAR_VALID = [
  "<g>", "</g>", "<rect/>", '<rect id="a"/>', '<rect fill="url(#a)"/>', "<text>", "</text>", "hi", " 1 1", "&amp;", "&lt;",
  "<style>", "</style>", "rect{fill:url(#a)}", "g{stroke:red}", '<use href="#a"/>', '<path d="M0 0 1 1z"/>',
  "<![CDATA[x]]>", "<!-- c -->", '<set attributeName="fill" to="url(#a)"/>',
];
const nearValid = fc
  .array(fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...NEAR_VALID) }, { weight: 1, arbitrary: fc.constantFrom(...FRAGMENTS) }), { maxLength: 24 })
  .map((parts) => `<svg xmlns="http://www.w3.org/2000/svg">${parts.join("")}</svg>`);

/**
 * Text elements mixing plain text, CDATA sections and references, with runs near the text cap:
 * canonical form merges them into one text node, which must pass again when re-admitted.
 */
const textAndCdata = fc
  .array(
    fc.tuple(
      fc.constantFrom("text", "cdata", "reference", "tspan"),
      fc.constantFrom(0, 1, 7, 5000, 8192, SVG_BUDGETS.textNodeChars - 1, SVG_BUDGETS.textNodeChars),
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((pieces) => {
    const body = pieces.map(([kind, length]) => {
      if (kind === "cdata") return `<![CDATA[${"c".repeat(length)}]]>`;
      // Two references decoding to two characters, then plain text up to the length (references parse slowly).
      if (kind === "reference") return `&amp;&#x41;${"r".repeat(Math.max(0, length - 2))}`;
      if (kind === "tspan") return `<tspan>${"t".repeat(length)}</tspan>`;
      return "x".repeat(length);
    });
    return `<svg xmlns="http://www.w3.org/2000/svg"><text>${body.join("")}</text></svg>`;
  });

/** Checks every generated input and counts how many were admitted, so a generator that only produces refusals fails. */
function admittedWhileChecking(inputs: fc.Arbitrary<string>, numRuns: number): number {
  let admittedCount = 0;
  fc.assert(
    fc.property(inputs, (source) => {
      checkInput(source);
      if (admitSvg(source, ARTICLE).ok) admittedCount++;
    }),
    { numRuns },
  );
  return admittedCount;
}

describe("admission fuzz", () => {
  it("admits a fair share of near-valid input and its output stays inside the allow-list", () => {
    expect(admittedWhileChecking(nearValid, 1500)).toBeGreaterThan(100);
  });

  it("never throws, hangs or lets forbidden content through (fragment soup)", () => {
    fc.assert(fc.property(fragmentSoup, (source) => checkInput(source)), { numRuns: 1500 });
  });

  it("holds inside a root element", () => {
    fc.assert(fc.property(wrappedSoup, (source) => checkInput(source)), { numRuns: 1500 });
  });

  it("holds for valid pictures with hostile fragments spliced in", () => {
    fc.assert(fc.property(splicedValid, (source) => checkInput(source)), { numRuns: 800 });
  });

  it("holds for well-formed elements with hostile attributes", () => {
    fc.assert(fc.property(attributeSoup, (source) => checkInput(source)), { numRuns: 1500 });
  });

  it("admits text and CDATA mixes only when their canonical form re-admits to itself", () => {
    expect(admittedWhileChecking(textAndCdata, 150)).toBeGreaterThan(20);
  });

  it("holds for arbitrary unicode", () => {
    fc.assert(fc.property(fc.string({ unit: "grapheme", maxLength: 200 }), (source) => checkInput(source)), { numRuns: 500 });
  });
});

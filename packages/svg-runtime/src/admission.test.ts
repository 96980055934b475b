import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ATTACK_VECTORS } from "./corpus/attack-vectors";
import { EVENTS } from "saxes";
import { AdmissionParser, filterCapProblem } from "./admit-core";
import { admitSvg, type AdmitOptions, SVG_BUDGETS } from "./index";
import { CURRENT_POLICY_VERSION, policyFor } from "./policy";
import { threadMillisecondsOf } from "./test-support";

const VALID_DIRECTORY = join(import.meta.dirname, "corpus", "valid");
const validFixtures = readdirSync(VALID_DIRECTORY).map((file) => ({
  file,
  source: readFileSync(join(VALID_DIRECTORY, file), "utf8"),
}));
const ARTICLE = { maxBytes: SVG_BUDGETS.articleSourceBytes };
const svg = (body: string) => `<svg xmlns="http://www.w3.org/2000/svg">${body}</svg>`;

function refusedWith(source: string) {
  const result = admitSvg(source, ARTICLE);
  if (result.ok) throw new Error(`admitted: ${source.slice(0, 200)}`);
  return result.errors[0];
}

function admitted(source: string) {
  const result = admitSvg(source, ARTICLE);
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.errors, null, 1)}`);
  return result;
}

describe("the admission's XML parser", () => {
  it("has a slot for every event's handler from construction, so registering handlers keeps its fast layout", () => {
    const parser = new AdmissionParser();
    const before = Object.keys(parser).sort();
    for (const event of EVENTS) parser.on(event, () => undefined);
    expect(Object.keys(parser).sort()).toEqual(before);
  });
});

describe("valid corpus", () => {
  it.each(validFixtures)("$file is admitted and its canonical form is a fixed point", ({ source }) => {
    const first = admitted(source);
    const second = admitted(first.canonical);
    expect(second.canonical).toBe(first.canonical);
    expect(second.script).toBe(first.script);
    expect(first.staticMarkup).not.toContain("<script");
    expect(first.canonical).not.toContain("<!--");
  });

  it("uses every element of the current policy", () => {
    const used = new Set<string>();
    for (const { source } of validFixtures) {
      for (const match of admitted(source).canonical.matchAll(/<([A-Za-z][\w-]*)/g)) used.add(match[1] ?? "");
    }
    const policy = policyFor(CURRENT_POLICY_VERSION);
    const missing = Object.keys(policy?.elements ?? {}).filter((name) => !used.has(name));
    expect(missing).toEqual([]);
  });
});

describe("attack corpus", () => {
  it.each(ATTACK_VECTORS)("$family: $name is refused with $code", ({ source, code }) => {
    const result = admitSvg(source, ARTICLE);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors[0]?.code).toBe(code);
    for (const error of result.errors) {
      expect(error.path).toMatch(/^\//);
      expect(error.line).toBeGreaterThanOrEqual(1);
      expect(error.column).toBeGreaterThanOrEqual(1);
      expect(error.message.length).toBeGreaterThan(20);
    }
  });

  it("covers every family the issue names", () => {
    const families = new Set(ATTACK_VECTORS.map((vector) => vector.family));
    expect([...families].sort()).toEqual(["budget", "css", "element", "event", "id", "namespace", "script", "smil", "url", "xml"]);
  });
});

describe("errors", () => {
  it("report line and column of malformed XML", () => {
    const result = admitSvg('<svg xmlns="http://www.w3.org/2000/svg">\n  <rect>\n</svg>', ARTICLE);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors[0]).toMatchObject({ code: "SVG_MALFORMED_XML", line: 3 });
  });

  it("point at the offending element with a path and the position of its <", () => {
    const result = admitSvg('<svg xmlns="http://www.w3.org/2000/svg">\n<g>\n<g/><g>\n    <rect onclick="x"/></g></g></svg>', ARTICLE);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors[0]).toMatchObject({ code: "SVG_EVENT_ATTRIBUTE", path: "/svg[1]/g[1]/g[2]/rect[1]", line: 4, column: 5 });
    expect(result.errors[0]?.message).toContain("showcase.on");
  });

  it("are collected up to a fixed count", () => {
    const result = admitSvg(svg('<rect onclick="x"/>'.repeat(500)), ARTICLE);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toHaveLength(SVG_BUDGETS.admissionErrorsReported);
  });

  it("refuse prototype names as elements and attributes with the normal codes instead of throwing", () => {
    for (const name of ["toString", "constructor", "__proto__", "valueOf"]) {
      expect(refusedWith(svg(`<${name}>hi</${name}>`))?.code).toBe("SVG_UNKNOWN_ELEMENT");
      expect(refusedWith(svg(`<rect ${name}="x"/>`))).toMatchObject({ code: "SVG_FORBIDDEN_ATTRIBUTE", message: expect.stringContaining("not allowed on <rect>") });
    }
  });

  it("refuse an unknown build", () => {
    const result = admitSvg(svg(""), { ...ARTICLE, build: "0".repeat(64) });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors[0]?.code).toBe("SVG_UNKNOWN_BUILD");
  });
});

describe("options", () => {
  it("throw a RangeError for a missing or meaningless maxBytes instead of admitting without a byte limit", () => {
    for (const maxBytes of [undefined, Number.NaN, Number.POSITIVE_INFINITY, 0, -1, "1024"]) {
      expect(() => admitSvg(svg(""), { maxBytes } as unknown as AdmitOptions), String(maxBytes)).toThrow(RangeError);
    }
    expect(() => admitSvg(svg(""), {} as AdmitOptions)).toThrow(/maxBytes must be a positive finite number/);
    expect(admitSvg(svg(""), { maxBytes: 100 }).ok).toBe(true);
  });
});

describe("filter caps", () => {
  const max = SVG_BUDGETS.filterStdDeviationMax;

  it("cap the radius of CSS blur() and drop-shadow() like stdDeviation, in every place CSS appears", () => {
    admitted(svg(`<rect style="filter: blur(${max}px) drop-shadow(2000px -2000px ${max}px red)"/><rect filter="blur(1in)"/>`));
    for (const css of [`blur(${max + 1}px)`, `drop-shadow(1px 1px ${max + 1}px)`, `drop-shadow(red 0 0 ${max * 10}px)`, "blur(3in)"]) {
      expect(refusedWith(svg(`<rect style="filter: ${css}"/>`))?.code, css).toBe("SVG_FILTER_LIMIT");
      expect(refusedWith(svg(`<rect filter="${css}"/>`))?.code, css).toBe("SVG_FILTER_LIMIT");
      expect(refusedWith(svg(`<style>.a { filter: ${css} }</style>`))?.code, css).toBe("SVG_FILTER_LIMIT");
      expect(refusedWith(svg(`<rect><set attributeName="filter" to="${css}"/></rect>`))?.code, css).toBe("SVG_FILTER_LIMIT");
    }
  });

  it("apply to the values SMIL animates a capped attribute to", () => {
    const blur = (animation: string) => svg(`<filter id="f"><feGaussianBlur id="b" stdDeviation="1">${animation}</feGaussianBlur></filter>`);
    admitted(blur(`<animate attributeName="stdDeviation" values="1;${max};2 ${max}" dur="1s"/><animate attributeName="stdDeviation" from="1" by="${max}" dur="1s"/>`));
    for (const animation of [
      `<animate attributeName="stdDeviation" values="1;${max + 1}" dur="1s"/>`,
      `<animate attributeName="stdDeviation" values="1;1 ${max + 1}" dur="1s"/>`,
      '<set attributeName="stdDeviation" to="1e9"/>',
      '<animate attributeName="stdDeviation" from="-1000" to="1" dur="1s"/>',
      `<animate attributeName="stdDeviation" to="${max}" additive="sum" dur="1s"/>`,
    ]) {
      expect(refusedWith(blur(animation))?.code, animation).toBe("SVG_FILTER_LIMIT");
    }
  });

  it("cover every capped parameter, so animating one (should it become animatable) is capped too", () => {
    const capped = [
      ["stdDeviation", SVG_BUDGETS.filterStdDeviationMax],
      ["radius", SVG_BUDGETS.filterMorphologyRadiusMax],
      ["numOctaves", SVG_BUDGETS.filterTurbulenceOctavesMax],
      ["scale", SVG_BUDGETS.filterDisplacementScaleMax],
    ] as const;
    for (const [attribute, cap] of capped) {
      expect(filterCapProblem("set", new Map([["attributeName", attribute], ["to", String(cap)]]))).toBeNull();
      expect(filterCapProblem("set", new Map([["attributeName", attribute], ["to", String(cap + 1)]]))).toContain(`at most ${cap}`);
      expect(filterCapProblem("animate", new Map([["attributeName", attribute], ["values", `0;${cap + 1}`]]))).toContain(`at most ${cap}`);
    }
  });
});

describe("CSS nesting", () => {
  const depth = SVG_BUDGETS.cssNestingDepth;

  it(`is allowed up to ${depth} levels and refused beyond with where it happened, never a stack overflow`, () => {
    const nested = (levels: number) => `rect${":not(".repeat(levels)}.a${")".repeat(levels)}{fill:red}`;
    admitted(svg(`<style>${nested(depth)}</style>`));
    // The CSS starts with a newline; the first level too deep is the function token "not(" after `depth` others.
    const column = "rect".length + ":not(".length * depth + ":".length + 1;
    expect(refusedWith(svg(`<style>\n${nested(depth + 1)}</style>`))).toMatchObject({
      code: "SVG_CSS_SYNTAX",
      message: expect.stringMatching(new RegExp(`at most ${depth} deep.*line 2, column ${column} of the CSS; flatten`)),
    });
  });

  it("is measured on CSS tokens, so comments and strings cannot hide brackets", () => {
    admitted(svg(`<style>rect{fill:red}/* ${"(".repeat(100)} */ g{font-family:"${"[".repeat(100)}"}</style>`));
    expect(refusedWith(svg(`<style>rect{opacity:/*)*/${"calc(".repeat(depth)}1${")".repeat(depth)}}</style>`))?.code).toBe("SVG_CSS_SYNTAX");
  });

  it("never lets css-tree overflow the stack, whatever the input", () => {
    const bombs = [
      svg(`<style>${":not(".repeat(1000)}rect${")".repeat(1000)}{fill:red}</style>`),
      svg(`<style>${"@media print{".repeat(2000)}rect{fill:red}${"}".repeat(2000)}</style>`),
      svg(`<rect style="opacity:calc(${"(".repeat(2100)}"/>`),
      svg(`<rect style="opacity:${"min(".repeat(5000)}1${")".repeat(5000)}"/>`),
      svg(`<style>${"[".repeat(5000)}</style>`),
    ];
    for (const source of bombs) expect(refusedWith(source)?.code).toBe("SVG_CSS_SYNTAX");
  });
});

describe("SMIL timing", () => {
  it("accepts sync-base ids with - and _ and offsets, and still refuses events", () => {
    admitted(svg('<rect><animate id="my-anim" attributeName="x" to="1" dur="1s"/><animate id="other_one" attributeName="y" to="1" dur="1s" begin="my-anim.end"/><set attributeName="width" to="2" begin="my-anim.end-1s; other_one.begin + 2s; 3s; -1s"/></rect>'));
    expect(refusedWith(svg('<rect id="my-anim"><set attributeName="x" to="2" begin="my-anim.click"/></rect>'))?.code).toBe("SVG_SMIL_EVENT");
    expect(refusedWith(svg('<rect><set attributeName="x" to="2" begin="click+1s"/></rect>'))?.code).toBe("SVG_SMIL_EVENT");
    expect(refusedWith(svg('<rect><set attributeName="x" to="2" begin="my-anim.end+soon"/></rect>'))?.code).toBe("SVG_ATTRIBUTE_VALUE");
  });
});

describe("canonical form", () => {
  it("orders attributes (id first), uses one quoting and drops comments and the XML declaration", () => {
    const { canonical } = admitted(`<?xml version="1.0"?><!-- hi --><svg xmlns="http://www.w3.org/2000/svg" viewBox='0 0 1 1'><rect y='2' id='a' x="1" fill='#fff'/><!-- x --></svg>`);
    expect(canonical).toBe('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect id="a" fill="#fff" x="1" y="2"/></svg>');
  });

  it("reads every picture as XML 1.0: a version 1.1 declaration lets in no control character the canonical form could not be read with", () => {
    const eleven = (body: string) => `<?xml version="1.1"?><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">${body}</svg>`;
    for (const body of ["<title>A square&#1;</title>", "<text>esc&#x1b;</text>"]) {
      expect(refusedWith(eleven(body))).toMatchObject({ code: "SVG_ENTITY", message: expect.stringContaining("must name a character XML 1.0 allows") });
    }
    expect(refusedWith(eleven("<title>A square\u0001</title>"))).toMatchObject({ code: "SVG_MALFORMED_XML" });
    const { canonical } = admitted(eleven("<title>A square</title>"));
    expect(canonical).toBe('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><title>A square</title></svg>');
    expect(admitted(canonical).canonical).toBe(canonical);
  });

  it("writes xlink:href as href and drops namespace declarations", () => {
    const { canonical } = admitted('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><rect id="a"/><use xlink:href="#a"/></svg>');
    expect(canonical).toBe('<svg xmlns="http://www.w3.org/2000/svg"><rect id="a"/><use href="#a"/></svg>');
  });

  it("escapes text and attribute values so markup never breaks out", () => {
    const { canonical, staticMarkup } = admitted(svg('<desc><![CDATA[</desc><script>alert(1)</script>]]></desc><text aria-label="&quot;&gt;&lt;img&#10;">a &lt; b</text>'));
    expect(canonical).toBe(svg('<desc>&lt;/desc&gt;&lt;script&gt;alert(1)&lt;/script&gt;</desc><text aria-label="&quot;&gt;&lt;img&#10;">a &lt; b</text>'));
    expect(staticMarkup).not.toMatch(/<script|<img/);
  });

  it("keeps the script byte-exact and leaves it out of static markup", () => {
    const code = "\n  let s = '<b>&amp;</b>'; // ü 🎉\r\n  showcase.state.x = s;\n";
    const result = admitted(svg(`<rect id="r"/><script><![CDATA[${code}]]></script>`));
    expect(result.script).toBe(code.replace(/\r\n/g, "\n"));
    expect(result.canonical).toContain(`<script><![CDATA[${result.script}]]></script>`);
    expect(result.staticMarkup).toBe(svg('<rect id="r"/>'));
    expect(admitted(result.canonical).script).toBe(result.script);
  });

  it("leaves tabindex out of static markup, where no script answers a key, and keeps it in the canonical form", () => {
    const result = admitted(svg('<rect id="button" tabindex="0" role="button" aria-label="Add one"/><desc><g tabindex="0"/></desc><script><![CDATA[showcase.on("button", "click", () => {});]]></script>'));
    expect(result.canonical).toBe(svg('<rect id="button" aria-label="Add one" role="button" tabindex="0"/><desc><g tabindex="0"/></desc><script><![CDATA[showcase.on("button", "click", () => {});]]></script>'));
    expect(result.staticMarkup).toBe(svg('<rect id="button" aria-label="Add one" role="button"/><desc></desc>'));
  });

  it("leaves SMIL animation out of static markup, where no player could pause it, and keeps it in the canonical form", () => {
    const moving = '<rect id="bar" height="4" width="4"><animate attributeName="x" dur="2s" from="0" repeatCount="indefinite" to="90"/></rect><g><animateTransform attributeName="transform" dur="3s" from="0" to="360" type="rotate"/><set attributeName="opacity" begin="1s" to="0.5"/></g>';
    const result = admitted(svg(moving));
    expect(result.canonical).toBe(svg(moving));
    expect(result.staticMarkup).toBe(svg('<rect id="bar" height="4" width="4"></rect><g></g>'));
  });

  it("leaves the elements inside title and desc out of static markup, since a page's HTML parser would read them as HTML", () => {
    const result = admitted(svg('<desc>Dots<g><title>inner<rect/></title></g> and more</desc><title><style>rect{fill:red}</style></title><rect id="after"/>'));
    expect(result.canonical).toBe(svg('<desc>Dots<g><title>inner<rect/></title></g> and more</desc><title><style>rect{fill:red}</style></title><rect id="after"/>'));
    expect(result.staticMarkup).toBe(svg('<desc>Dots and more</desc><title></title><rect id="after"/>'));
  });

  it("re-admits text runs made of text and CDATA, since the text cap applies to the merged run", () => {
    const run = (text: number, cdata: number) => svg(`<text>${"a".repeat(text)}<![CDATA[${"b".repeat(cdata)}]]>${"c".repeat(text)}</text>`);
    const atCap = SVG_BUDGETS.textNodeChars;
    for (const source of [run(6000, atCap - 12_000), run(4000, 8000), run(1, 1)]) {
      const first = admitted(source);
      expect(admitted(first.canonical).canonical).toBe(first.canonical);
    }
    expect(refusedWith(run(6000, atCap - 12_000 + 1))?.code).toBe("SVG_BUDGET_TEXT");
    expect(refusedWith(svg(`<text>${"a".repeat(10_000)}<![CDATA[${"b".repeat(10_000)}]]></text>`))?.code).toBe("SVG_BUDGET_TEXT");
  });

  it("drops SMIL values that are empty once their CSS is rewritten, so the canonical form re-admits unchanged", () => {
    for (const values of ["red;/**/;blue", "red;blue;/* last */", " /**/ ;red;blue"]) {
      const first = admitted(svg(`<rect><animate attributeName="fill" dur="1s" values="${values}"/></rect>`));
      expect(first.canonical).toBe(svg('<rect><animate attributeName="fill" dur="1s" values="red;blue"/></rect>'));
      expect(admitted(first.canonical).canonical).toBe(first.canonical);
    }
  });

  it("rewrites CSS through the parser", () => {
    const { canonical } = admitted(svg('<style>  rect  { fill : red ; }  </style><rect style=" stroke : blue ; "/>'));
    expect(canonical).toBe(svg('<style>rect{fill:red}</style><rect style="stroke:blue"/>'));
  });
});

describe("budgets", () => {
  it("applies the limit the caller passes (article or comment)", () => {
    const threeHundredKilobytes = svg(`<text>${"x".repeat(15_000)}</text>`.repeat(20));
    expect(admitSvg(threeHundredKilobytes, ARTICLE).ok).toBe(true);
    const forComment = admitSvg(threeHundredKilobytes, { maxBytes: SVG_BUDGETS.commentSourceBytes });
    expect(forComment.ok).toBe(false);
    if (!forComment.ok) expect(forComment.errors[0]?.code).toBe("SVG_BUDGET_BYTES");
  });

  it("counts the whitespace a text element keeps as text nodes, and not the whitespace dropped between elements", () => {
    const spacedSpans = svg(`<text>${"<tspan/> ".repeat(15_000)}</text>`);
    expect(refusedWith(spacedSpans)?.code).toBe("SVG_BUDGET_NODES");
    const spacedRects = admitted(svg(`<g>${"<rect/> ".repeat(SVG_BUDGETS.nodes - 2)}</g>`));
    expect(spacedRects.stats.nodes).toBe(SVG_BUDGETS.nodes);
    const atBudget = admitted(svg(`<text>${"<tspan/> ".repeat((SVG_BUDGETS.nodes - 2) / 2)}</text>`));
    expect(atBudget.stats.nodes).toBe(SVG_BUDGETS.nodes);
  });

  it("counts implicit repeats and polyline points as documented", () => {
    expect(admitted(svg('<path d="M0 0 1 1 2 2 L3 3 4 4 h1 1 z"/>')).stats.pathCommands).toBe(8);
    expect(admitted(svg('<polygon points="0,0 1,1 2,2"/>')).stats.pathCommands).toBe(3);
    expect(admitted(svg('<path d="M0 0a1 1 0 0 1 1 1 1 1 0 01 2 2"/>')).stats.pathCommands).toBe(3);
  });

  it("decides any 1 MiB input within one second", () => {
    const worstCases = [
      svg('<rect width="1" height="1" fill="red"/>'.repeat(19_000)),
      svg(`<style>${"rect.a:hover>g{fill:rgb(1 2 3);stroke:url(#a);opacity:.5}".repeat(4_500)}</style>`),
      svg(Array.from({ length: 19_000 }, (_, i) => `<rect fill="#${i.toString(16).padStart(6, "0")}" style="opacity:.${i}"/>`).join("")),
      svg(`<path d="M0 0H${"1 ".repeat(120_000)}"/>`.repeat(2)),
      svg(`<text>${"&amp;&#x41;".repeat(16_000)}</text>`.repeat(5)),
      svg(`<g>${'<rect onclick="x"/>'.repeat(50_000)}</g>`),
      svg(`<rect style="${"fill:red;".repeat(26_000)}"/>`.repeat(4)),
      svg(`<style>${"g{fill:red}".repeat(90_000)}</style>`),
      svg(`${"<g>".repeat(64)}${"</g>".repeat(64)}`.repeat(2000)),
      `<svg xmlns="http://www.w3.org/2000/svg"><script><![CDATA[${"x".repeat(1_000_000)}]]></script></svg>`,
      svg(`<rect transform="${"translate(1 2) ".repeat(16_000)}"/>`.repeat(4)),
      `${"<".repeat(1_000_000)}`,
      svg(`<text>${"]]>".repeat(300_000)}</text>`),
    ];
    for (const [index, source] of worstCases.entries()) {
      expect(source.length).toBeLessThanOrEqual(SVG_BUDGETS.articleSourceBytes);
      expect(threadMillisecondsOf(() => admitSvg(source, ARTICLE)).milliseconds, `worst case ${index}`).toBeLessThan(1000);
    }
  });
});

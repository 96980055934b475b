import variant from "@jitl/quickjs-wasmfile-release-sync";
import { newQuickJSWASMModuleFromVariant } from "quickjs-emscripten";
import { describe, expect, it } from "vitest";
import { admitWithPolicy } from "../admit-core";
import { SVG_BUDGETS } from "../budgets";
import { CURRENT_POLICY_VERSION, policyFor, PRESENTATION_PROPERTIES } from "../policy";
import { PictureModel } from "./picture-model";
import { PictureSandbox } from "./sandbox";

const policy = policyFor(CURRENT_POLICY_VERSION)!;
const BODY = '<g id="layer"><rect id="box" width="10" height="10" fill="blue"/></g><text id="label">start</text><text id="mixed">a<tspan id="part">b</tspan></text>';

/** Runs `script` in a fresh in-process sandbox; the script reports through showcase.state.out via a label. */
async function run(script: string) {
  const admitted = admitWithPolicy(`<svg xmlns="http://www.w3.org/2000/svg" id="root">${BODY}<script><![CDATA[${script}]]></script></svg>`, 1 << 20, policy);
  if (!admitted.ok) throw new Error(JSON.stringify(admitted.errors));
  const model = new PictureModel(policy, admitted.tree);
  const sandbox = new PictureSandbox(await newQuickJSWASMModuleFromVariant(variant), model, { width: 300, height: 200 });
  const reply = sandbox.start(admitted.script ?? "");
  return { sandbox, model, reply };
}

/** Evaluates `expression` inside try/catch and returns "ok:<json>" or "<code>:<message>". */
const probe = (expression: string) => `
  let out;
  try { out = "ok:" + JSON.stringify(${expression}); } catch (error) { out = String(error.code) + ":" + error.message; }
  showcase.setText("label", out);`;

async function outcome(expression: string): Promise<string> {
  const { reply } = await run(probe(expression));
  const last = reply.mutations.findLast((mutation) => mutation.op === "text" && mutation.id === "label");
  if (!last || last.op !== "text") throw new Error(`no result: ${JSON.stringify(reply)}`);
  return last.text;
}

describe("bridge reads", () => {
  it("getAttribute answers from the model, null when unset", async () => {
    expect(await outcome('showcase.getAttribute("box", "fill")')).toBe('ok:"blue"');
    expect(await outcome('showcase.getAttribute("box", "stroke")')).toBe("ok:null");
  });
  it("getText returns an element's text", async () => {
    expect(await outcome('showcase.getText("label")')).toBe('ok:"start"');
  });
  it("reads refuse unknown ids", async () => {
    expect(await outcome('showcase.getAttribute("nope", "fill")')).toMatch(/^BRIDGE_UNKNOWN_ID:/);
    expect(await outcome('showcase.getText("nope")')).toMatch(/^BRIDGE_UNKNOWN_ID:/);
  });
  it("viewport() reports the host size", async () => {
    expect(await outcome("showcase.viewport()")).toBe('ok:{"width":300,"height":200}');
  });
  it("the root answers to $root and its author id", async () => {
    expect(await outcome('[showcase.getAttribute("$root", "id"), showcase.getAttribute("root", "id")]')).toBe('ok:["root","root"]');
  });
});

describe("bridge mutations", () => {
  it("setAttribute and setText are batched as canonical mutations", async () => {
    const { reply } = await run('showcase.setAttribute("box", "fill", "  red "); showcase.setText("label", "<b>&");');
    expect(reply.mutations).toEqual([
      { op: "set", id: "box", name: "fill", value: "red" },
      { op: "text", id: "label", text: "<b>&" },
    ]);
  });
  it("create returns the new id and remove drops it", async () => {
    const { reply, model } = await run('const a = showcase.create("layer", "circle", { r: "3", fill: "red" }); const b = showcase.create("layer", "rect", { id: "mine" }); showcase.remove(a); showcase.setText("label", a + "," + b);');
    expect(reply.mutations.map((mutation) => mutation.op)).toEqual(["create", "create", "remove", "text"]);
    expect(reply.mutations.at(-1)).toEqual({ op: "text", id: "label", text: "$c1,mine" });
    expect(model.get("mine")?.name).toBe("rect");
  });
  it("create with text, and reads see the change at once", async () => {
    expect(await outcome('(showcase.create("$root", "text", { id: "t2", x: "1" }, "hello"), showcase.getText("t2"))')).toBe('ok:"hello"');
  });
  it.each([
    ['showcase.setAttribute("nope", "fill", "red")', "BRIDGE_UNKNOWN_ID"],
    ['showcase.setAttribute("box", "onclick", "alert(1)")', "SVG_EVENT_ATTRIBUTE"],
    ['showcase.setAttribute("box", "OnLoad", "x")', "SVG_EVENT_ATTRIBUTE"],
    ['showcase.setAttribute("box", "fill", "url(https://evil.example/x)")', "SVG_EXTERNAL_URL"],
    ['showcase.setAttribute("box", "href", "javascript:alert(1)")', "SVG_EXTERNAL_URL"],
    ['showcase.setAttribute("box", "style", "background:url(x)")', "SVG_CSS_PROPERTY"],
    ['showcase.setAttribute("box", "id", "other")', "BRIDGE_ID_IMMUTABLE"],
    ['showcase.setAttribute("box", "bogus", "1")', "SVG_FORBIDDEN_ATTRIBUTE"],
    ['showcase.setAttribute("box", "width", "wide")', "SVG_ATTRIBUTE_VALUE"],
    ['showcase.setText("layer", "x")', "SVG_UNEXPECTED_TEXT"],
    ['showcase.setText("mixed", "x")', "BRIDGE_TEXT"],
    ['showcase.create("layer", "script", {})', "SVG_UNKNOWN_ELEMENT"],
    ['showcase.create("layer", "foreignObject", {})', "SVG_UNKNOWN_ELEMENT"],
    ['showcase.create("layer", "image", { href: "https://evil.example/x.png" })', "SVG_UNKNOWN_ELEMENT"],
    ['showcase.create("layer", "use", { href: "https://evil.example/x.svg#a" })', "SVG_EXTERNAL_URL"],
    ['showcase.create("layer", "rect", { id: "box" })', "SVG_DUPLICATE_ID"],
    ['showcase.create("layer", "rect", { id: "1bad" })', "SVG_MALFORMED_ID"],
    ['showcase.create("layer", "set", { attributeName: "href", to: "javascript:alert(1)" })', "SVG_SMIL_TARGET"],
    ['showcase.create("layer", "set", { attributeName: "fill", to: "url(//evil.example/x)" })', "SVG_EXTERNAL_URL"],
    ['showcase.create("nope", "rect", {})', "BRIDGE_UNKNOWN_ID"],
    ['showcase.create("label", "rect", {})', "BRIDGE_TEXT"],
    ['showcase.create("layer", "style", {}, "@import url(x);")', "SVG_CSS_AT_RULE"],
    ['showcase.remove("$root")', "BRIDGE_ROOT"],
    ['showcase.remove("root")', "BRIDGE_ROOT"],
    ['showcase.remove("nope")', "BRIDGE_UNKNOWN_ID"],
    ['showcase.on("box", "load", () => {})', "BRIDGE_EVENT_TYPE"],
    ['showcase.on("$viewport", "click", () => {})', "BRIDGE_EVENT_TYPE"],
    ['showcase.on("nope", "click", () => {})', "BRIDGE_UNKNOWN_ID"],
    ['showcase.setAttribute("box", "fill", 5)', "BRIDGE_ARGUMENT"],
    // Names of Object.prototype members are not in any allow-list.
    ['showcase.create("layer", "toString")', "SVG_UNKNOWN_ELEMENT"],
    ['showcase.create("layer", "constructor", {})', "SVG_UNKNOWN_ELEMENT"],
    ['showcase.create("layer", "__proto__", {})', "SVG_UNKNOWN_ELEMENT"],
    ['showcase.setAttribute("box", "constructor", "x")', "SVG_FORBIDDEN_ATTRIBUTE"],
    ['showcase.setAttribute("box", "toString", "x")', "SVG_FORBIDDEN_ATTRIBUTE"],
    ['showcase.setAttribute("box", "valueOf", "x")', "SVG_FORBIDDEN_ATTRIBUTE"],
    ['showcase.setAttribute("box", "__proto__", "x")', "SVG_FORBIDDEN_ATTRIBUTE"],
    ['showcase.create("layer", "rect", JSON.parse(\'{"__proto__": "x"}\'))', "SVG_FORBIDDEN_ATTRIBUTE"],
    ['showcase.create("layer", "set", { attributeName: "constructor", to: "x" })', "SVG_SMIL_TARGET"],
    // CSS nesting deep enough to overflow the parser.
    ['showcase.create("layer", "style", {}, ":not(".repeat(1000) + "rect" + ")".repeat(1000) + "{fill:red}")', "SVG_CSS_SYNTAX"],
    ['showcase.setAttribute("box", "style", "opacity:calc(" + "(".repeat(2100))', "SVG_CSS_SYNTAX"],
  ])("%s is refused with %s, catchably", async (call, code) => {
    expect(await outcome(call)).toMatch(new RegExp(`^${code}:.{20,}`));
  });
  it("created filter primitives obey the admission caps: 16 per filter, 128 per picture", async () => {
    const perFilter = await outcome(`(() => {
      const filter = showcase.create("layer", "filter", { id: "f" });
      for (let i = 0; i < 17; i++) showcase.create(filter, "feGaussianBlur", { stdDeviation: "1" });
    })()`);
    expect(perFilter).toMatch(/^SVG_FILTER_LIMIT:.*at most 16 primitives/);
    const total = await outcome(`(() => {
      for (let f = 0; f < 9; f++) {
        const filter = showcase.create("layer", "filter", { id: "f" + f });
        for (let i = 0; i < 15; i++) showcase.create(filter, "feOffset", { dx: "1" });
      }
    })()`);
    expect(total).toMatch(/^SVG_FILTER_LIMIT:.*at most 128 filter primitives/);
    const afterRemoval = await outcome(`(() => {
      const filter = showcase.create("layer", "filter", { id: "g" });
      const ids = [];
      for (let i = 0; i < 16; i++) ids.push(showcase.create(filter, "feOffset", { dx: "1" }));
      showcase.remove(ids[0]);
      return showcase.create(filter, "feOffset", { dx: "2" }).length > 0;
    })()`);
    expect(afterRemoval).toBe("ok:true");
  });

  it("filter caps hold for CSS filter functions and for animations of capped attributes", async () => {
    const blur = 'showcase.create(showcase.create("layer", "filter", { id: "f" }), "feGaussianBlur", { stdDeviation: "1" })';
    const refusals = [
      'showcase.setAttribute("box", "style", "filter: blur(100000px) drop-shadow(0 0 90000px red)")',
      'showcase.setAttribute("box", "filter", "blur(101px)")',
      `showcase.create(${blur}, "set", { attributeName: "stdDeviation", to: "1e9" })`,
      `showcase.create(${blur}, "animate", { values: "1;100000", attributeName: "stdDeviation", dur: "1s" })`,
      `showcase.create("layer", "animate", { attributeName: "stdDeviation", by: "50", dur: "1s" })`,
      `showcase.setAttribute(showcase.create(${blur}, "set", { attributeName: "stdDeviation", to: "1" }), "to", "1e9")`,
      `showcase.setAttribute(showcase.create(${blur}, "animate", { attributeName: "stdDeviation", values: "1;2", dur: "1s" }), "additive", "sum")`,
    ];
    for (const call of refusals) expect(await outcome(call), call).toMatch(/^SVG_FILTER_LIMIT:.{20,}/);
    // Attribute order does not matter: by with from is a replacing animation.
    expect(await outcome(`showcase.create(${blur}, "animate", { by: "50", attributeName: "stdDeviation", from: "1", dur: "1s" }).length > 0`)).toBe("ok:true");
    expect(await outcome('(showcase.setAttribute("box", "style", "filter: blur(100px)"), showcase.getAttribute("box", "style"))')).toBe('ok:"filter:blur(100px)"');
  });

  it(`elements carry at most ${SVG_BUDGETS.attributesPerElement} attributes, live as at admission`, async () => {
    // box starts with id, width, height and fill.
    const extra = PRESENTATION_PROPERTIES.filter((name) => name !== "fill").slice(0, SVG_BUDGETS.attributesPerElement - 4);
    const atCap = await outcome(`(() => {
      for (const name of ${JSON.stringify(extra)}) showcase.setAttribute("box", name, "inherit");
      showcase.setAttribute("box", "fill", "red");
      return "full";
    })()`);
    expect(atCap).toBe('ok:"full"');
    const overCap = await outcome(`(() => {
      for (const name of ${JSON.stringify(extra)}) showcase.setAttribute("box", name, "inherit");
      showcase.setAttribute("box", "class", "one-too-many");
    })()`);
    expect(overCap).toBe(`SVG_BUDGET_ATTRIBUTES:<rect> may carry at most ${SVG_BUDGETS.attributesPerElement} attributes; move shared styling into a class and a <style> rule.`);
    const attributes = Object.fromEntries(Array.from({ length: SVG_BUDGETS.attributesPerElement + 1 }, (_, i) => [PRESENTATION_PROPERTIES[i], "inherit"]));
    expect(await outcome(`showcase.create("layer", "rect", ${JSON.stringify(attributes)})`)).toMatch(/^SVG_BUDGET_ATTRIBUTES:<rect> may carry at most/);
  });

  it("a refusal leaves the model unchanged", async () => {
    const { model } = await run('try { showcase.setAttribute("box", "fill", "url(http://x)"); } catch (e) {}');
    expect(model.get("box")?.attributes.get("fill")).toBe("blue");
  });
});

describe("events and timers", () => {
  it("on() asks the host to listen and callbacks get plain data", async () => {
    const { sandbox, reply } = await run('showcase.on("box", "click", (e) => showcase.setText("label", JSON.stringify(e)));');
    expect(reply.listen).toEqual([["box", "click"]]);
    const clicked = sandbox.event(1, { type: "click", target: "box", x: 1.5, y: 2 });
    expect(clicked.mutations).toEqual([{ op: "text", id: "label", text: '{"type":"click","target":"box","x":1.5,"y":2}' }]);
  });
  it("resize updates viewport() and reaches $viewport listeners", async () => {
    const { sandbox } = await run('showcase.on("$viewport", "resize", () => showcase.setText("label", JSON.stringify(showcase.viewport())));');
    expect(sandbox.event(1, { type: "resize", target: "$viewport", width: 640, height: 480 }).mutations).toEqual([
      { op: "text", id: "label", text: '{"width":640,"height":480}' },
    ]);
  });
  it("timers run on the virtual clock, clamp to 16 ms and skip missed periods", async () => {
    const { sandbox } = await run(`
      let ticks = 0;
      showcase.setInterval(() => { ticks++; showcase.setText("label", ticks + "@" + showcase.now()); }, 1);
      const once = showcase.setTimeout(() => showcase.setAttribute("box", "fill", "red"), 0);
      const never = showcase.setTimeout(() => showcase.setAttribute("box", "fill", "green"), 10);
      showcase.clearTimer(never);`);
    expect(sandbox.frame(1, 10).mutations).toEqual([]);
    expect(sandbox.frame(2, 16).mutations).toEqual([
      { op: "text", id: "label", text: "1@16" },
      { op: "set", id: "box", name: "fill", value: "red" },
    ]);
    // A long pause: the interval fires once, not 600 times.
    expect(sandbox.frame(3, 10_000).mutations).toEqual([{ op: "text", id: "label", text: "2@10000" }]);
    expect(sandbox.frame(4, 10_016).mutations).toEqual([{ op: "text", id: "label", text: "3@10016" }]);
  });
  it("the global holds built-ins and showcase only", async () => {
    const names = await outcome("Object.getOwnPropertyNames(globalThis).filter((n) => !/^[A-Z]/.test(n)).sort()");
    expect(JSON.parse(names.slice(3))).toEqual([
      "decodeURI", "decodeURIComponent", "encodeURI", "encodeURIComponent", "escape", "eval", "globalThis", "isFinite",
      "isNaN", "parseFloat", "parseInt", "showcase", "undefined", "unescape",
    ]);
    expect(await outcome('[typeof window, typeof document, typeof fetch, typeof XMLHttpRequest, typeof WebSocket, typeof importScripts, typeof postMessage, typeof bridge]')).toBe(
      'ok:["undefined","undefined","undefined","undefined","undefined","undefined","undefined","undefined"]',
    );
  });
  it("showcase is frozen", async () => {
    expect(await outcome('(showcase.setText = 1, Object.isFrozen(showcase))')).toBe("ok:true");
  });
  it("uncaught script errors are reported and the instance keeps running", async () => {
    const { reply, sandbox } = await run('showcase.on("box", "click", () => showcase.setText("label", "alive")); null.x;');
    expect(reply.scriptErrors[0]).toMatch(/TypeError/);
    expect(reply.stop).toBeUndefined();
    expect(sandbox.event(1, { type: "click", target: "box" }).mutations).toHaveLength(1);
  });
});

import * as csstree from "css-tree";
import { SVG_BUDGETS } from "./budgets";
import type { AdmissionCode } from "./errors";
import { CSS_FUNCTIONS, CSS_PROPERTIES, CSS_PSEUDO_CLASSES, CSS_REFERENCE_PROPERTIES } from "./policy";

export interface CssProblem {
  code: AdmissionCode;
  message: string;
}

export type CssResult = { ok: true; canonical: string } | { ok: false; problem: CssProblem };

const LOCAL_REFERENCE = /^#[A-Za-z_][A-Za-z0-9_.-]*$/;

const SELECTOR_NODES: ReadonlySet<string> = new Set([
  "SelectorList", "Selector", "TypeSelector", "IdSelector", "ClassSelector", "AttributeSelector",
  "PseudoClassSelector", "Combinator", "Nth", "AnPlusB", "Identifier", "String", "Percentage",
]);

const VALUE_NODES: ReadonlySet<string> = new Set([
  "Value", "Identifier", "Number", "Dimension", "Percentage", "Hash", "String", "Operator", "Function",
  "Url", "Parentheses",
]);

class CssRefusal extends Error {
  constructor(readonly problem: CssProblem) {
    super(problem.message);
  }
}

const refuse = (code: AdmissionCode, message: string): never => {
  throw new CssRefusal({ code, message });
};

/** Escapes are refused outright: they are the usual way to smuggle `url(` or `expression(` past a filter. */
function assertNoEscapes(text: string): void {
  if (text.includes("\\")) {
    refuse("SVG_CSS_SYNTAX", "CSS escapes (backslashes) are not allowed; write the characters directly.");
  }
}

function lineAndColumn(text: string, offset: number): string {
  const lines = text.slice(0, offset).split("\n");
  return `line ${lines.length}, column ${(lines.at(-1)?.length ?? 0) + 1}`;
}

/**
 * css-tree parses, walks and generates recursively, one level per parenthesis, bracket or brace,
 * so deep nesting would overflow the stack. Counted on css-tree's own tokens, so comments, strings
 * and url() hide nothing, before the parser sees the text.
 */
function assertShallowNesting(text: string): void {
  const { tokenTypes } = csstree;
  const closers: number[] = [];
  let tooDeepAt = -1;
  csstree.tokenize(text, (type, start) => {
    if (type === tokenTypes.Function || type === tokenTypes.LeftParenthesis) closers.push(tokenTypes.RightParenthesis);
    else if (type === tokenTypes.LeftSquareBracket) closers.push(tokenTypes.RightSquareBracket);
    else if (type === tokenTypes.LeftCurlyBracket) closers.push(tokenTypes.RightCurlyBracket);
    else if (type === closers.at(-1)) closers.pop();
    if (closers.length > SVG_BUDGETS.cssNestingDepth && tooDeepAt < 0) tooDeepAt = start;
  });
  if (tooDeepAt >= 0) {
    refuse(
      "SVG_CSS_SYNTAX",
      `CSS may nest parentheses, brackets and braces at most ${SVG_BUDGETS.cssNestingDepth} deep, and this goes deeper at ${lineAndColumn(text, tooDeepAt)} of the CSS; flatten nested :not(), @media blocks or calc() expressions.`,
    );
  }
}

function parse(text: string, context: "stylesheet" | "declarationList" | "value", property?: string): csstree.CssNode {
  assertShallowNesting(text);
  let syntaxError: string | undefined;
  let ast: csstree.CssNode | undefined;
  try {
    ast = csstree.parse(text, {
      context,
      ...(property ? { property } : {}),
      onParseError: (error) => {
        syntaxError ??= error.message;
      },
    });
  } catch (error) {
    syntaxError ??= error instanceof Error ? error.message : "unreadable CSS";
  }
  if (syntaxError !== undefined || !ast) refuse("SVG_CSS_SYNTAX", `CSS could not be parsed (${syntaxError}); fix the syntax.`);
  return ast as csstree.CssNode;
}

const MATH_FUNCTIONS: ReadonlySet<string> = new Set(["calc", "min", "max", "clamp"]);
const FILTER_FUNCTIONS: ReadonlySet<string> = new Set([
  "blur", "brightness", "contrast", "drop-shadow", "grayscale", "hue-rotate", "invert", "saturate", "sepia",
]);
const PIXELS_PER_UNIT: ReadonlyMap<string, number> = new Map([
  ["px", 1], ["in", 96], ["cm", 96 / 2.54], ["mm", 96 / 25.4], ["q", 96 / 101.6], ["pt", 96 / 72], ["pc", 16],
]);

/** A length in px, or undefined when it is not a plain absolute length (em, %, calc() ...). */
function absolutePixels(node: csstree.CssNode): number | undefined {
  if (node.type === "Number") return Number(node.value);
  if (node.type !== "Dimension") return undefined;
  const factor = PIXELS_PER_UNIT.get(node.unit.toLowerCase());
  return factor === undefined ? undefined : Number(node.value) * factor;
}

const isColor = (node: csstree.CssNode) =>
  node.type === "Identifier" || node.type === "Hash" || (node.type === "Function" && !MATH_FUNCTIONS.has(node.name.toLowerCase()));

/**
 * blur() and drop-shadow() blur by a radius that works like feGaussianBlur's stdDeviation, so the
 * same cap applies. The radius must be a plain absolute length: em, % or calc() cannot be bounded here.
 */
function checkFilterRadius(filter: csstree.FunctionNode): void {
  const name = filter.name.toLowerCase();
  if (name !== "blur" && name !== "drop-shadow") return;
  const max = SVG_BUDGETS.filterStdDeviationMax;
  // drop-shadow(color? x y radius?): the lengths after the two offsets are the radius.
  const radii = name === "blur" ? filter.children.toArray() : filter.children.toArray().filter((child) => !isColor(child)).slice(2);
  for (const radius of radii) {
    const pixels = absolutePixels(radius);
    if (pixels === undefined) {
      refuse("SVG_FILTER_LIMIT", `The radius of ${filter.name}() must be a plain length such as 4px (relative units and calc() cannot be checked against the ${max}px cap).`);
    } else if (!(Math.abs(pixels) <= max)) {
      refuse("SVG_FILTER_LIMIT", `The radius of ${filter.name}() may be at most ${max}px, like stdDeviation of feGaussianBlur; larger blurs are too expensive to render.`);
    }
  }
}

function checkValue(property: string, value: csstree.CssNode): void {
  let filterFunctions = 0;
  csstree.walk(value, function (node) {
    if (!VALUE_NODES.has(node.type)) {
      refuse("SVG_CSS_SYNTAX", `Unexpected CSS in the value of "${property}"; use plain values.`);
    }
    // Bare parentheses only make sense inside calc()-like functions; elsewhere they would let
    // text such as "1url()" through as a dimension followed by a group.
    if (node.type === "Parentheses" && !this.function) {
      refuse("SVG_CSS_SYNTAX", `Parentheses are only allowed inside CSS functions in "${property}".`);
    }
    if (node.type === "Url") {
      if (!CSS_REFERENCE_PROPERTIES.has(property)) {
        refuse("SVG_EXTERNAL_URL", `url() is not allowed in "${property}"; only paint, clip-path, mask, filter and marker properties may reference a local #id.`);
      }
      if (!LOCAL_REFERENCE.test(node.value)) {
        refuse("SVG_EXTERNAL_URL", `url(${node.value.slice(0, 40)}) points outside the picture; reference a local element as url(#id).`);
      }
    }
    // The serializer would have to escape these, and canonical CSS must never contain escapes.
    if (node.type === "String" && /["\\()\u0000-\u001F\u007F]/.test(node.value)) {
      refuse("SVG_CSS_SYNTAX", "Quoted CSS strings may not contain quotes, parentheses, backslashes or control characters; use a plain font family name.");
    }
    if (node.type === "Function" && !CSS_FUNCTIONS.has(node.name.toLowerCase())) {
      refuse("SVG_CSS_FUNCTION", `The CSS function ${node.name}() is not allowed; use colors, lengths, transforms or easing functions.`);
    }
    if (node.type === "Function" && FILTER_FUNCTIONS.has(node.name.toLowerCase())) {
      checkFilterRadius(node);
      // Each function of a filter list is one more filter pass, like a primitive of a <filter>.
      if (++filterFunctions > SVG_BUDGETS.filterPrimitivesPerFilter) {
        refuse("SVG_FILTER_LIMIT", `A CSS filter may chain at most ${SVG_BUDGETS.filterPrimitivesPerFilter} functions, like the primitives of one <filter>; combine or drop some.`);
      }
    }
  });
}

function checkDeclarations(block: csstree.CssNode): void {
  csstree.walk(block, {
    visit: "Declaration",
    enter(declaration) {
      const property = declaration.property;
      if (property !== property.toLowerCase() || !CSS_PROPERTIES.has(property)) {
        refuse("SVG_CSS_PROPERTY", `The CSS property "${property.slice(0, 60)}" is not allowed; use visual SVG properties such as fill, stroke, opacity, transform or animation.`);
      }
      checkValue(property, declaration.value);
    },
  });
  if (block.type === "Block" || block.type === "DeclarationList") {
    block.children.forEach((child) => {
      if (child.type !== "Declaration") refuse("SVG_CSS_SYNTAX", "Only declarations are allowed here; remove nested rules.");
    });
  }
}

function checkSelector(prelude: csstree.CssNode): void {
  csstree.walk(prelude, (node) => {
    if (!SELECTOR_NODES.has(node.type)) {
      refuse("SVG_CSS_SYNTAX", "This selector is not supported; use type, class, id, attribute and simple pseudo-class selectors.");
    }
    if (node.type === "PseudoClassSelector" && !CSS_PSEUDO_CLASSES.has(node.name.toLowerCase())) {
      refuse("SVG_CSS_SYNTAX", `The pseudo-class :${node.name} is not allowed; use :hover, :focus or structural pseudo-classes.`);
    }
  });
}

const KEYFRAMES_NAME = /^-?[A-Za-z_][A-Za-z0-9_-]*$/;
const KEYFRAME_SELECTOR = /^(from|to|\d+(\.\d+)?%)(,(from|to|\d+(\.\d+)?%))*$/i;
// Media conditions only compare features with plain values: no functions, so no url() either.
const MEDIA_CONDITION = /^[A-Za-z0-9\s():,./-]*$/;

/** Preludes are generated back to text and must match a closed pattern, so nothing else (url()!) survives. */
function checkPrelude(prelude: csstree.CssNode | null, pattern: RegExp, what: string): void {
  const text = prelude ? csstree.generate(prelude) : "";
  if (!pattern.test(text) || /url\s*\(/i.test(text)) refuse("SVG_CSS_SYNTAX", `${what} is not allowed here; ${what === "This keyframes name" ? "use a plain identifier" : "use from, to or percentages"}.`);
}

function checkRules(list: csstree.List<csstree.CssNode>, insideKeyframes: boolean): void {
  list.forEach((node) => {
    if (node.type === "Rule") {
      if (insideKeyframes) checkPrelude(node.prelude, KEYFRAME_SELECTOR, "This keyframe selector");
      else checkSelector(node.prelude);
      checkDeclarations(node.block);
      return;
    }
    if (node.type === "Atrule" && !insideKeyframes) {
      const name = node.name.toLowerCase();
      if (name === "keyframes" && node.block) {
        checkPrelude(node.prelude, KEYFRAMES_NAME, "This keyframes name");
        checkRules(node.block.children, true);
        return;
      }
      if (name === "media" && node.block) {
        const condition = node.prelude ? csstree.generate(node.prelude) : "";
        if (!MEDIA_CONDITION.test(condition) || /url\s*\(/i.test(condition)) refuse("SVG_CSS_SYNTAX", "This @media condition is not allowed; compare media features with plain values.");
        checkRules(node.block.children, false);
        return;
      }
      if (name === "import") refuse("SVG_CSS_AT_RULE", "@import loads external style sheets; put all CSS in this <style> element.");
      if (name === "font-face") refuse("SVG_CSS_AT_RULE", "@font-face loads external fonts; use a generic or system font family.");
      refuse("SVG_CSS_AT_RULE", `@${node.name.slice(0, 40)} is not allowed; only @keyframes and @media are.`);
    }
    refuse("SVG_CSS_SYNTAX", "Unexpected content in the style sheet; write rules and @keyframes only.");
  });
}

function attempt(run: () => string): CssResult {
  try {
    return { ok: true, canonical: run() };
  } catch (error) {
    if (error instanceof CssRefusal) return { ok: false, problem: error.problem };
    // The nesting cap keeps css-tree's recursion shallow; should a stack still overflow, that is a refusal, never a crash.
    if (error instanceof RangeError) {
      return { ok: false, problem: { code: "SVG_CSS_SYNTAX", message: "This CSS is too deeply nested to check; flatten nested selectors, @media blocks and calc() expressions." } };
    }
    throw error;
  }
}

/** A `<style>` element's text. */
export function checkStyleSheet(text: string): CssResult {
  return attempt(() => {
    assertNoEscapes(text);
    const ast = parse(text, "stylesheet");
    if (ast.type !== "StyleSheet") refuse("SVG_CSS_SYNTAX", "Expected a style sheet.");
    checkRules((ast as csstree.StyleSheet).children, false);
    return csstree.generate(ast);
  });
}

/** A `style` attribute. */
export function checkStyleAttribute(text: string): CssResult {
  return attempt(() => {
    assertNoEscapes(text);
    const ast = parse(text, "declarationList");
    checkDeclarations(ast);
    return csstree.generate(ast);
  });
}

/** A presentation attribute, checked as the CSS property of the same name. */
export function checkPropertyValue(property: string, text: string): CssResult {
  return attempt(() => {
    assertNoEscapes(text);
    const ast = parse(text, "value", property);
    checkValue(property, ast);
    return csstree.generate(ast);
  });
}

/**
 * The CSS grammar beyond the allow-lists of policy.ts, for the policy fingerprints
 * (policy-versions.test.ts): every policy version shares it.
 */
export const CSS_GRAMMAR = {
  LOCAL_REFERENCE, SELECTOR_NODES, VALUE_NODES, MATH_FUNCTIONS, FILTER_FUNCTIONS, PIXELS_PER_UNIT, KEYFRAMES_NAME,
  KEYFRAME_SELECTOR, MEDIA_CONDITION,
} as const;

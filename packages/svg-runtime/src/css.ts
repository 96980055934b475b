import * as csstree from "css-tree";
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

function parse(text: string, context: "stylesheet" | "declarationList" | "value", property?: string): csstree.CssNode {
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

function checkValue(property: string, value: csstree.CssNode): void {
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

import { SVG_BUDGETS } from "./budgets";
import { checkPropertyValue, checkStyleAttribute } from "./css";
import type { AdmissionCode } from "./errors";
import { countPathCommands, countPoints } from "./path-data";
import { ANIMATABLE_ATTRIBUTES, type AttributeKind } from "./policy";

export type ValueCheck =
  | { ok: true; canonical: string; pathCommands: number }
  | { ok: false; code: AdmissionCode; message: string };

const NUMBER = "[+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][+-]?\\d+)?";
const UNIT = "(?:px|em|ex|pt|pc|cm|mm|in|rem|vw|vh|vmin|vmax|%)?";
const NUMBER_ONLY = new RegExp(`^${NUMBER}$`);
const LENGTH_ONLY = new RegExp(`^${NUMBER}${UNIT}$`);
const ID = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const LOCAL_REFERENCE = /^#[A-Za-z_][A-Za-z0-9_.-]*$/;
const CLASS_LIST = /^[A-Za-z0-9_ -]*$/;
const RESULT_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const LANGUAGE = /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8}){0,8}$/;
const PRESERVE_ASPECT_RATIO = /^(?:none|x(?:Min|Mid|Max)Y(?:Min|Mid|Max))(?: (?:meet|slice))?$/;
const CLOCK_VALUE = "(?:\\d{1,9}(?:\\.\\d{1,9})?(?:h|min|s|ms)?|(?:\\d{1,9}:)?\\d{2}:\\d{2}(?:\\.\\d{1,9})?)";
const CLOCK = new RegExp(`^(?:${CLOCK_VALUE}|indefinite)$`);
const OFFSET_TIMING = new RegExp(`^[+-]?\\s*${CLOCK_VALUE}$`);
// An id holds "-" as readily as "_" ("my-anim.end-1s"); "." is left out because SMIL reads it as the separator.
const SYNCBASE_TIMING = new RegExp(`^[A-Za-z_][A-Za-z0-9_-]*\\.(?:begin|end)(?:\\s*[+-]\\s*${CLOCK_VALUE})?$`);
const SYNCBASE_WITH_BAD_OFFSET = /^[A-Za-z_][A-Za-z0-9_-]*\.(?:begin|end)\s*[+-]/;
const TRANSFORM_NAMES = new Set(["matrix", "translate", "scale", "rotate", "skewX", "skewY"]);
const ROTATE = /^(?:auto|auto-start-reverse|[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:deg)?)$/;
// Control characters and the bidi overrides have no place in a label.
const UNSAFE_LABEL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u202A-\u202E\u2066-\u2069]/;
const URL_SCHEME = /^([A-Za-z][A-Za-z0-9+.-]{0,30}):/;

/**
 * The grammars above, for the policy fingerprints (policy-versions.test.ts): every policy version
 * shares them, so editing one changes how revisions admitted under older versions are re-checked.
 */
export const VALUE_GRAMMARS = {
  NUMBER_ONLY, LENGTH_ONLY, ID, LOCAL_REFERENCE, CLASS_LIST, RESULT_NAME, LANGUAGE, PRESERVE_ASPECT_RATIO, CLOCK,
  OFFSET_TIMING, SYNCBASE_TIMING, SYNCBASE_WITH_BAD_OFFSET, TRANSFORM_NAMES, ROTATE, UNSAFE_LABEL,
} as const;

const pass = (canonical: string, pathCommands = 0): ValueCheck => ({ ok: true, canonical, pathCommands });
const fail = (code: AdmissionCode, message: string): ValueCheck => ({ ok: false, code, message });
const malformed = (name: string, expected: string): ValueCheck =>
  fail("SVG_ATTRIBUTE_VALUE", `The value of "${name}" is malformed; expected ${expected}.`);

function listItems(text: string): string[] {
  const trimmed = text.trim();
  return trimmed === "" ? [] : trimmed.split(/[\s,]+/);
}

function allMatch(text: string, pattern: RegExp): boolean {
  const items = listItems(text);
  return items.length > 0 && items.every((item) => pattern.test(item));
}

function checkTransform(name: string, value: string): ValueCheck {
  let rest = value.trim();
  if (rest === "" || rest === "none") return pass(value);
  while (rest !== "") {
    const open = rest.indexOf("(");
    const close = rest.indexOf(")");
    if (open < 0 || close < open) return malformed(name, "a list such as translate(10 20) rotate(45)");
    const functionName = rest.slice(0, open).trim();
    if (!TRANSFORM_NAMES.has(functionName)) return malformed(name, "matrix, translate, scale, rotate, skewX or skewY");
    if (!allMatch(rest.slice(open + 1, close).trim(), NUMBER_ONLY)) return malformed(name, "numbers inside the parentheses");
    rest = rest.slice(close + 1).replace(/^[\s,]+/, "");
  }
  return pass(value);
}

function checkTiming(name: string, value: string): ValueCheck {
  for (const raw of value.split(";")) {
    const part = raw.trim();
    if (part === "indefinite" || OFFSET_TIMING.test(part) || SYNCBASE_TIMING.test(part)) continue;
    if (SYNCBASE_WITH_BAD_OFFSET.test(part)) return malformed(name, "clock values such as 2s, or id.begin+1s");
    return fail(
      "SVG_SMIL_EVENT",
      `"${name}" may hold clock values or id.begin/id.end only; event-based timing is not allowed. Start animations from the script with showcase.on() and showcase.setAttribute() instead.`,
    );
  }
  return pass(value);
}

export function externalUrlMessage(value: string): string {
  const compact = value.replace(/[\u0000-\u0020]+/g, "");
  const scheme = URL_SCHEME.exec(compact)?.[1];
  const what = scheme ? `a ${scheme.toLowerCase()}: URL` : "a reference outside the picture";
  return `This is ${what}; only references to local elements written as #id are allowed. Draw or define the target inside the picture and reference it by id.`;
}

// Pictures repeat the same few colours and styles thousands of times; parsing each once keeps
// admission of large inputs well inside its time budget. Bounded so memory stays flat.
const cssResults = new Map<string, ValueCheck>();
const CSS_RESULTS_KEPT = 4096;

function checkCssValue(name: string, value: string): ValueCheck {
  const key = `${name}\u0000${value}`;
  const known = cssResults.get(key);
  if (known) return known;
  const result = name === "style" ? checkStyleAttribute(value) : checkPropertyValue(name, value);
  const checked = result.ok ? pass(result.canonical) : fail(result.problem.code, result.problem.message);
  if (cssResults.size >= CSS_RESULTS_KEPT) cssResults.clear();
  cssResults.set(key, checked);
  return checked;
}

/**
 * Checks one attribute value. `context` supplies the attribute name (for CSS properties and
 * messages) and, for SMIL value attributes, the kind of the animated attribute.
 */
export function checkAttributeValue(
  kind: AttributeKind,
  name: string,
  value: string,
  animated?: { name: string; kind: AttributeKind },
): ValueCheck {
  if (value.length > SVG_BUDGETS.attributeValueChars) {
    return fail("SVG_BUDGET_TEXT", `The value of "${name}" is longer than ${SVG_BUDGETS.attributeValueChars} characters; simplify it.`);
  }
  if (typeof kind === "object") {
    return kind.oneOf.includes(value) ? pass(value) : malformed(name, `one of ${kind.oneOf.join(", ")}`);
  }
  switch (kind) {
    case "id":
      if (value.length > SVG_BUDGETS.idChars || !ID.test(value)) {
        return fail("SVG_MALFORMED_ID", `The id "${value.slice(0, 80)}" is malformed; ids start with a letter or _ and use letters, digits, _, - and . (at most ${SVG_BUDGETS.idChars} characters).`);
      }
      return pass(value);
    case "class":
      return CLASS_LIST.test(value) ? pass(value) : malformed(name, "class names made of letters, digits, _ and -");
    case "label":
      return UNSAFE_LABEL.test(value) || value.length > 1000 ? malformed(name, "plain text up to 1000 characters") : pass(value);
    case "language":
      return LANGUAGE.test(value) ? pass(value) : malformed(name, "a language tag such as en or en-GB");
    case "number":
      return NUMBER_ONLY.test(value.trim()) ? pass(value) : malformed(name, "a number");
    case "numberList":
      return allMatch(value, NUMBER_ONLY) ? pass(value) : malformed(name, "numbers separated by spaces or commas");
    case "length":
      return LENGTH_ONLY.test(value.trim()) ? pass(value) : malformed(name, "a number with an optional unit");
    case "lengthList":
      return allMatch(value, LENGTH_ONLY) ? pass(value) : malformed(name, "lengths separated by spaces or commas");
    case "viewBox": {
      const items = listItems(value);
      return items.length === 4 && items.every((item) => NUMBER_ONLY.test(item)) ? pass(value) : malformed(name, "four numbers");
    }
    case "preserveAspectRatio":
      return PRESERVE_ASPECT_RATIO.test(value) ? pass(value) : malformed(name, "none or xMidYMid meet/slice");
    case "transform":
      return checkTransform(name, value);
    case "pathData": {
      const counted = countPathCommands(value);
      if (!counted.ok) return fail("SVG_PATH_SYNTAX", `Path data is malformed at character ${counted.offset + 1} (${counted.reason}); fix the path.`);
      return pass(value, counted.commands);
    }
    case "points": {
      const counted = countPoints(value);
      if (!counted.ok) return fail("SVG_PATH_SYNTAX", `points are malformed at character ${counted.offset + 1} (${counted.reason}); list x,y pairs.`);
      return pass(value, counted.commands);
    }
    case "localRef":
      return LOCAL_REFERENCE.test(value) ? pass(value) : fail("SVG_EXTERNAL_URL", externalUrlMessage(value));
    case "css":
      return checkCssValue(name, value);
    case "repeatCount":
      return value.trim() === "indefinite" || NUMBER_ONLY.test(value.trim()) ? pass(value) : malformed(name, "a number or indefinite");
    case "clock":
      return CLOCK.test(value.trim()) ? pass(value) : malformed(name, "a clock value such as 2s or 500ms");
    case "timing":
      return checkTiming(name, value);
    case "semicolonNumbers":
      return value.split(";").every((part) => part.trim() === "" || allMatch(part, NUMBER_ONLY))
        ? pass(value)
        : malformed(name, "numbers separated by semicolons");
    case "animationValues": {
      if (!animated) return fail("SVG_SMIL_TARGET", `"${name}" needs a valid attributeName on the same element.`);
      let pathCommands = 0;
      const parts: string[] = [];
      for (const part of value.split(";")) {
        if (name === "values" && part.trim() === "") continue;
        const inner = checkAttributeValue(animated.kind, animated.name, part.trim());
        if (!inner.ok) return inner;
        // A value that canonicalises to nothing (a CSS comment) is an empty entry, dropped like the
        // empty ones above; kept, the canonical form would lose it when admitted again.
        if (name === "values" && inner.canonical === "") continue;
        pathCommands += inner.pathCommands;
        parts.push(inner.canonical);
      }
      return pass(parts.join(";"), pathCommands);
    }
    case "attributeName":
      return Object.hasOwn(ANIMATABLE_ATTRIBUTES, value)
        ? pass(value)
        : fail("SVG_SMIL_TARGET", `SMIL may not animate "${value.slice(0, 60)}"; animate visual properties such as fill, opacity, transform or geometry only (never href, event or style attributes).`);
    case "rotate":
      return ROTATE.test(value.trim()) ? pass(value) : malformed(name, "auto, auto-start-reverse or an angle");
    case "resultName":
    case "filterInput":
      return RESULT_NAME.test(value) ? pass(value) : malformed(name, "a filter result name");
  }
}

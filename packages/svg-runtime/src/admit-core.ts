import { SaxesParser, type SaxesTagNS } from "saxes";
import { checkAttributeValue, externalUrlMessage } from "./attribute-values";
import { SVG_BUDGETS } from "./budgets";
import { checkStyleSheet } from "./css";
import { AdmissionAbort, type AdmissionCode, type AdmissionError } from "./errors";
import {
  animatableKind,
  elementRule,
  FILTER_PARAMETER_CAPS,
  FORBIDDEN_ELEMENTS,
  ownEntry,
  type ElementRule,
  type Policy,
  ruleAttributeKind,
  SVG_NAMESPACE,
  XLINK_NAMESPACE,
  XML_NAMESPACE,
} from "./policy";
import { serialize, type SvgChildNode, type SvgElementNode } from "./tree";

export interface AdmissionStats {
  bytes: number;
  nodes: number;
  elements: number;
  pathCommands: number;
  depth: number;
  filterPrimitives: number;
  scriptBytes: number;
  policyVersion: number;
}

export type AdmissionResult =
  | { ok: true; canonical: string; staticMarkup: string; script: string | null; stats: AdmissionStats; tree: SvgElementNode }
  | { ok: false; errors: AdmissionError[] };

const HTML_NAMESPACE = "http://www.w3.org/1999/xhtml";
const XML_EVENTS_NAMESPACE = "http://www.w3.org/2001/xml-events";
const SCRIPT_TYPES = new Set(["text/javascript", "application/javascript", "application/ecmascript", "text/ecmascript"]);
const XML_EVENTS_MESSAGE = "XML Events (the http://www.w3.org/2001/xml-events namespace) are not allowed; register handlers in the script with showcase.on(id, type, callback).";

interface RawAttribute {
  uri: string;
  prefix: string;
  local: string;
  name: string;
  value: string;
}

/** How the walk goes on inside an element it has checked, until the element closes. */
type ContentCheck =
  | {
      kind: "children";
      node: SvgElementNode;
      /** False when the element's rule admits no text ("none"). */
      textAllowed: boolean;
      /** The filter whose primitives the children count against. */
      filterCount: { value: number } | null;
      /** Whether the run of text being read was already refused: one error per run, as a run is one node. */
      runRefused: boolean;
    }
  /** A `<style>`: its text is one style sheet, checked whole when the element closes. */
  | { kind: "css"; node: SvgElementNode; css: string; holdsElement: boolean }
  /** The `<script>`: what it holds must be one CDATA section, checked when the element closes. */
  | { kind: "script"; sections: number; body: string; stray: boolean };

/**
 * An element while it is open. Each element is checked as the parser reads it, so nothing of the
 * source is kept past its element: a parsed copy of the whole document, kept for a second pass,
 * was copied by every young-generation collection during the parse and was most of admission's
 * garbage-collection work. The path (`/svg[1]/g[2]/rect[5]`) is built only when an error names it.
 */
class OpenElement {
  /** How many children of each name this element has had so far; made with its first child element. */
  childCounts: Map<string, number> | null = null;
  /** Whether the last thing read inside it was text outside CDATA, which more text continues. */
  inTextRun = false;
  /** Null when its content is not checked: the element or one around it was refused, or it was never reached. */
  check: ContentCheck | null = null;

  constructor(
    readonly name: string,
    readonly parent: OpenElement | null,
    /** Position among the parent's children of the same name, from 1. */
    readonly index: number,
    readonly line: number,
    readonly column: number,
    readonly depth: number,
  ) {}

  get path(): string {
    return `${this.parent?.path ?? ""}/${this.name}[${this.index}]`;
  }
}

export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

const declaresNamespace = (attribute: RawAttribute) => attribute.prefix === "xmlns" || attribute.name === "xmlns";

class ErrorCollector {
  readonly errors: AdmissionError[] = [];

  add(code: AdmissionCode, at: { path: string; line: number; column: number }, message: string): void {
    this.errors.push({ code, path: at.path, line: at.line, column: at.column, message });
    if (this.errors.length >= SVG_BUDGETS.admissionErrorsReported) throw new AdmissionAbort();
  }

  /** Records one error and stops: used where continuing would only produce noise or unbounded work. */
  stop(code: AdmissionCode, at: { path: string; line: number; column: number }, message: string): never {
    this.errors.push({ code, path: at.path, line: at.line, column: at.column, message });
    throw new AdmissionAbort();
  }
}

const DOCUMENT = { path: "/", line: 1, column: 1 };
const TOO_MANY_NODES_MESSAGE = `The picture has more than ${SVG_BUDGETS.nodes} nodes; simplify it or reuse shapes with <use>.`;

/** Where saxes keeps the handler of each event (its EVENT_NAME_TO_HANDLER_NAME). */
type HandlerSlots = Record<
  | "xmldeclHandler" | "textHandler" | "piHandler" | "doctypeHandler" | "commentHandler" | "openTagStartHandler" | "attributeHandler"
  | "openTagHandler" | "closeTagHandler" | "cdataHandler" | "errorHandler" | "endHandler" | "readyHandler",
  undefined
>;

/**
 * saxes stores each handler that `on` registers as a new property of the parser. Ours are eight,
 * more than V8 keeps in fast mode for properties added after construction, so every parser became
 * a dictionary-mode object and each `this.` lookup in saxes's per-character loop a hash lookup: a
 * 30 KB picture took 2.5 ms to parse instead of 0.7 ms. Assigned by name in the constructor, the
 * slots are part of the object's layout from the start and it keeps its fast form (a computed-key
 * loop does not). A unit test checks that `on` adds no property for any event.
 */
export class AdmissionParser extends SaxesParser<{ xmlns: true; position: true; forceXMLVersion: true; defaultXMLVersion: "1.0" }> {
  constructor() {
    // XML 1.0 whatever the declaration says: a version="1.1" declaration would admit control
    // characters (&#1;) that the canonical form, which has no declaration, could not be read with.
    super({ xmlns: true, position: true, forceXMLVersion: true, defaultXMLVersion: "1.0" });
    const slots = this as unknown as HandlerSlots;
    slots.xmldeclHandler = undefined;
    slots.textHandler = undefined;
    slots.piHandler = undefined;
    slots.doctypeHandler = undefined;
    slots.commentHandler = undefined;
    slots.openTagStartHandler = undefined;
    slots.attributeHandler = undefined;
    slots.openTagHandler = undefined;
    slots.closeTagHandler = undefined;
    slots.cdataHandler = undefined;
    slots.errorHandler = undefined;
    slots.endHandler = undefined;
    slots.readyHandler = undefined;
  }
}

interface WalkState {
  policy: Policy;
  /** The walk's own errors: an XML error found later replaces them all. */
  errors: ErrorCollector;
  /** Set once the walk has stopped (enough errors, or a budget); the parse goes on alone. */
  stopped: boolean;
  /** The root's canonical node, once the root has closed and passed. */
  tree: SvgElementNode | null;
  ids: Set<string>;
  pathCommands: number;
  nodes: number;
  elements: number;
  depth: number;
  filterPrimitives: number;
  script: string | null;
  scriptBytes: number;
  cssChars: number;
}

function stopWalk(state: WalkState, error: unknown): void {
  if (!(error instanceof AdmissionAbort)) throw error;
  state.stopped = true;
}

/**
 * Parses the document and checks each element as it is read, into `state`. XML errors and the
 * parse's own budgets stop admission through `errors`, whatever the walk has found before them.
 */
function parseAndCheck(source: string, errors: ErrorCollector, state: WalkState): void {
  const parser = new AdmissionParser();
  const here = (path: string) => ({ path, line: parser.line, column: parser.column + 1 });
  const stack: OpenElement[] = [];
  let sawRoot = false;
  let nodes = 0;
  let startLine = 1;
  let startColumn = 1;
  // Collected as saxes reads them: cheaper than Object.values over the tag's attribute object.
  let attributes: RawAttribute[] = [];
  const currentPath = () => stack.at(-1)?.path ?? "/";

  const countNode = () => {
    nodes++;
    if (nodes > SVG_BUDGETS.nodes) errors.stop("SVG_BUDGET_NODES", here(currentPath()), TOO_MANY_NODES_MESSAGE);
  };
  const appendText = (text: string, cdata: boolean) => {
    const parent = stack.at(-1);
    if (!parent) {
      if (text.trim() !== "") errors.stop("SVG_MALFORMED_XML", here("/"), "Text outside the root element; remove it.");
      return;
    }
    const continuesRun = parent.inTextRun && !cdata;
    if (!continuesRun) {
      // Whitespace between elements is dropped unless its element holds text; the walk counts what is kept.
      if (cdata || text.trim() !== "") countNode();
      parent.inTextRun = !cdata;
    }
    if (state.stopped) return;
    try {
      checkText(state, parent, text, cdata, continuesRun);
    } catch (error) {
      stopWalk(state, error);
    }
  };

  parser.on("error", (error) => {
    const reason = error.message.replace(/^(?:[^:]*:)?\d+:\d+: /, "").replace(/\.$/, "");
    const code: AdmissionCode = /entity/i.test(reason) ? "SVG_ENTITY" : "SVG_MALFORMED_XML";
    const advice = /character entity/i.test(reason)
      ? "A numeric character reference must name a character XML 1.0 allows (no control characters but tab and line breaks); remove it or fix its number."
      : code === "SVG_ENTITY"
        ? "Only &amp; &lt; &gt; &quot; &apos; and numeric character references are allowed; write the character itself."
        : "Fix the XML so that it is well formed.";
    errors.stop(code, here(currentPath()), `${reason}. ${advice}`);
  });
  parser.on("doctype", () => {
    errors.stop("SVG_DOCTYPE", here("/"), "DOCTYPE declarations (and the DTDs and entities they bring) are not allowed; remove the <!DOCTYPE ...> line.");
  });
  parser.on("processinginstruction", (instruction) => {
    errors.stop("SVG_PROCESSING_INSTRUCTION", here(currentPath()), `The processing instruction <?${instruction.target.slice(0, 40)} ...?> is not allowed; remove it (style sheets go in a <style> element).`);
  });
  parser.on("opentagstart", (tag) => {
    // The parser stands past the name and the character that ended it; report the "<".
    startLine = parser.line;
    startColumn = Math.max(1, parser.column - tag.name.length - 1);
    attributes = [];
  });
  parser.on("attribute", (attribute) => {
    attributes.push(attribute as RawAttribute);
  });
  parser.on("opentag", (tag: SaxesTagNS) => {
    countNode();
    const parent = stack.at(-1) ?? null;
    let index = 1;
    if (parent) {
      const counts = parent.childCounts ??= new Map<string, number>();
      index = (counts.get(tag.local) ?? 0) + 1;
      counts.set(tag.local, index);
      parent.inTextRun = false;
    }
    const element = new OpenElement(tag.local, parent, index, startLine, startColumn, stack.length + 1);
    if (element.depth > SVG_BUDGETS.depth) {
      errors.stop("SVG_BUDGET_DEPTH", element, `Elements are nested more than ${SVG_BUDGETS.depth} levels deep; flatten the groups.`);
    }
    sawRoot = true;
    stack.push(element);
    if (state.stopped) return;
    try {
      openElement(state, element, tag, attributes);
    } catch (error) {
      stopWalk(state, error);
    }
  });
  parser.on("closetag", () => {
    const element = stack.pop();
    if (!element || state.stopped) return;
    try {
      closeElement(state, element);
    } catch (error) {
      stopWalk(state, error);
    }
  });
  parser.on("text", (text) => appendText(text, false));
  parser.on("cdata", (text) => appendText(text, true));

  parser.write(source).close();
  if (!sawRoot) errors.stop("SVG_ROOT", DOCUMENT, "The document has no root element; start with <svg xmlns=\"http://www.w3.org/2000/svg\">.");
}

/** Checks an element that has just opened, unless what holds it is not checked element by element. */
function openElement(state: WalkState, element: OpenElement, tag: SaxesTagNS, attributes: RawAttribute[]): void {
  const { parent } = element;
  if (parent === null) {
    element.check = checkElement(state, element, tag, attributes, null, null);
    return;
  }
  const around = parent.check;
  if (around?.kind === "children") {
    element.check = checkElement(state, element, tag, attributes, parent.name, around.filterCount);
  } else if (around?.kind === "script") {
    around.stray = true;
  } else if (around?.kind === "css" && !around.holdsElement) {
    around.holdsElement = true;
    state.errors.add("SVG_CSS_SYNTAX", parent, "<style> may hold only CSS text; move the elements out of it.");
  }
}

/**
 * Text or a CDATA section inside `element`. `continuesRun`: text that follows text, with nothing
 * but comments between, which the document holds as one node.
 */
function checkText(state: WalkState, element: OpenElement, text: string, cdata: boolean, continuesRun: boolean): void {
  const { check } = element;
  if (check === null) return;
  if (check.kind === "script") {
    if (cdata) {
      if (check.sections === 0) check.body = text;
      check.sections++;
    } else if (text.trim() !== "") {
      check.stray = true;
    }
    return;
  }
  if (check.kind === "css") {
    check.css += text;
    return;
  }
  if (!check.textAllowed) {
    if (!continuesRun) check.runRefused = false;
    if (check.runRefused || text.trim() === "") return;
    // A CDATA section is a run of its own: the next text starts another.
    check.runRefused = !cdata;
    state.errors.add("SVG_UNEXPECTED_TEXT", element, `<${element.name}> cannot hold text; put text inside <text>, <tspan>, <title> or <desc>.`);
    return;
  }
  // An empty CDATA section is no text at all; keeping it would serialize <text></text>, which re-reads as <text/>.
  if (text === "") return;
  const previous = check.node.children.at(-1);
  if (previous?.type === "text") previous.text += text;
  else {
    chargeNode(state, element);
    check.node.children.push({ type: "text", text, cdata: false });
  }
}

/** Finishes the check of an element that has closed, and gives its node to its parent's. */
function closeElement(state: WalkState, element: OpenElement): void {
  const { check } = element;
  if (check === null) return;
  let node: SvgElementNode | null;
  if (check.kind === "script") {
    node = checkScriptContent(state, element, check);
  } else if (check.kind === "css") {
    if (!check.holdsElement) checkStyleContent(state, element, check.node, check.css);
    node = check.node;
  } else {
    // Checked on the merged runs: canonical form writes text and CDATA sections side by side as one
    // node, and it must pass again when re-admitted.
    node = check.node;
    if (node.children.some((child) => child.type === "text" && child.text.length > SVG_BUDGETS.textNodeChars)) {
      state.errors.add("SVG_BUDGET_TEXT", element, `A run of text is longer than ${SVG_BUDGETS.textNodeChars} characters; shorten it or split it with <tspan> elements.`);
      return;
    }
  }
  if (node === null) return;
  const around = element.parent?.check;
  if (around?.kind === "children") around.node.children.push(node);
  else state.tree = node;
}

function namespaceProblem(errors: ErrorCollector, element: OpenElement, tag: SaxesTagNS, attributes: RawAttribute[]): boolean {
  for (const attribute of attributes) {
    if (!declaresNamespace(attribute)) continue;
    // Declaring XML Events only serves event handlers, so it is refused as one.
    if (attribute.value === XML_EVENTS_NAMESPACE) {
      errors.add("SVG_EVENT_ATTRIBUTE", element, XML_EVENTS_MESSAGE);
      return true;
    }
    const allowed = (attribute.name === "xmlns" && attribute.value === SVG_NAMESPACE) ||
      (attribute.name === "xmlns:xlink" && attribute.value === XLINK_NAMESPACE);
    if (!allowed) {
      const what = attribute.value === HTML_NAMESPACE ? "the HTML namespace" : `the namespace "${attribute.value.slice(0, 80)}"`;
      errors.add("SVG_FOREIGN_NAMESPACE", element, `Declaring ${what} is not allowed; only SVG (and xlink) belong in a picture.`);
      return true;
    }
  }
  if (tag.uri === XML_EVENTS_NAMESPACE) {
    errors.add("SVG_EVENT_ATTRIBUTE", element, XML_EVENTS_MESSAGE);
    return true;
  }
  if (tag.uri !== SVG_NAMESPACE) {
    const what = tag.uri === HTML_NAMESPACE ? "HTML" : tag.uri === "" ? "no namespace" : `the namespace "${tag.uri.slice(0, 80)}"`;
    errors.add("SVG_FOREIGN_NAMESPACE", element, `<${tag.prefix ? `${tag.prefix}:` : ""}${element.name}> is in ${what}; every element must be SVG (xmlns="${SVG_NAMESPACE}" on the root).`);
    return true;
  }
  return false;
}

/** Whether the name starts with "on" in any case (ASCII letters only, as /^on/i would); tested on every attribute, so without a regular expression. */
const isEventAttribute = (name: string) => (name.charCodeAt(0) | 0x20) === 0x6f && (name.charCodeAt(1) | 0x20) === 0x6e;

/** Canonical name for an attribute, or an error when its namespace is not allowed. */
function canonicalAttributeName(attribute: RawAttribute): string | { code: AdmissionCode; message: string } {
  if (attribute.uri === XML_EVENTS_NAMESPACE) return { code: "SVG_EVENT_ATTRIBUTE", message: XML_EVENTS_MESSAGE };
  if (isEventAttribute(attribute.local)) {
    return {
      code: "SVG_EVENT_ATTRIBUTE",
      message: `The event attribute "${attribute.name}" is not allowed; register handlers in the script with showcase.on(id, type, callback).`,
    };
  }
  if (attribute.uri === "") return attribute.local;
  if (attribute.uri === XLINK_NAMESPACE && attribute.local === "href") return "href";
  if (attribute.uri === XML_NAMESPACE && (attribute.local === "space" || attribute.local === "lang")) return `xml:${attribute.local}`;
  return {
    code: "SVG_FOREIGN_NAMESPACE",
    message: `The attribute "${attribute.name}" is in a namespace that pictures may not use; use plain SVG attributes.`,
  };
}

function checkScript(state: WalkState, element: OpenElement, attributes: RawAttribute[], isRootChild: boolean): ContentCheck | null {
  const { errors } = state;
  if (!isRootChild) {
    errors.add("SVG_SCRIPT_PLACEMENT", element, "The script must be a direct child of the root <svg>; move it there.");
    return null;
  }
  if (state.script !== null) {
    errors.add("SVG_SCRIPT_PLACEMENT", element, "Only one <script> is allowed; merge the scripts into one.");
    return null;
  }
  for (const attribute of attributes) {
    if (declaresNamespace(attribute)) continue;
    const name = canonicalAttributeName(attribute);
    if (typeof name !== "string") {
      errors.add(name.code, element, name.message);
    } else if (name === "href") {
      errors.add("SVG_SCRIPT_ATTRIBUTE", element, "Scripts may not load code from elsewhere (href); put the code inside <script><![CDATA[ ... ]]></script>.");
    } else if (name === "type" && attribute.value === "module") {
      errors.add("SVG_SCRIPT_ATTRIBUTE", element, "Module scripts are not supported; write a classic script without type=\"module\".");
    } else if (name !== "type" || !SCRIPT_TYPES.has(attribute.value)) {
      errors.add("SVG_SCRIPT_ATTRIBUTE", element, `The script attribute "${attribute.name}" is not allowed; a script takes no attributes.`);
    }
  }
  return { kind: "script", sections: 0, body: "", stray: false };
}

function checkScriptContent(state: WalkState, element: OpenElement, check: { sections: number; body: string; stray: boolean }): SvgElementNode | null {
  if (check.stray || check.sections !== 1) {
    state.errors.add("SVG_SCRIPT_FORM", element, "A script must hold exactly one CDATA section and nothing else: <script><![CDATA[ code ]]></script>.");
    return null;
  }
  state.script = check.body;
  state.scriptBytes = utf8Length(check.body);
  chargeNode(state, element);
  return { type: "element", name: "script", attributes: new Map(), children: [{ type: "text", text: check.body, cdata: true }] };
}

/** Checks an element and its attributes; null when it is refused, and what it holds is then not checked. */
function checkElement(
  state: WalkState,
  element: OpenElement,
  tag: SaxesTagNS,
  attributes: RawAttribute[],
  parentName: string | null,
  filterCount: { value: number } | null,
): ContentCheck | null {
  const { errors, policy } = state;
  if (namespaceProblem(errors, element, tag, attributes)) return null;
  const { name } = element;
  if (parentName === null && name !== "svg") {
    errors.add("SVG_ROOT", element, `The root element must be <svg>, not <${name}>.`);
    return null;
  }
  if (name === "script") return checkScript(state, element, attributes, parentName !== null && element.depth === 2);
  const rule = elementRule(policy, name);
  if (!rule) {
    const reason = ownEntry(FORBIDDEN_ELEMENTS, name);
    if (reason) errors.add("SVG_FORBIDDEN_ELEMENT", element, `<${name}> is not allowed: ${reason}`);
    else errors.add("SVG_UNKNOWN_ELEMENT", element, `<${name.slice(0, 60)}> is not an allowed SVG element; use shapes, text, groups, gradients, clipping, masks, patterns, markers, filters or animation elements.`);
    return null;
  }
  chargeNode(state, element);
  state.elements++;
  state.depth = Math.max(state.depth, element.depth);

  const node: SvgElementNode = { type: "element", name, attributes: new Map(), children: [] };
  // Most elements declare no namespace: they keep their list rather than copy it.
  const ownAttributes = attributes.some(declaresNamespace) ? attributes.filter((attribute) => !declaresNamespace(attribute)) : attributes;
  if (ownAttributes.length > SVG_BUDGETS.attributesPerElement) {
    errors.add("SVG_BUDGET_ATTRIBUTES", element, tooManyAttributesMessage(name));
    return null;
  }
  const animatedName = ownAttributes.find((attribute) => attribute.uri === "" && attribute.local === "attributeName")?.value;
  const animatedKind = name === "animateTransform"
    ? (animatedName === "transform" ? ("numberList" as const) : undefined)
    : animatedName !== undefined ? animatableKind(animatedName) : undefined;
  const animated = animatedName !== undefined && animatedKind ? { name: animatedName, kind: animatedKind } : undefined;
  if (name === "animateTransform" && animatedName !== undefined && animatedName !== "transform") {
    errors.add("SVG_SMIL_TARGET", element, "animateTransform may only animate the transform attribute.");
  }

  for (const attribute of ownAttributes) {
    const canonicalName = canonicalAttributeName(attribute);
    if (typeof canonicalName !== "string") {
      errors.add(canonicalName.code, element, canonicalName.message);
      continue;
    }
    if (node.attributes.has(canonicalName)) {
      errors.add("SVG_FORBIDDEN_ATTRIBUTE", element, `"${canonicalName}" is given twice (href and xlink:href are the same attribute); keep one.`);
      continue;
    }
    const kind = ruleAttributeKind(rule, canonicalName);
    // A bad attributeName is already reported; its values cannot be judged without it.
    if (kind === "animationValues" && !animatedKind && animatedName !== undefined) continue;
    if (!kind) {
      if (canonicalName === "href" || /^(?:src|action|formaction|xlink:.*)$/i.test(canonicalName)) {
        errors.add("SVG_EXTERNAL_URL", element, `<${name}> may not carry "${attribute.name}". ${externalUrlMessage(attribute.value)}`);
      } else {
        errors.add("SVG_FORBIDDEN_ATTRIBUTE", element, `The attribute "${attribute.name.slice(0, 60)}" is not allowed on <${name}>; use the documented SVG attributes or CSS properties.`);
      }
      continue;
    }
    if (kind === "css") chargeCss(state, element, attribute.value.length);
    const checked = checkAttributeValue(kind, canonicalName, attribute.value, animated);
    if (!checked.ok) {
      errors.add(checked.code, element, checked.message);
      continue;
    }
    if (kind === "id") {
      if (state.ids.has(checked.canonical)) {
        errors.add("SVG_DUPLICATE_ID", element, `The id "${checked.canonical}" is used twice; ids must be unique.`);
        continue;
      }
      state.ids.add(checked.canonical);
    }
    state.pathCommands += checked.pathCommands;
    node.attributes.set(canonicalName, checked.canonical);
  }
  if (state.pathCommands > SVG_BUDGETS.pathCommands) {
    errors.stop("SVG_BUDGET_PATH_COMMANDS", element, `The picture has more than ${SVG_BUDGETS.pathCommands} path commands; simplify the paths.`);
  }
  checkFilterCaps(state, element, node, rule, filterCount);
  if (rule.content === "css") return { kind: "css", node, css: "", holdsElement: false };
  return { kind: "children", node, textAllowed: rule.content === "text", filterCount: name === "filter" ? { value: 0 } : filterCount, runRefused: false };
}

function checkStyleContent(state: WalkState, element: OpenElement, node: SvgElementNode, css: string): void {
  chargeCss(state, element, css.length);
  const checked = checkStyleSheet(css);
  if (!checked.ok) {
    state.errors.add(checked.problem.code, element, checked.problem.message);
    return;
  }
  if (checked.canonical !== "") {
    chargeNode(state, element);
    node.children.push({ type: "text", text: checked.canonical, cdata: false });
  }
}

/**
 * Counts a node the canonical form keeps. The parse counts too, to stop early, but it cannot tell
 * the whitespace a text element keeps (each run a text node of the picture) from the whitespace
 * between elements that is dropped.
 */
function chargeNode(state: WalkState, element: OpenElement): void {
  state.nodes++;
  if (state.nodes > SVG_BUDGETS.nodes) state.errors.stop("SVG_BUDGET_NODES", element, TOO_MANY_NODES_MESSAGE);
}

function chargeCss(state: WalkState, element: OpenElement, chars: number): void {
  state.cssChars += chars;
  if (state.cssChars > SVG_BUDGETS.cssChars) {
    state.errors.stop("SVG_BUDGET_TEXT", element, `The picture holds more than ${SVG_BUDGETS.cssChars} characters of CSS; share styles through classes.`);
  }
}

export function tooManyAttributesMessage(element: string): string {
  return `<${element}> may carry at most ${SVG_BUDGETS.attributesPerElement} attributes; move shared styling into a class and a <style> rule.`;
}

const ANIMATION_VALUE_ATTRIBUTES = ["from", "to", "by", "values"] as const;

/** True when any number in the list (separated by spaces, commas or the semicolons of SMIL values) is over `max`. */
function anyOver(value: string | undefined, max: number): boolean {
  return value !== undefined && value.trim().split(/[\s,;]+/).some((item) => !(Math.abs(Number(item)) <= max));
}

/**
 * The filter parameter caps for an element with these attributes, shared by admission and the
 * live picture. An animation is capped by the attribute it animates whatever element it sits in,
 * since `href` may point it at any primitive.
 */
export function filterCapProblem(name: string, attributes: ReadonlyMap<string, string>): string | null {
  const animated = attributes.get("attributeName");
  for (const { attribute, element, max } of FILTER_PARAMETER_CAPS) {
    if ((element === null || element === name) && anyOver(attributes.get(attribute), max)) {
      return `${attribute} may be at most ${max}; larger filter parameters are too expensive to render.`;
    }
    if (animated !== attribute) continue;
    if (ANIMATION_VALUE_ATTRIBUTES.some((values) => anyOver(attributes.get(values), max))) {
      return `An animation of ${attribute} may reach at most ${max}; larger filter parameters are too expensive to render.`;
    }
    // Additive animations stack on the base value and on each other, past any per-value cap.
    if (attributes.get("additive") === "sum" || attributes.get("accumulate") === "sum" || (attributes.has("by") && !attributes.has("from"))) {
      return `An animation of ${attribute} must replace its value, not add to it (additive or accumulate "sum", or by without from), so it stays within ${max}; animate with values or from and to instead.`;
    }
  }
  return null;
}

/** Attributes filterCapProblem reads before it can find anything. */
const CAPPED_ATTRIBUTES = ["attributeName", ...FILTER_PARAMETER_CAPS.map((cap) => cap.attribute)];
const mayHaveCapProblem = new WeakMap<ElementRule, boolean>();

/**
 * Whether an element with this rule can carry any attribute filterCapProblem looks at: most
 * elements (every shape) cannot, and for them its map lookups were a share of each element's check.
 */
function capsMayApply(rule: ElementRule): boolean {
  let known = mayHaveCapProblem.get(rule);
  if (known === undefined) {
    known = CAPPED_ATTRIBUTES.some((attribute) => ruleAttributeKind(rule, attribute) !== undefined);
    mayHaveCapProblem.set(rule, known);
  }
  return known;
}

function checkFilterCaps(state: WalkState, element: OpenElement, node: SvgElementNode, rule: ElementRule, filterCount: { value: number } | null): void {
  const capProblem = capsMayApply(rule) ? filterCapProblem(node.name, node.attributes) : null;
  if (capProblem) state.errors.add("SVG_FILTER_LIMIT", element, capProblem);
  if (rule.filterPrimitive !== true) return;
  state.filterPrimitives++;
  if (filterCount) filterCount.value++;
  if ((filterCount?.value ?? 0) > SVG_BUDGETS.filterPrimitivesPerFilter) {
    state.errors.stop("SVG_FILTER_LIMIT", element, `A filter may hold at most ${SVG_BUDGETS.filterPrimitivesPerFilter} primitives; split or simplify it.`);
  }
  if (state.filterPrimitives > SVG_BUDGETS.filterPrimitivesTotal) {
    state.errors.stop("SVG_FILTER_LIMIT", element, `A picture may hold at most ${SVG_BUDGETS.filterPrimitivesTotal} filter primitives; reuse filters by id.`);
  }
}

/**
 * Admission under one policy. Bounded work: the parse is linear, node/depth/path budgets stop
 * early, and error collection stops after a fixed count.
 */
export function admitWithPolicy(source: string, maxBytes: number, policy: Policy): AdmissionResult {
  const errors = new ErrorCollector();
  try {
    const bytes = utf8Length(source);
    if (bytes > maxBytes) {
      errors.stop("SVG_BUDGET_BYTES", DOCUMENT, `The SVG is ${bytes} bytes; the limit here is ${maxBytes}. Simplify paths or reuse shapes.`);
    }
    const state: WalkState = {
      policy, errors: new ErrorCollector(), stopped: false, tree: null, ids: new Set(), pathCommands: 0, nodes: 0, elements: 0, depth: 0,
      filterPrimitives: 0, script: null, scriptBytes: 0, cssChars: 0,
    };
    parseAndCheck(source, errors, state);
    const { tree } = state;
    if (state.errors.errors.length > 0 || !tree) return { ok: false, errors: state.errors.errors };
    const { canonical, staticMarkup } = serialize(tree);
    return {
      ok: true,
      canonical,
      staticMarkup,
      script: state.script,
      tree,
      stats: {
        bytes, nodes: state.nodes, elements: state.elements, pathCommands: state.pathCommands, depth: state.depth,
        filterPrimitives: state.filterPrimitives, scriptBytes: state.scriptBytes, policyVersion: policy.version,
      },
    };
  } catch (error) {
    if (error instanceof AdmissionAbort) return { ok: false, errors: errors.errors };
    throw error;
  }
}

export type { SvgChildNode };

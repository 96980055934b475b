import { checkAttributeValue, externalUrlMessage } from "../attribute-values";
import { SVG_BUDGETS, type RuntimeBudgetCode } from "../budgets";
import { checkStyleSheet } from "../css";
import type { AdmissionCode } from "../errors";
import { filterCapProblem, tooManyAttributesMessage } from "../admit-core";
import { animatableKind, attributeKind, type AttributeKind, elementRule, type Policy } from "../policy";
import type { SvgElementNode } from "../tree";

export type BridgeRefusalCode =
  | AdmissionCode
  | "BRIDGE_UNKNOWN_ID"
  | "BRIDGE_ROOT"
  | "BRIDGE_ID_IMMUTABLE"
  | "BRIDGE_TEXT"
  | "BRIDGE_ARGUMENT"
  | "BRIDGE_EVENT_TYPE";

export interface Refusal {
  /** A budget code means the instance is being stopped; the script sees it but cannot continue. */
  code: BridgeRefusalCode | RuntimeBudgetCode;
  message: string;
}

/** A change to the picture, as the worker sends it to the host. Plain data only. */
export type Mutation =
  | { op: "set"; id: string; name: string; value: string }
  | { op: "text"; id: string; text: string }
  | { op: "create"; id: string; parent: string; tag: string; attributes: Array<[string, string]>; text: string | null }
  | { op: "remove"; id: string };

/** Outcome of one mutation: refused (catchable by the script), over budget (stops the instance), or applied. */
export type MutationOutcome =
  | { ok: true; mutation: Mutation }
  | { ok: false; refusal: Refusal }
  | { ok: false; budget: RuntimeBudgetCode };

export interface ModelElement {
  id: string;
  name: string;
  attributes: Map<string, string>;
  /** Element ids and text runs in document order. */
  children: Array<string | { text: string }>;
  parent: string | null;
  depth: number;
  pathCommands: number;
  /** Text children, kept as a count so checks stay constant-time on wide groups. */
  textRuns: number;
}

export const ROOT_ID = "$root";
const EVENT_ATTRIBUTE = /^on/i;

const refuse = (code: BridgeRefusalCode, message: string): MutationOutcome => ({ ok: false, refusal: { code, message } });

/**
 * The live picture as both sides see it. The worker keeps one to answer reads synchronously and
 * check every mutation; the host keeps its own copy, built from the canonical source it admitted
 * itself, and checks each mutation again before touching the DOM.
 *
 * Elements without an author id get `$`-prefixed ids, which author ids can never take (ids must
 * start with a letter or `_`), in document order, so both copies agree without talking.
 */
export class PictureModel {
  readonly elements = new Map<string, ModelElement>();
  nodeCount = 0;
  pathCommandCount = 0;
  filterPrimitiveCount = 0;
  private generatedIds = 0;
  private createdIds = 0;

  constructor(readonly policy: Policy, tree: SvgElementNode) {
    this.adopt(tree, null, 1);
  }

  private adopt(node: SvgElementNode, parent: string | null, depth: number): string {
    const authorId = node.attributes.get("id");
    const id = parent === null ? ROOT_ID : authorId ?? `$${++this.generatedIds}`;
    const element: ModelElement = { id, name: node.name, attributes: new Map(node.attributes), children: [], parent, depth, pathCommands: 0, textRuns: 0 };
    this.elements.set(id, element);
    // The root answers to "$root" and, when it has one, to its author id as well.
    if (parent === null && authorId !== undefined) this.elements.set(authorId, element);
    this.nodeCount++;
    if (this.isFilterPrimitive(element.name)) this.filterPrimitiveCount++;
    element.pathCommands = this.pathCommandsOf(element.name, element.attributes);
    this.pathCommandCount += element.pathCommands;
    for (const child of node.children) {
      if (child.type === "text") {
        if (node.name !== "script") {
          element.children.push({ text: child.text });
          element.textRuns++;
          this.nodeCount++;
        }
      } else if (child.name !== "script") {
        element.children.push(this.adopt(child, id, depth + 1));
      }
    }
    return id;
  }

  private isFilterPrimitive(name: string): boolean {
    return elementRule(this.policy, name)?.filterPrimitive === true;
  }

  /** The admission caps on filter primitives, applied to elements a script creates. */
  private filterPrimitiveProblem(parent: ModelElement): string | null {
    const inParent = parent.children.filter((child) => typeof child === "string" && this.isFilterPrimitive(this.elements.get(child)?.name ?? "")).length;
    if (inParent + 1 > SVG_BUDGETS.filterPrimitivesPerFilter) return `A filter may hold at most ${SVG_BUDGETS.filterPrimitivesPerFilter} primitives; split or simplify it.`;
    if (this.filterPrimitiveCount + 1 > SVG_BUDGETS.filterPrimitivesTotal) return `A picture may hold at most ${SVG_BUDGETS.filterPrimitivesTotal} filter primitives; reuse filters by id.`;
    return null;
  }

  private pathCommandsOf(name: string, attributes: Map<string, string>): number {
    let total = 0;
    for (const [attribute, value] of attributes) total += this.attributePathCommands(name, attributes, attribute, value);
    return total;
  }

  private attributePathCommands(name: string, attributes: Map<string, string>, attribute: string, value: string): number {
    const kind = attributeKind(this.policy, name, attribute);
    if (!kind) return 0;
    const checked = checkAttributeValue(kind, attribute, value, this.animatedOf(name, attributes));
    return checked.ok ? checked.pathCommands : 0;
  }

  private animatedOf(name: string, attributes: Map<string, string>): { name: string; kind: AttributeKind } | undefined {
    const target = attributes.get("attributeName");
    if (target === undefined) return undefined;
    if (name === "animateTransform") return target === "transform" ? { name: target, kind: "numberList" } : undefined;
    const kind = animatableKind(target);
    return kind ? { name: target, kind } : undefined;
  }

  get(id: string): ModelElement | undefined {
    return this.elements.get(id);
  }

  getAttribute(id: string, name: string): string | null | Refusal {
    const element = this.elements.get(id);
    if (!element) return unknownId(id);
    return element.attributes.get(name === "xlink:href" ? "href" : name) ?? null;
  }

  getText(id: string): string | Refusal {
    const element = this.elements.get(id);
    if (!element) return unknownId(id);
    return element.children.map((child) => (typeof child === "string" ? "" : child.text)).join("");
  }

  /** Checks one attribute for an element of type `name` whose other attributes are `attributes`. */
  private checkAttribute(name: string, attributes: Map<string, string>, attribute: string, value: unknown): { value: string; pathCommands: number } | Refusal {
    if (typeof value !== "string") return { code: "BRIDGE_ARGUMENT", message: `The value of "${attribute}" must be a string; convert it with String(value).` };
    if (value.length > SVG_BUDGETS.mutationValueChars) return { code: "SVG_BUDGET_TEXT", message: `Values are limited to ${SVG_BUDGETS.mutationValueChars} characters.` };
    if (EVENT_ATTRIBUTE.test(attribute)) {
      return { code: "SVG_EVENT_ATTRIBUTE", message: `The event attribute "${attribute}" is not allowed; register handlers with showcase.on(id, type, callback).` };
    }
    const kind = attributeKind(this.policy, name, attribute);
    if (!kind) {
      if (attribute === "href" || /^(?:src|action|formaction|xlink:.*)$/i.test(attribute)) {
        return { code: "SVG_EXTERNAL_URL", message: `<${name}> may not carry "${attribute}". ${externalUrlMessage(value)}` };
      }
      return { code: "SVG_FORBIDDEN_ATTRIBUTE", message: `The attribute "${attribute.slice(0, 60)}" is not allowed on <${name}>; use the documented SVG attributes or CSS properties.` };
    }
    const checked = checkAttributeValue(kind, attribute, value, this.animatedOf(name, attributes));
    if (!checked.ok) return { code: checked.code, message: checked.message };
    return { value: checked.canonical, pathCommands: checked.pathCommands };
  }

  setAttribute(id: string, rawName: unknown, value: unknown): MutationOutcome {
    const element = this.elements.get(id);
    if (!element) return { ok: false, refusal: unknownId(id) };
    if (typeof rawName !== "string") return refuse("BRIDGE_ARGUMENT", "The attribute name must be a string.");
    const name = rawName === "xlink:href" ? "href" : rawName;
    if (name === "id") return refuse("BRIDGE_ID_IMMUTABLE", "Ids cannot change; create a new element with the id you need.");
    if (name === "attributeName") return refuse("SVG_SMIL_TARGET", "attributeName cannot change; create a new animation element instead.");
    const checked = this.checkAttribute(element.name, element.attributes, name, value);
    if ("code" in checked) return { ok: false, refusal: checked };
    const previous = element.attributes.get(name);
    if (previous === undefined && element.attributes.size >= SVG_BUDGETS.attributesPerElement) {
      return refuse("SVG_BUDGET_ATTRIBUTES", tooManyAttributesMessage(element.name));
    }
    const capProblem = filterCapProblem(element.name, new Map([...element.attributes, [name, checked.value]]));
    if (capProblem) return refuse("SVG_FILTER_LIMIT", capProblem);
    const previousCommands = previous === undefined ? 0 : this.attributePathCommands(element.name, element.attributes, name, previous);
    const pathCommandCount = this.pathCommandCount - previousCommands + checked.pathCommands;
    if (pathCommandCount > SVG_BUDGETS.pathCommands) return { ok: false, budget: "BUDGET_PATH_COMMANDS" };
    this.pathCommandCount = pathCommandCount;
    element.pathCommands += checked.pathCommands - previousCommands;
    element.attributes.set(name, checked.value);
    return { ok: true, mutation: { op: "set", id, name, value: checked.value } };
  }

  private checkText(element: { name: string }, text: unknown): string | Refusal {
    if (typeof text !== "string") return { code: "BRIDGE_ARGUMENT", message: "Text must be a string; convert it with String(value)." };
    if (text.length > SVG_BUDGETS.mutationValueChars) return { code: "SVG_BUDGET_TEXT", message: `Text is limited to ${SVG_BUDGETS.mutationValueChars} characters.` };
    const rule = elementRule(this.policy, element.name);
    if (!rule || rule.content === "none") {
      return { code: "SVG_UNEXPECTED_TEXT", message: `<${element.name}> cannot hold text; put text inside <text>, <tspan>, <title> or <desc>.` };
    }
    if (rule.content === "css") {
      const checked = checkStyleSheet(text);
      return checked.ok ? checked.canonical : { code: checked.problem.code, message: checked.problem.message };
    }
    return text;
  }

  setText(id: string, text: unknown): MutationOutcome {
    const element = this.elements.get(id);
    if (!element) return { ok: false, refusal: unknownId(id) };
    const checked = this.checkText(element, text);
    if (typeof checked !== "string") return { ok: false, refusal: checked };
    if (element.children.length > element.textRuns) {
      return refuse("BRIDGE_TEXT", `"${id}" has child elements; setText works on elements holding only text (put the text in a <tspan> with an id).`);
    }
    const nodeCount = this.nodeCount - element.children.length + (checked === "" ? 0 : 1);
    if (nodeCount > SVG_BUDGETS.nodes) return { ok: false, budget: "BUDGET_NODES" };
    this.nodeCount = nodeCount;
    element.children = checked === "" ? [] : [{ text: checked }];
    element.textRuns = element.children.length;
    return { ok: true, mutation: { op: "text", id, text: checked } };
  }

  /** `requestedId` is set by the host replaying the worker's choice of a generated id. */
  create(parentId: string, tag: unknown, attributes: unknown, text: unknown, requestedId?: string): MutationOutcome {
    const parent = this.elements.get(parentId);
    if (!parent) return { ok: false, refusal: unknownId(parentId) };
    if (typeof tag !== "string" || tag === "script" || !elementRule(this.policy, tag)) {
      return refuse("SVG_UNKNOWN_ELEMENT", `<${String(tag).slice(0, 60)}> cannot be created; create allowed SVG elements such as rect, circle, path, text or g.`);
    }
    if (parent.depth + 1 > SVG_BUDGETS.depth) return refuse("SVG_BUDGET_DEPTH", `Elements may be nested at most ${SVG_BUDGETS.depth} levels deep.`);
    const primitive = this.isFilterPrimitive(tag);
    const filterProblem = primitive ? this.filterPrimitiveProblem(parent) : null;
    if (filterProblem) return refuse("SVG_FILTER_LIMIT", filterProblem);
    const given = attributes ?? {};
    if (typeof given !== "object" || Array.isArray(given)) return refuse("BRIDGE_ARGUMENT", "Attributes must be a plain object of strings.");
    const entries = Object.entries(given as Record<string, unknown>).map(([name, value]) => [name === "xlink:href" ? "href" : name, value] as const);
    if (entries.length > SVG_BUDGETS.attributesPerElement) return refuse("SVG_BUDGET_ATTRIBUTES", tooManyAttributesMessage(tag));
    // attributeName decides how animation values are checked, so it goes first.
    entries.sort(([a], [b]) => (a === "attributeName" ? -1 : b === "attributeName" ? 1 : 0));
    const checkedAttributes = new Map<string, string>();
    let pathCommands = 0;
    for (const [name, value] of entries) {
      const checked = this.checkAttribute(tag, checkedAttributes, name, value);
      if ("code" in checked) return { ok: false, refusal: checked };
      if (name === "id" && (this.elements.has(checked.value))) return refuse("SVG_DUPLICATE_ID", `The id "${checked.value}" is already used; ids must be unique.`);
      checkedAttributes.set(name, checked.value);
      pathCommands += checked.pathCommands;
    }
    // On the whole set: whether an animation adds up depends on several of its attributes at once.
    const capProblem = filterCapProblem(tag, checkedAttributes);
    if (capProblem) return refuse("SVG_FILTER_LIMIT", capProblem);
    let checkedText: string | null = null;
    if (text !== undefined && text !== null && text !== "") {
      const result = this.checkText({ name: tag }, text);
      if (typeof result !== "string") return { ok: false, refusal: result };
      checkedText = result;
    }
    if (parent.textRuns > 0) {
      return refuse("BRIDGE_TEXT", `"${parentId}" holds text; add elements to a group or text element without direct text.`);
    }
    const nodeCount = this.nodeCount + 1 + (checkedText ? 1 : 0);
    if (nodeCount > SVG_BUDGETS.nodes) return { ok: false, budget: "BUDGET_NODES" };
    if (this.pathCommandCount + pathCommands > SVG_BUDGETS.pathCommands) return { ok: false, budget: "BUDGET_PATH_COMMANDS" };
    const id = checkedAttributes.get("id") ?? requestedId ?? `$c${++this.createdIds}`;
    if (this.elements.has(id)) return refuse("SVG_DUPLICATE_ID", `The id "${id}" is already used.`);
    this.nodeCount = nodeCount;
    this.pathCommandCount += pathCommands;
    if (primitive) this.filterPrimitiveCount++;
    const element: ModelElement = {
      id, name: tag, attributes: checkedAttributes, children: checkedText ? [{ text: checkedText }] : [], parent: parentId,
      depth: parent.depth + 1, pathCommands, textRuns: checkedText ? 1 : 0,
    };
    this.elements.set(id, element);
    parent.children.push(id);
    return {
      ok: true,
      mutation: { op: "create", id, parent: parentId, tag, attributes: [...checkedAttributes], text: checkedText },
    };
  }

  remove(id: string): MutationOutcome {
    const element = this.elements.get(id);
    if (!element) return { ok: false, refusal: unknownId(id) };
    if (element.parent === null) return refuse("BRIDGE_ROOT", "The root <svg> cannot be removed; remove or hide its children instead.");
    const parent = this.elements.get(element.parent);
    if (parent) parent.children = parent.children.filter((child) => child !== id);
    const drop = (current: ModelElement) => {
      this.elements.delete(current.id);
      this.nodeCount--;
      this.pathCommandCount -= current.pathCommands;
      if (this.isFilterPrimitive(current.name)) this.filterPrimitiveCount--;
      for (const child of current.children) {
        if (typeof child === "string") {
          const inner = this.elements.get(child);
          if (inner) drop(inner);
        } else this.nodeCount--;
      }
    };
    drop(element);
    return { ok: true, mutation: { op: "remove", id } };
  }

  /** Replays a mutation received from the worker, checking it exactly as the worker did. */
  apply(mutation: Mutation): MutationOutcome {
    switch (mutation.op) {
      case "set":
        return this.setAttribute(mutation.id, mutation.name, mutation.value);
      case "text":
        return this.setText(mutation.id, mutation.text);
      case "create":
        if (!mutation.id.startsWith("$") && !mutation.attributes.some(([name, value]) => name === "id" && value === mutation.id)) {
          return refuse("BRIDGE_ARGUMENT", "A created element's id must be its id attribute or a generated $ id.");
        }
        return this.create(mutation.parent, mutation.tag, Object.fromEntries(mutation.attributes), mutation.text, mutation.id);
      case "remove":
        return this.remove(mutation.id);
    }
  }
}

function unknownId(id: unknown): Refusal {
  return { code: "BRIDGE_UNKNOWN_ID", message: `No element has the id "${String(id).slice(0, 80)}"; give the element an id in the SVG or use the id returned by showcase.create().` };
}

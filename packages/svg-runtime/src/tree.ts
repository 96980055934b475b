import { SVG_NAMESPACE } from "./policy";

export interface SvgElementNode {
  type: "element";
  name: string;
  /** Canonical attribute values keyed by canonical name (`xlink:href` becomes `href`). */
  attributes: Map<string, string>;
  children: SvgChildNode[];
}

export interface SvgTextNode {
  type: "text";
  text: string;
  /** Only the script's body is CDATA in canonical form. */
  cdata: boolean;
}

export type SvgChildNode = SvgElementNode | SvgTextNode;

/** Canonical attribute order: id first, then by code-unit order of the name. */
const precedes = (a: string, b: string) => (a === "id" ? b !== "id" : b !== "id" && a < b);

/**
 * One element's attributes in canonical order, in two arrays the serializer reuses: an element
 * has a few attributes and a picture thousands of elements, so a fresh array of names per element
 * and a call of Array#sort's comparator per pair were a large share of serialisation.
 */
const sortedNames: string[] = [];
const sortedValues: string[] = [];

function sortAttributes(attributes: Map<string, string>): number {
  let count = 0;
  for (const [name, value] of attributes) {
    // Insertion sort: stable and allocation-free, and the names of one element are distinct.
    let at = count;
    while (at > 0 && precedes(name, sortedNames[at - 1] as string)) {
      sortedNames[at] = sortedNames[at - 1] as string;
      sortedValues[at] = sortedValues[at - 1] as string;
      at--;
    }
    sortedNames[at] = name;
    sortedValues[at] = value;
    count++;
  }
  return count;
}

// Most text and values need no escaping: a test is much cheaper than a replace with a callback.
const TEXT_SPECIALS = /[&<>\r]/;
const ATTRIBUTE_SPECIALS = /[&<>"\t\n\r]/;

function escapeText(text: string): string {
  if (!TEXT_SPECIALS.test(text)) return text;
  return text.replace(/[&<>\r]/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : "&#13;"));
}

function escapeAttribute(value: string): string {
  if (!ATTRIBUTE_SPECIALS.test(value)) return value;
  return value.replace(/[&<>"\t\n\r]/g, (c) =>
    c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === '"' ? "&quot;" : `&#${c.charCodeAt(0)};`,
  );
}

/**
 * `title` and `desc` are HTML integration points: a page's HTML parser reads what they hold as
 * HTML, so `<desc><g/></desc><rect/>` would leave an open HTML `g` holding the rest of the picture.
 * Their text is safe (escaped); their elements are never rendered, so static markup leaves them out.
 */
const HTML_INTEGRATION_POINTS: ReadonlySet<string> = new Set(["title", "desc"]);

/** SMIL's animation elements: CSS cannot hold them, so a copy no player controls leaves them out. */
const SMIL_ELEMENTS: ReadonlySet<string> = new Set(["animate", "animateTransform", "animateMotion", "set"]);

/**
 * The one serializer, in one pass: the canonical form, and the static markup, which is the same
 * text without any `<script>` element (a browser would run a script inside inline SVG), without
 * the elements inside `title` and `desc`, without `tabindex` (with no script running nothing in
 * the picture answers a key, so a focus stop there would be a control that does nothing), and
 * without SMIL animation (no player is there to pause it, WCAG 2.2.2). Each such span is cut out
 * of the canonical text, so the two can never differ elsewhere.
 */
export function serialize(root: SvgElementNode): { canonical: string; staticMarkup: string } {
  let out = "";
  // In document order of their starts, so a span inside one already cut is skipped below.
  const cuts: Array<[number, number]> = [];
  const write = (node: SvgChildNode, isRoot: boolean, parentName: string | null) => {
    if (node.type === "text") {
      out += node.cdata ? `<![CDATA[${node.text}]]>` : escapeText(node.text);
      return;
    }
    const start = out.length;
    const cut: [number, number] | undefined =
      node.name === "script" || SMIL_ELEMENTS.has(node.name) || (parentName !== null && HTML_INTEGRATION_POINTS.has(parentName)) ? [start, start] : undefined;
    if (cut) cuts.push(cut);
    out += `<${node.name}`;
    if (isRoot) out += ` xmlns="${SVG_NAMESPACE}"`;
    const count = sortAttributes(node.attributes);
    for (let i = 0; i < count; i++) {
      const name = sortedNames[i] as string;
      const attributeStart = out.length;
      out += ` ${name}="${escapeAttribute(sortedValues[i] as string)}"`;
      if (name === "tabindex") cuts.push([attributeStart, out.length]);
    }
    if (node.children.length === 0) {
      out += "/>";
    } else {
      out += ">";
      for (const child of node.children) write(child, false, node.name);
      out += `</${node.name}>`;
    }
    if (cut) cut[1] = out.length;
  };
  write(root, true, null);
  if (cuts.length === 0) return { canonical: out, staticMarkup: out };
  let staticMarkup = "";
  let from = 0;
  for (const [start, end] of cuts) {
    if (start < from) continue;
    staticMarkup += out.slice(from, start);
    from = end;
  }
  return { canonical: out, staticMarkup: staticMarkup + out.slice(from) };
}

import { SVG_NAMESPACE } from "./policy";

export interface SvgElementNode {
  type: "element";
  name: string;
  /** Canonical attribute values keyed by canonical name (`xlink:href` becomes `href`). */
  attributes: Map<string, string>;
  children: SvgChildNode[];
  path: string;
  line: number;
  column: number;
}

export interface SvgTextNode {
  type: "text";
  text: string;
  /** Only the script's body is CDATA in canonical form. */
  cdata: boolean;
}

export type SvgChildNode = SvgElementNode | SvgTextNode;

/** Canonical attribute order: id first, then by code-unit order of the name. */
export function orderedAttributeNames(attributes: Map<string, string>): string[] {
  return [...attributes.keys()].sort((a, b) => (a === "id" ? -1 : b === "id" ? 1 : a < b ? -1 : a > b ? 1 : 0));
}

function escapeText(text: string): string {
  return text.replace(/[&<>\r]/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : "&#13;"));
}

function escapeAttribute(value: string): string {
  return value.replace(/[&<>"\t\n\r]/g, (c) =>
    c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === '"' ? "&quot;" : `&#${c.charCodeAt(0)};`,
  );
}

/**
 * The one serializer. `includeScript` is false for static markup, which must never carry the
 * script: a browser would run a `<script>` inside inline SVG.
 */
export function serialize(root: SvgElementNode, includeScript: boolean): string {
  const out: string[] = [];
  const write = (node: SvgChildNode, isRoot: boolean) => {
    if (node.type === "text") {
      out.push(node.cdata ? `<![CDATA[${node.text}]]>` : escapeText(node.text));
      return;
    }
    if (node.name === "script" && !includeScript) return;
    out.push(`<${node.name}`);
    if (isRoot) out.push(` xmlns="${SVG_NAMESPACE}"`);
    for (const name of orderedAttributeNames(node.attributes)) {
      out.push(` ${name}="${escapeAttribute(node.attributes.get(name) ?? "")}"`);
    }
    if (node.children.length === 0) {
      out.push("/>");
      return;
    }
    out.push(">");
    for (const child of node.children) write(child, false);
    out.push(`</${node.name}>`);
  };
  write(root, true);
  return out.join("");
}

import type { PictureSurface } from "../runtime/controller";
import { type Mutation, type PictureModel, ROOT_ID } from "../runtime/picture-model";
import type { PictureEvent, PictureEventType } from "../runtime/protocol";

/** Longest `key` or `value` an event carries to the script. */
const EVENT_STRING_MAX = 32;
const SVG_NAMESPACE = "http://www.w3.org/2000/svg";
const XML_NAMESPACE = "http://www.w3.org/XML/1998/namespace";

function setDomAttribute(element: Element, name: string, value: string): void {
  if (name.startsWith("xml:")) element.setAttributeNS(XML_NAMESPACE, name, value);
  else element.setAttribute(name, value);
}

/** Builds the picture with createElementNS/setAttribute from the checked model; never innerHTML. */
export function buildDom(model: PictureModel, elements: Map<string, Element>): SVGSVGElement {
  const build = (id: string): Element => {
    const node = model.get(id);
    if (!node) throw new Error(`missing ${id}`);
    const element = document.createElementNS(SVG_NAMESPACE, node.name);
    for (const [name, value] of node.attributes) setDomAttribute(element, name, value);
    for (const child of node.children) {
      element.append(typeof child === "string" ? build(child) : document.createTextNode(child.text));
    }
    elements.set(id, element);
    return element;
  };
  const root = build(ROOT_ID);
  // Scripts may name the root by its author id as well as $root (the model answers to both), and
  // their changes and listeners arrive under the name they used.
  const authorId = model.get(ROOT_ID)?.attributes.get("id");
  if (authorId !== undefined) elements.set(authorId, root);
  return root as SVGSVGElement;
}

export class DomSurface implements PictureSurface {
  readonly elements = new Map<string, Element>();
  root: SVGSVGElement | undefined;
  /**
   * Event types the script listens to, by the id it named. The worker keeps its listeners by id,
   * and asks for each id and type once, so an element created again under a removed one's id
   * must get them here.
   */
  private readonly listened = new Map<string, Set<PictureEventType>>();

  constructor(private readonly dispatch: (event: PictureEvent) => void) {}

  apply(mutation: Mutation): void {
    switch (mutation.op) {
      case "set": {
        const element = this.elements.get(mutation.id);
        if (element) setDomAttribute(element, mutation.name, mutation.value);
        return;
      }
      case "text": {
        const element = this.elements.get(mutation.id);
        if (element) element.textContent = mutation.text;
        return;
      }
      case "create": {
        const parent = this.elements.get(mutation.parent);
        const element = document.createElementNS(SVG_NAMESPACE, mutation.tag);
        for (const [name, value] of mutation.attributes) setDomAttribute(element, name, value);
        if (mutation.text) element.textContent = mutation.text;
        this.elements.set(mutation.id, element);
        parent?.append(element);
        for (const type of this.listened.get(mutation.id) ?? []) this.attach(element, mutation.id, type);
        return;
      }
      case "remove": {
        const element = this.elements.get(mutation.id);
        element?.remove();
        this.elements.delete(mutation.id);
        return;
      }
    }
  }

  listen(id: string, type: PictureEventType): void {
    const types = this.listened.get(id) ?? new Set<PictureEventType>();
    this.listened.set(id, types);
    if (types.has(type)) return;
    types.add(type);
    const element = this.elements.get(id);
    if (element) this.attach(element, id, type);
  }

  private attach(element: Element, id: string, type: PictureEventType): void {
    element.addEventListener(type, (event) => {
      // A key the script listens for on this element is the picture's: Space would also scroll the page, carrying the control out of view.
      if (type === "keydown" && event instanceof KeyboardEvent && event.key === " ") event.preventDefault();
      this.dispatch(this.plainEvent(id, type, event));
    });
  }

  /** Plain data only: the script never sees a DOM object. */
  private plainEvent(target: string, type: PictureEventType, event: Event): PictureEvent {
    const plain: PictureEvent = { type, target };
    if (event instanceof MouseEvent) {
      const matrix = this.root?.getScreenCTM()?.inverse();
      if (matrix) {
        const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix);
        plain.x = Math.round(point.x * 100) / 100;
        plain.y = Math.round(point.y * 100) / 100;
      }
    }
    if (event instanceof KeyboardEvent) plain.key = event.key.slice(0, EVENT_STRING_MAX);
    if (type === "input" || type === "change") {
      const targetValue: unknown = event.target && "value" in event.target ? event.target.value : undefined;
      const value = typeof targetValue === "string" ? targetValue : event instanceof InputEvent ? event.data : null;
      if (value !== null) plain.value = value.slice(0, EVENT_STRING_MAX);
    }
    return plain;
  }
}

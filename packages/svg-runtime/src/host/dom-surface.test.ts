import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { admitWithPolicy } from "../admit-core";
import { SVG_BUDGETS } from "../budgets";
import { CURRENT_POLICY_VERSION, policyFor } from "../policy";
import { type Mutation, PictureModel } from "../runtime/picture-model";
import { buildDom, DomSurface } from "./dom-surface";

/** The little of the DOM the surface uses, so it runs in Node. */
class FakeNode {
  parent: FakeElement | undefined;
  remove(): void {
    if (!this.parent) return;
    this.parent.children = this.parent.children.filter((child) => child !== this);
    this.parent = undefined;
  }
}

class FakeText extends FakeNode {
  constructor(readonly data: string) {
    super();
  }
}

class FakeElement extends FakeNode {
  readonly attributes = new Map<string, string>();
  readonly listeners: string[] = [];
  children: FakeNode[] = [];
  constructor(readonly name: string) {
    super();
  }
  setAttribute(name: string, value: string): void {
    this.attributes.set(name, value);
  }
  setAttributeNS(_namespace: string, name: string, value: string): void {
    this.attributes.set(name, value);
  }
  append(child: FakeNode): void {
    child.parent = this;
    this.children.push(child);
  }
  set textContent(text: string) {
    this.children = [new FakeText(text)];
  }
  addEventListener(type: string): void {
    this.listeners.push(type);
  }
}

beforeEach(() => {
  vi.stubGlobal("document", {
    createElementNS: (_namespace: string, name: string) => new FakeElement(name),
    createTextNode: (data: string) => new FakeText(data),
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function surfaceFor(body: string, rootAttributes = "") {
  const policy = policyFor(CURRENT_POLICY_VERSION)!;
  const admitted = admitWithPolicy(`<svg xmlns="http://www.w3.org/2000/svg"${rootAttributes}>${body}</svg>`, SVG_BUDGETS.articleSourceBytes, policy);
  if (!admitted.ok) throw new Error(JSON.stringify(admitted.errors));
  const surface = new DomSurface(() => {});
  const root = buildDom(new PictureModel(policy, admitted.tree), surface.elements) as unknown as FakeElement;
  return { surface, root };
}

describe("the DOM surface", () => {
  it("takes changes and listeners addressed to the root by its author id, as the model does", () => {
    const { surface, root } = surfaceFor('<g id="layer"/>', ' id="stage"');
    surface.apply({ op: "set", id: "stage", name: "viewBox", value: "0 0 5 5" });
    surface.apply({ op: "create", id: "dot", parent: "stage", tag: "circle", attributes: [["id", "dot"]], text: null });
    surface.listen("stage", "click");
    expect(root.attributes.get("viewBox")).toBe("0 0 5 5");
    expect(root.children.map((child) => (child as FakeElement).name)).toEqual(["g", "circle"]);
    expect(root.listeners).toEqual(["click"]);
  });

  it("gives an element created again under a removed element's id the listeners the script registered for that id", () => {
    const { surface, root } = surfaceFor('<g id="layer"/>');
    const button: Mutation = { op: "create", id: "button", parent: "layer", tag: "rect", attributes: [["id", "button"]], text: null };
    surface.apply(button);
    surface.listen("button", "click");
    surface.apply({ op: "remove", id: "button" });
    surface.apply(button);
    const layer = root.children[0] as FakeElement;
    expect((layer.children[0] as FakeElement).listeners).toEqual(["click"]);
  });
});

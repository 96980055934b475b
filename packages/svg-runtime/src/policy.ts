import { SVG_BUDGETS } from "./budgets";

/**
 * The allow-list: which elements, which attributes on each, which CSS properties and functions.
 * Anything not listed is refused. Policies are versioned data: a released runtime build records
 * the policy version it was built with, and older versions stay here unchanged so a revision
 * admitted under an older build is always re-checked with the rules it was admitted under.
 */

export type AttributeKind =
  | "id"
  | "class"
  | "label"
  | "number"
  | "numberList"
  | "length"
  | "lengthList"
  | "viewBox"
  | "preserveAspectRatio"
  | "transform"
  | "pathData"
  | "points"
  | "localRef"
  | "css"
  | "clock"
  | "repeatCount"
  | "timing"
  | "semicolonNumbers"
  | "animationValues"
  | "attributeName"
  | "rotate"
  | "resultName"
  | "filterInput"
  | "language"
  | { oneOf: readonly string[] };

export interface ElementRule {
  attributes: Readonly<Record<string, AttributeKind>>;
  /** Accepts presentation attributes (fill, stroke, ...) and the core set (id, class, style, ...). */
  presentation: boolean;
  /** What character data the element may hold. */
  content: "none" | "text" | "css";
  /** Counted against the filter primitive caps. */
  filterPrimitive?: boolean;
}

export const SVG_NAMESPACE = "http://www.w3.org/2000/svg";
export const XLINK_NAMESPACE = "http://www.w3.org/1999/xlink";
export const XML_NAMESPACE = "http://www.w3.org/XML/1998/namespace";

const UNITS = ["userSpaceOnUse", "objectBoundingBox"] as const;

/** Presentation attributes; each is also a CSS property validated by the CSS rules. */
export const PRESENTATION_PROPERTIES = [
  "fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-opacity", "stroke-linecap",
  "stroke-linejoin", "stroke-miterlimit", "stroke-dasharray", "stroke-dashoffset", "opacity", "color",
  "display", "visibility", "clip-path", "clip-rule", "mask", "filter", "marker-start", "marker-mid",
  "marker-end", "font-family", "font-size", "font-weight", "font-style", "font-variant", "font-stretch",
  "text-anchor", "dominant-baseline", "alignment-baseline", "baseline-shift", "letter-spacing",
  "word-spacing", "text-decoration", "writing-mode", "stop-color", "stop-opacity", "flood-color",
  "flood-opacity", "lighting-color", "color-interpolation", "color-interpolation-filters", "paint-order",
  "vector-effect", "shape-rendering", "text-rendering", "pointer-events", "cursor", "overflow",
  "mix-blend-mode", "isolation", "transform-origin", "transform-box", "mask-type",
] as const;

const PRESENTATION_PROPERTY_SET: ReadonlySet<string> = new Set(PRESENTATION_PROPERTIES);

/** CSS properties allowed in `style` attributes and `<style>` sheets. */
export const CSS_PROPERTIES: ReadonlySet<string> = new Set<string>([
  ...PRESENTATION_PROPERTIES,
  "transform", "font", "x", "y", "cx", "cy", "r", "rx", "ry", "width", "height",
  "animation", "animation-name", "animation-duration", "animation-timing-function", "animation-delay",
  "animation-iteration-count", "animation-direction", "animation-fill-mode", "animation-play-state",
  "animation-composition",
  "transition", "transition-property", "transition-duration", "transition-timing-function",
  "transition-delay",
]);

/** CSS functions allowed in values; `url()` is handled separately (local `#id` only). */
export const CSS_FUNCTIONS: ReadonlySet<string> = new Set([
  "rgb", "rgba", "hsl", "hsla", "hwb", "lab", "lch", "oklab", "oklch", "color-mix",
  "calc", "min", "max", "clamp",
  "translate", "translatex", "translatey", "scale", "scalex", "scaley", "rotate", "skew", "skewx",
  "skewy", "matrix",
  "cubic-bezier", "steps", "linear",
  "blur", "brightness", "contrast", "drop-shadow", "grayscale", "hue-rotate", "invert", "saturate", "sepia",
]);

/** Pseudo-classes usable in selectors; pseudo-elements are refused (they generate no SVG content). */
export const CSS_PSEUDO_CLASSES: ReadonlySet<string> = new Set([
  "hover", "focus", "focus-visible", "active", "first-child", "last-child", "nth-child", "nth-of-type",
  "not", "is", "where", "root",
]);

/** Attributes every element in the visual tree accepts besides its own. */
export const CORE_ATTRIBUTES: Readonly<Record<string, AttributeKind>> = {
  id: "id",
  class: "class",
  style: "css",
  tabindex: "number",
  role: { oneOf: ["img", "presentation", "button", "group", "graphics-symbol", "graphics-object", "none"] },
  "aria-label": "label",
  "aria-hidden": { oneOf: ["true", "false"] },
  "xml:space": { oneOf: ["default", "preserve"] },
  "xml:lang": "language",
  lang: "language",
  transform: "transform",
};

const ANIMATION_TIMING: Record<string, AttributeKind> = {
  id: "id",
  href: "localRef",
  begin: "timing",
  end: "timing",
  dur: "clock",
  min: "clock",
  max: "clock",
  repeatCount: "repeatCount",
  repeatDur: "clock",
  fill: { oneOf: ["freeze", "remove"] },
  restart: { oneOf: ["always", "whenNotActive", "never"] },
  calcMode: { oneOf: ["discrete", "linear", "paced", "spline"] },
  keyTimes: "semicolonNumbers",
  keySplines: "semicolonNumbers",
  additive: { oneOf: ["replace", "sum"] },
  accumulate: { oneOf: ["none", "sum"] },
};

const ANIMATION_VALUES: Record<string, AttributeKind> = {
  attributeName: "attributeName",
  attributeType: { oneOf: ["CSS", "XML", "auto"] },
  values: "animationValues",
  from: "animationValues",
  to: "animationValues",
  by: "animationValues",
};

const RECT_GEOMETRY = { x: "length", y: "length", width: "length", height: "length" } as const;
const FILTER_PRIMITIVE_COMMON = { ...RECT_GEOMETRY, result: "resultName", id: "id" } as const;

const shape = (attributes: Record<string, AttributeKind>): ElementRule => ({
  attributes: { ...attributes, pathLength: "number" },
  presentation: true,
  content: "none",
});
const container = (attributes: Record<string, AttributeKind> = {}): ElementRule => ({
  attributes,
  presentation: true,
  content: "none",
});
const primitive = (attributes: Record<string, AttributeKind>): ElementRule => ({
  attributes: { ...FILTER_PRIMITIVE_COMMON, ...attributes },
  presentation: true,
  content: "none",
  filterPrimitive: true,
});
const lightSource = (attributes: Record<string, AttributeKind>): ElementRule => ({
  attributes: { ...attributes, id: "id" },
  presentation: false,
  content: "none",
});
const transferFunction: ElementRule = {
  attributes: {
    type: { oneOf: ["identity", "table", "discrete", "linear", "gamma"] },
    tableValues: "numberList", slope: "number", intercept: "number", amplitude: "number",
    exponent: "number", offset: "number",
  },
  presentation: false,
  content: "none",
};

const VIEWPORT = { viewBox: "viewBox", preserveAspectRatio: "preserveAspectRatio" } as const;
const TEXT_POSITION = {
  x: "lengthList", y: "lengthList", dx: "lengthList", dy: "lengthList", rotate: "numberList",
  textLength: "length", lengthAdjust: { oneOf: ["spacing", "spacingAndGlyphs"] },
} as const;
const GRADIENT_COMMON = {
  gradientUnits: { oneOf: UNITS }, gradientTransform: "transform",
  spreadMethod: { oneOf: ["pad", "reflect", "repeat"] }, href: "localRef",
} as const;

const POLICY_V1_ELEMENTS: Record<string, ElementRule> = {
  svg: container({ ...RECT_GEOMETRY, ...VIEWPORT, version: { oneOf: ["1.1", "2"] } }),
  g: container(),
  defs: container(),
  symbol: container({ ...RECT_GEOMETRY, ...VIEWPORT, refX: "length", refY: "length" }),
  use: container({ ...RECT_GEOMETRY, href: "localRef" }),
  title: { attributes: { id: "id", lang: "language", "xml:lang": "language" }, presentation: false, content: "text" },
  desc: { attributes: { id: "id", lang: "language", "xml:lang": "language" }, presentation: false, content: "text" },
  style: { attributes: { id: "id", type: { oneOf: ["text/css"] }, media: "label" }, presentation: false, content: "css" },

  rect: shape({ ...RECT_GEOMETRY, rx: "length", ry: "length" }),
  circle: shape({ cx: "length", cy: "length", r: "length" }),
  ellipse: shape({ cx: "length", cy: "length", rx: "length", ry: "length" }),
  line: shape({ x1: "length", y1: "length", x2: "length", y2: "length" }),
  polyline: shape({ points: "points" }),
  polygon: shape({ points: "points" }),
  path: shape({ d: "pathData" }),

  text: { attributes: TEXT_POSITION, presentation: true, content: "text" },
  tspan: { attributes: TEXT_POSITION, presentation: true, content: "text" },
  textPath: {
    attributes: {
      href: "localRef", startOffset: "length", method: { oneOf: ["align", "stretch"] },
      spacing: { oneOf: ["auto", "exact"] }, side: { oneOf: ["left", "right"] }, textLength: "length",
      lengthAdjust: { oneOf: ["spacing", "spacingAndGlyphs"] },
    },
    presentation: true,
    content: "text",
  },

  linearGradient: container({ ...GRADIENT_COMMON, x1: "length", y1: "length", x2: "length", y2: "length" }),
  radialGradient: container({
    ...GRADIENT_COMMON, cx: "length", cy: "length", r: "length", fx: "length", fy: "length", fr: "length",
  }),
  stop: container({ offset: "length" }),
  clipPath: container({ clipPathUnits: { oneOf: UNITS } }),
  mask: container({ ...RECT_GEOMETRY, maskUnits: { oneOf: UNITS }, maskContentUnits: { oneOf: UNITS } }),
  pattern: container({
    ...RECT_GEOMETRY, ...VIEWPORT, patternUnits: { oneOf: UNITS }, patternContentUnits: { oneOf: UNITS },
    patternTransform: "transform", href: "localRef",
  }),
  marker: container({
    ...VIEWPORT, refX: "length", refY: "length", markerUnits: { oneOf: ["strokeWidth", "userSpaceOnUse"] },
    markerWidth: "length", markerHeight: "length", orient: "rotate",
  }),

  filter: container({ ...RECT_GEOMETRY, filterUnits: { oneOf: UNITS }, primitiveUnits: { oneOf: UNITS } }),
  feGaussianBlur: primitive({ in: "filterInput", stdDeviation: "numberList", edgeMode: { oneOf: ["duplicate", "wrap", "none"] } }),
  feOffset: primitive({ in: "filterInput", dx: "number", dy: "number" }),
  feBlend: primitive({
    in: "filterInput", in2: "filterInput",
    mode: { oneOf: ["normal", "multiply", "screen", "overlay", "darken", "lighten", "color-dodge", "color-burn", "hard-light", "soft-light", "difference", "exclusion", "hue", "saturation", "color", "luminosity"] },
  }),
  feColorMatrix: primitive({
    in: "filterInput", type: { oneOf: ["matrix", "saturate", "hueRotate", "luminanceToAlpha"] }, values: "numberList",
  }),
  feComponentTransfer: primitive({ in: "filterInput" }),
  feFuncR: transferFunction,
  feFuncG: transferFunction,
  feFuncB: transferFunction,
  feFuncA: transferFunction,
  feComposite: primitive({
    in: "filterInput", in2: "filterInput", operator: { oneOf: ["over", "in", "out", "atop", "xor", "arithmetic"] },
    k1: "number", k2: "number", k3: "number", k4: "number",
  }),
  feFlood: primitive({}),
  feMerge: primitive({}),
  feMergeNode: { attributes: { in: "filterInput" }, presentation: false, content: "none" },
  feMorphology: primitive({ in: "filterInput", operator: { oneOf: ["erode", "dilate"] }, radius: "numberList" }),
  feTurbulence: primitive({
    baseFrequency: "numberList", numOctaves: "number", seed: "number",
    stitchTiles: { oneOf: ["stitch", "noStitch"] }, type: { oneOf: ["fractalNoise", "turbulence"] },
  }),
  feDisplacementMap: primitive({
    in: "filterInput", in2: "filterInput", scale: "number",
    xChannelSelector: { oneOf: ["R", "G", "B", "A"] }, yChannelSelector: { oneOf: ["R", "G", "B", "A"] },
  }),
  feTile: primitive({ in: "filterInput" }),
  feDiffuseLighting: primitive({ in: "filterInput", surfaceScale: "number", diffuseConstant: "number" }),
  feSpecularLighting: primitive({
    in: "filterInput", surfaceScale: "number", specularConstant: "number", specularExponent: "number",
  }),
  feDistantLight: lightSource({ azimuth: "number", elevation: "number" }),
  fePointLight: lightSource({ x: "number", y: "number", z: "number" }),
  feSpotLight: lightSource({
    x: "number", y: "number", z: "number", pointsAtX: "number", pointsAtY: "number", pointsAtZ: "number",
    specularExponent: "number", limitingConeAngle: "number",
  }),

  animate: { attributes: { ...ANIMATION_TIMING, ...ANIMATION_VALUES }, presentation: false, content: "none" },
  set: { attributes: { ...ANIMATION_TIMING, ...ANIMATION_VALUES }, presentation: false, content: "none" },
  animateTransform: {
    attributes: {
      ...ANIMATION_TIMING, ...ANIMATION_VALUES,
      type: { oneOf: ["translate", "scale", "rotate", "skewX", "skewY"] },
    },
    presentation: false,
    content: "none",
  },
  animateMotion: {
    attributes: {
      ...ANIMATION_TIMING, values: "semicolonNumbers", from: "numberList", to: "numberList", by: "numberList",
      path: "pathData", rotate: "rotate", keyPoints: "semicolonNumbers", origin: { oneOf: ["default"] },
    },
    presentation: false,
    content: "none",
  },
  mpath: { attributes: { href: "localRef" }, presentation: false, content: "none" },
};

/**
 * Attributes SMIL may animate (`attributeName`) and the kind their values are checked as.
 * Deliberately absent: `href` and every other reference, `on*`, `style`, `class`, `id`.
 */
export const ANIMATABLE_ATTRIBUTES: Readonly<Record<string, AttributeKind>> = {
  ...Object.fromEntries(PRESENTATION_PROPERTIES.map((name) => [name, "css" as const])),
  x: "length", y: "length", width: "length", height: "length", cx: "length", cy: "length", r: "length",
  rx: "length", ry: "length", x1: "length", y1: "length", x2: "length", y2: "length", fx: "length",
  fy: "length", offset: "length", d: "pathData", points: "points", transform: "transform",
  viewBox: "viewBox", startOffset: "length", stdDeviation: "numberList", dx: "lengthList", dy: "lengthList",
  pathLength: "number",
};

/**
 * Filter parameters whose rendering cost grows with their value, and the budget that caps each,
 * wherever the value comes from: the attribute itself, or SMIL animating it. `element: null` caps
 * the attribute on every element that has it (feGaussianBlur, feDropShadow).
 */
export const FILTER_PARAMETER_CAPS: ReadonlyArray<{ attribute: string; element: string | null; max: number }> = [
  { attribute: "stdDeviation", element: null, max: SVG_BUDGETS.filterStdDeviationMax },
  { attribute: "radius", element: "feMorphology", max: SVG_BUDGETS.filterMorphologyRadiusMax },
  { attribute: "numOctaves", element: "feTurbulence", max: SVG_BUDGETS.filterTurbulenceOctavesMax },
  { attribute: "scale", element: "feDisplacementMap", max: SVG_BUDGETS.filterDisplacementScaleMax },
];

/** Properties whose url() may point at a local element. Elsewhere url() is refused entirely. */
export const CSS_REFERENCE_PROPERTIES: ReadonlySet<string> = new Set([
  "fill", "stroke", "clip-path", "mask", "filter", "marker-start", "marker-mid", "marker-end",
]);

/**
 * Elements with a specific reason for refusal, and what the author can do instead. Any other
 * element outside the allow-list gets SVG_UNKNOWN_ELEMENT.
 */
export const FORBIDDEN_ELEMENTS: Readonly<Record<string, string>> = {
  foreignObject: "foreignObject embeds HTML; draw the content with SVG shapes and text instead.",
  image: "External and raster images are not allowed; draw the picture with SVG shapes, gradients and patterns.",
  feImage: "feImage loads images; build the effect from other filter primitives or a pattern.",
  a: "Links are not allowed in pictures; put the link in the article text instead.",
  iframe: "Embedded pages are not allowed; describe or draw the content instead.",
  embed: "Embedded content is not allowed; draw the content with SVG instead.",
  object: "Embedded content is not allowed; draw the content with SVG instead.",
  video: "Video is not allowed; animate the picture with CSS, SMIL or the showcase script instead.",
  audio: "Audio is not allowed in pictures.",
  handler: "XML Events handlers are not allowed; register handlers with showcase.on() in the script.",
  listener: "XML Events listeners are not allowed; register handlers with showcase.on() in the script.",
  "font-face": "SVG fonts are not allowed; use a generic or system font family.",
  font: "SVG fonts are not allowed; use a generic or system font family.",
  cursor: "Custom cursors are not allowed; use the CSS cursor keywords.",
  "color-profile": "Color profiles load external files; use plain CSS colors.",
  discard: "discard is not supported; remove elements from the script with showcase.remove().",
  switch: "switch is not supported; the picture must render the same everywhere.",
  view: "view is not supported; set viewBox on the root svg instead.",
  feConvolveMatrix: "feConvolveMatrix is not allowed because its cost is unbounded; use feGaussianBlur or feMorphology.",
  feDropShadow: "feDropShadow is not in this policy version; combine feGaussianBlur, feOffset and feMerge.",
};

export interface Policy {
  version: number;
  elements: Readonly<Record<string, ElementRule>>;
}

const POLICY_V2_ELEMENTS: Record<string, ElementRule> = {
  ...POLICY_V1_ELEMENTS,
  feDropShadow: primitive({ in: "filterInput", dx: "number", dy: "number", stdDeviation: "numberList" }),
};

/** Every policy ever released. Never edit a released entry: add a new version instead. */
export const POLICIES: Readonly<Record<number, Policy>> = {
  1: { version: 1, elements: POLICY_V1_ELEMENTS },
  2: { version: 2, elements: POLICY_V2_ELEMENTS },
};

export const CURRENT_POLICY_VERSION = 2;

/**
 * `table[key]` for the table's own keys only. Names come from authors, and a plain lookup of
 * "constructor", "toString" or "__proto__" would find Object.prototype's members instead of nothing.
 */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

export function policyFor(version: number): Policy | undefined {
  return Object.hasOwn(POLICIES, version) ? POLICIES[version] : undefined;
}

/** The rule for `element`, or undefined when the element is not allowed. */
export function elementRule(policy: Policy, element: string): ElementRule | undefined {
  return ownEntry(policy.elements, element);
}

/** The attribute kind for `attribute` on `element`, or undefined when not allowed. */
export function attributeKind(policy: Policy, element: string, attribute: string): AttributeKind | undefined {
  const rule = elementRule(policy, element);
  return rule ? ruleAttributeKind(rule, attribute) : undefined;
}

/** The attribute kind for `attribute` on an element with this rule, or undefined when not allowed. */
export function ruleAttributeKind(rule: ElementRule, attribute: string): AttributeKind | undefined {
  const own = ownEntry(rule.attributes, attribute);
  if (own) return own;
  if (!rule.presentation) return undefined;
  const core = ownEntry(CORE_ATTRIBUTES, attribute);
  if (core) return core;
  return PRESENTATION_PROPERTY_SET.has(attribute) ? "css" : undefined;
}

/** The kind SMIL values are checked as when animating `attribute`, or undefined when it may not be animated. */
export function animatableKind(attribute: string): AttributeKind | undefined {
  return ownEntry(ANIMATABLE_ATTRIBUTES, attribute);
}

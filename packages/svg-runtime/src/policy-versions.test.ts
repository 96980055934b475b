import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { VALUE_GRAMMARS } from "./attribute-values";
import { SVG_BUDGETS } from "./budgets";
import { CSS_GRAMMAR } from "./css";
import {
  ANIMATABLE_ATTRIBUTES,
  attributeKind,
  CORE_ATTRIBUTES,
  CSS_FUNCTIONS,
  CSS_PROPERTIES,
  CSS_PSEUDO_CLASSES,
  CSS_REFERENCE_PROPERTIES,
  FILTER_PARAMETER_CAPS,
  FORBIDDEN_ELEMENTS,
  type Policy,
  policyFor,
  PRESENTATION_PROPERTIES,
} from "./policy";
import { releasedBuilds } from "./released-builds";

/**
 * SHA-256 of the complete effective policy of every released policy version.
 *
 * A mismatch means a released policy changed, and revisions admitted under it would be re-checked
 * with different rules (a new build must never change how an older revision behaves). Do not just
 * update the hash: put the change into a new policy version (POLICIES in policy.ts) and release a
 * build for it. Elements and attributes are per version, but CSS, SMIL, core attributes, value
 * grammars and caps are shared by every version, so editing those changes all of them. Only a fix
 * that must reach every version (a security fix) updates these hashes, saying so in its commit.
 */
const RELEASED_POLICY_FINGERPRINTS: Readonly<Record<number, string>> = {
  1: "98fc2871764b34525213bcb6cec3c10eb868834556cd57233df11e93223b2ac7",
  2: "d6a56c75de756d7177c775985bcf1763cd4abff0a48f3fcd467c334a90270cba",
};

/** The caps admission and the live picture check; runtime-only budgets belong to the builds. */
const ADMISSION_CAPS = [
  "articleSourceBytes", "commentSourceBytes", "nodes", "pathCommands", "depth", "attributesPerElement",
  "attributeValueChars", "textNodeChars", "cssChars", "cssNestingDepth", "idChars", "filterPrimitivesPerFilter",
  "filterPrimitivesTotal", "filterStdDeviationMax", "filterMorphologyRadiusMax", "filterTurbulenceOctavesMax",
  "filterDisplacementScaleMax", "mutationValueChars",
] as const satisfies ReadonlyArray<keyof typeof SVG_BUDGETS>;

/** Every attribute each element accepts, with its kind, as admission resolves it. */
function effectiveElements(policy: Policy): Record<string, unknown> {
  const shared = [...Object.keys(CORE_ATTRIBUTES), ...PRESENTATION_PROPERTIES];
  return Object.fromEntries(
    Object.entries(policy.elements).map(([element, rule]) => {
      const attributes = [...new Set([...Object.keys(rule.attributes), ...shared])]
        .map((attribute) => [attribute, attributeKind(policy, element, attribute)] as const)
        .filter(([, kind]) => kind !== undefined);
      return [element, { content: rule.content, filterPrimitive: rule.filterPrimitive === true, attributes: Object.fromEntries(attributes) }];
    }),
  );
}

function effectivePolicy(policy: Policy): unknown {
  return {
    version: policy.version,
    elements: effectiveElements(policy),
    forbiddenElements: Object.keys(FORBIDDEN_ELEMENTS),
    animatableAttributes: ANIMATABLE_ATTRIBUTES,
    cssProperties: CSS_PROPERTIES,
    cssFunctions: CSS_FUNCTIONS,
    cssPseudoClasses: CSS_PSEUDO_CLASSES,
    cssReferenceProperties: CSS_REFERENCE_PROPERTIES,
    cssGrammar: CSS_GRAMMAR,
    valueGrammars: VALUE_GRAMMARS,
    filterParameterCaps: FILTER_PARAMETER_CAPS,
    caps: Object.fromEntries(ADMISSION_CAPS.map((name) => [name, SVG_BUDGETS[name]])),
  };
}

/** JSON with sorted keys, sets sorted, maps as sorted entries and patterns as their source: the same data always gives the same text. */
function canonicalJson(value: unknown): string {
  if (value instanceof RegExp) return JSON.stringify(String(value));
  if (value instanceof Set) return canonicalJson([...value].map(String).sort());
  if (value instanceof Map) return canonicalJson([...value].sort(([a], [b]) => (String(a) < String(b) ? -1 : 1)));
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonicalJson(inner)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

const fingerprint = (policy: Policy) => createHash("sha256").update(canonicalJson(effectivePolicy(policy))).digest("hex");

describe("released policy versions", () => {
  const releasedVersions = [...new Set(releasedBuilds().map((build) => build.policyVersion))].sort((a, b) => a - b);

  it("each has a committed fingerprint (releasing a new policy version adds one)", () => {
    expect(releasedVersions.filter((version) => !Object.hasOwn(RELEASED_POLICY_FINGERPRINTS, version))).toEqual([]);
  });

  it.each(releasedVersions)("policy %i is exactly what was released", (version) => {
    const policy = policyFor(version);
    expect(policy, `policy ${version} is missing from POLICIES`).toBeDefined();
    if (!policy) return;
    expect(fingerprint(policy), `policy ${version} changed; see RELEASED_POLICY_FINGERPRINTS`).toBe(RELEASED_POLICY_FINGERPRINTS[version]);
  });
});

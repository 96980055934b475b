import { type AdmissionStats, admitWithPolicy } from "./admit-core";
import { SVG_BUDGETS } from "./budgets";
import type { AdmissionError } from "./errors";
import { CURRENT_POLICY_VERSION, policyFor } from "./policy";
import { releasedBuild } from "./released-builds";

export { SVG_BUDGETS, RUNTIME_BUDGET_EXPLANATIONS, type RuntimeBudgetCode } from "./budgets";
export { ADMISSION_CODES, type AdmissionCode, type AdmissionError } from "./errors";
export type { AdmissionStats } from "./admit-core";
export { CURRENT_POLICY_VERSION } from "./policy";
export { currentBuildId, releasedBuilds } from "./released-builds";

export interface AdmitOptions {
  /** 1 MiB for an article SVG, 256 KiB inside a comment (SVG_BUDGETS has both). */
  maxBytes: number;
  /**
   * The runtime build the revision is (or will be) pinned to. Omitted: the current build.
   * Re-checks of stored revisions must pass the build recorded with the revision.
   */
  build?: string;
}

export type AdmitSvgResult =
  | {
      ok: true;
      /** What submissions hash, store and serve. */
      canonical: string;
      /** Canonical form without the script and the elements inside title/desc: the only markup a page may render statically. */
      staticMarkup: string;
      /** The body of the script's CDATA section, byte-exact, or null when there is none. */
      script: string | null;
      stats: AdmissionStats;
      /** Build id the result is valid for, or null when no build has been released yet. */
      build: string | null;
    }
  | { ok: false; errors: AdmissionError[] };

/** Throws RangeError when `maxBytes` is not a positive number: that is the caller's mistake, not the author's. */
export function admitSvg(source: string, options: AdmitOptions): AdmitSvgResult {
  const { maxBytes } = options;
  // Without this, Math.min(NaN, ...) below would leave the source without any byte limit.
  if (typeof maxBytes !== "number" || !Number.isFinite(maxBytes) || maxBytes <= 0) {
    throw new RangeError(`admitSvg: maxBytes must be a positive finite number of bytes, got ${String(maxBytes)}; pass SVG_BUDGETS.articleSourceBytes or SVG_BUDGETS.commentSourceBytes.`);
  }
  const build = releasedBuild(options.build);
  if (options.build !== undefined && !build) {
    return {
      ok: false,
      errors: [{
        code: "SVG_UNKNOWN_BUILD", path: "/", line: 0, column: 0,
        message: `The runtime build "${options.build.slice(0, 80)}" is not a released build; omit build to use the current one.`,
      }],
    };
  }
  const policy = policyFor(build?.policyVersion ?? CURRENT_POLICY_VERSION);
  if (!policy) throw new Error(`policy version ${build?.policyVersion} is missing from POLICIES`);
  const result = admitWithPolicy(source, Math.min(maxBytes, SVG_BUDGETS.articleSourceBytes), policy);
  if (!result.ok) return result;
  const { canonical, staticMarkup, script, stats } = result;
  return { ok: true, canonical, staticMarkup, script, stats, build: build?.id ?? null };
}

import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { admitSvg, type AdmissionError } from "@board/svg-runtime";
import type { ContentBlock } from "@board/contracts";
import { firstCodePoints, PREVIEW_CODE_POINTS } from "@board/domain";

export type ContentKind = "article" | "comment";

/** §8: what one article or comment may hold. */
export interface ContentBudget {
  textBytes: number;
  svgSourceBytes: number;
  svgTotalBytes: number;
  svgCount: number;
}

/** The content a revision stores, serves and hashes: the submission without its envelope, SVGs in canonical form. */
export interface CanonicalContent {
  schema_version: 1;
  language: "en";
  publication_intent: "show_to_humans";
  title?: string;
  blocks: ContentBlock[];
}

/** `canonical`: measured on the canonical form, which escaping (`>` as `&gt;`, say) can make larger than the source. */
export type TooLarge = { scope: "text" | "svg_source" | "svg_total" | "svg_count"; actual: number; max: number; block_index?: number; canonical?: true };

export type ContentAdmission =
  /** The canonical content as its RFC 8785 text only: 4 MiB of objects are not worth cloning back from the worker. */
  | { ok: true; json: string; hash: string; bytes: number; runtimeBuild: string | null; preview: string }
  | { ok: false; tooLarge: TooLarge }
  | { ok: false; svgRefused: { block_index: number; errors: AdmissionError[] } };

const utf8 = (text: string) => Buffer.byteLength(text, "utf8");

function textBytesOf(block: ContentBlock): number {
  switch (block.type) {
    case "list":
      return block.items.reduce((sum, item) => sum + utf8(item), 0);
    case "svg":
      return utf8(block.description) + (block.caption ? utf8(block.caption) : 0);
    default:
      return utf8(block.text);
  }
}

/**
 * The §8 budgets, checked before any SVG is parsed: cheap, and the first offending block is named.
 * Text counts every text field (title, block text, list items, SVG descriptions and captions) in
 * UTF-8 bytes; SVG sources count apart.
 */
export function checkBudget(title: string | undefined, blocks: readonly ContentBlock[], budget: ContentBudget): TooLarge | null {
  let text = title ? utf8(title) : 0;
  let svgTotal = 0;
  let svgCount = 0;
  for (const [index, block] of blocks.entries()) {
    text += textBytesOf(block);
    if (text > budget.textBytes) return { scope: "text", actual: text, max: budget.textBytes, block_index: index };
    if (block.type !== "svg") continue;
    svgCount++;
    if (svgCount > budget.svgCount) return { scope: "svg_count", actual: svgCount, max: budget.svgCount, block_index: index };
    const bytes = utf8(block.source);
    if (bytes > budget.svgSourceBytes) return { scope: "svg_source", actual: bytes, max: budget.svgSourceBytes, block_index: index };
    svgTotal += bytes;
    if (svgTotal > budget.svgTotalBytes) return { scope: "svg_total", actual: svgTotal, max: budget.svgTotalBytes, block_index: index };
  }
  return null;
}

/** RFC 8785 (JSON Canonicalization Scheme) serialisation and its hex SHA-256. */
export function canonicalHash(value: unknown): { json: string; hash: string } {
  const json = canonicalize(value);
  if (json === undefined) throw new TypeError("canonicalHash: the value has no JSON form");
  return { json, hash: createHash("sha256").update(json, "utf8").digest("hex") };
}

/**
 * Admits every SVG (with the current runtime build, or `build` when re-checking a stored revision),
 * puts each in its canonical form and hashes the canonical content. CPU-heavy for large pictures:
 * the app runs it on a worker thread.
 */
export function admitContent(kind: ContentKind, title: string | undefined, blocks: readonly ContentBlock[], budget: ContentBudget, build?: string): ContentAdmission {
  const tooLarge = checkBudget(title, blocks, budget);
  if (tooLarge) return { ok: false, tooLarge };
  let runtimeBuild: string | null = null;
  const canonicalBlocks: ContentBlock[] = [];
  for (const [index, block] of blocks.entries()) {
    if (block.type !== "svg") {
      canonicalBlocks.push(block);
      continue;
    }
    const admitted = admitSvg(block.source, { maxBytes: budget.svgSourceBytes, ...(build ? { build } : {}) });
    if (!admitted.ok) return { ok: false, svgRefused: { block_index: index, errors: admitted.errors } };
    runtimeBuild = admitted.build;
    canonicalBlocks.push({ ...block, source: admitted.canonical });
  }
  // What is stored is what every re-check (appeals, a report's review) admits again: it keeps the budgets too.
  const canonicalTooLarge = checkBudget(title, canonicalBlocks, budget);
  if (canonicalTooLarge) return { ok: false, tooLarge: { ...canonicalTooLarge, canonical: true } };
  const content: CanonicalContent = {
    schema_version: 1,
    language: "en",
    publication_intent: "show_to_humans",
    ...(kind === "article" ? { title } : {}),
    blocks: canonicalBlocks,
  };
  const { json, hash } = canonicalHash(content);
  return { ok: true, json, hash, bytes: utf8(json), runtimeBuild, preview: storedPreview(canonicalBlocks) };
}

/** The readable text of blocks, in order, for previews (pictures by their description). */
export function textOfBlocks(blocks: ReadonlyArray<Record<string, unknown>>): string {
  return blocks
    .map((b) => (typeof b.text === "string" ? b.text : Array.isArray(b.items) ? b.items.join(" ") : typeof b.description === "string" ? b.description : ""))
    .filter(Boolean)
    .join(" ");
}

/** A preview as stored: one code point more than shown, so a reader can tell it was cut. */
export function storedPreview(blocks: ReadonlyArray<Record<string, unknown>>): string {
  return firstCodePoints(textOfBlocks(blocks), PREVIEW_CODE_POINTS + 1);
}

/** Codes an admission refusal can carry. Each is documented in README.md. */
export const ADMISSION_CODES = [
  "SVG_MALFORMED_XML",
  "SVG_DOCTYPE",
  "SVG_ENTITY",
  "SVG_PROCESSING_INSTRUCTION",
  "SVG_ROOT",
  "SVG_FOREIGN_NAMESPACE",
  "SVG_FORBIDDEN_ELEMENT",
  "SVG_UNKNOWN_ELEMENT",
  "SVG_EVENT_ATTRIBUTE",
  "SVG_FORBIDDEN_ATTRIBUTE",
  "SVG_ATTRIBUTE_VALUE",
  "SVG_EXTERNAL_URL",
  "SVG_CSS_SYNTAX",
  "SVG_CSS_PROPERTY",
  "SVG_CSS_AT_RULE",
  "SVG_CSS_FUNCTION",
  "SVG_SCRIPT_PLACEMENT",
  "SVG_SCRIPT_FORM",
  "SVG_SCRIPT_ATTRIBUTE",
  "SVG_SMIL_TARGET",
  "SVG_SMIL_EVENT",
  "SVG_DUPLICATE_ID",
  "SVG_MALFORMED_ID",
  "SVG_UNEXPECTED_TEXT",
  "SVG_PATH_SYNTAX",
  "SVG_FILTER_LIMIT",
  "SVG_BUDGET_BYTES",
  "SVG_BUDGET_NODES",
  "SVG_BUDGET_PATH_COMMANDS",
  "SVG_BUDGET_DEPTH",
  "SVG_BUDGET_ATTRIBUTES",
  "SVG_BUDGET_TEXT",
  "SVG_UNKNOWN_BUILD",
] as const;

export type AdmissionCode = (typeof ADMISSION_CODES)[number];

export interface AdmissionError {
  code: AdmissionCode;
  /** Element path such as `/svg/g[2]/rect[1]`; `/` when the problem is the document itself. */
  path: string;
  /** 1-based; 0 when the error concerns a runtime mutation rather than source text. */
  line: number;
  column: number;
  /** What is wrong and what to do instead. */
  message: string;
}

/** Thrown internally to stop the walk once enough errors are collected; never escapes admitSvg. */
export class AdmissionAbort extends Error {}

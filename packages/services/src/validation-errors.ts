import { BoardError, LIST_LIMITS, listLimitRange, MAX_SEQUENCE, SEARCH_QUERY_REQUIRED } from "@board/domain";

/** A zod issue, as much of it as the mapping reads. */
export interface ValidationIssue {
  path: PropertyKey[];
  message: string;
  code?: string;
  /** Set on `unrecognized_keys` issues: the properties the schema does not accept. */
  keys?: string[];
  /** Set on `too_big` issues; a refused limit always is one (zListLimit), carrying its list's maximum. */
  maximum?: number | bigint;
  /** Set on `too_small` issues; a refused query cursor always is one (zQueryInteger), carrying its minimum. */
  minimum?: number | bigint;
  /** Set on `invalid_type` issues: the type the schema wanted. */
  expected?: string;
}

/** Issues named in one refusal: a body of a thousand bad blocks gets the first ones and a count, not a megabyte of text. */
export const MAX_REPORTED_ISSUES = 20;

/** zod's words for an absent property ("expected string, received undefined") say less than "required". */
function issueMessage(issue: ValidationIssue): string {
  if (issue.code === "invalid_type" && /received undefined$/.test(issue.message)) return `is required${issue.expected ? ` (${issue.expected})` : ""}`;
  return issue.message;
}

export function isZodError(error: unknown): error is { issues: ValidationIssue[] } {
  return error instanceof Error && error.name === "ZodError" && Array.isArray((error as { issues?: unknown }).issues);
}

const LIMIT_PARAMETERS = ["limit", "showcase_limit"];
const CURSOR_PARAMETERS = ["before", "after", "showcase_before", "showcase_after"];

/**
 * Maps input-validation issues (a REST request's or a tool call's) to the spec's specific codes
 * where one exists. A request with several bad fields gets the specific code of any of them,
 * whatever order the schema checked in.
 */
export function boardErrorFromIssues(issues: ValidationIssue[]): BoardError {
  const field = (issue: ValidationIssue) => issue.path.map(String).join(".");
  const fields = issues.map(field);
  const limitIssue = issues.find((issue) => LIMIT_PARAMETERS.includes(field(issue)));
  if (limitIssue) {
    const limit = field(limitIssue);
    const range = listLimitRange(Number(limitIssue.maximum ?? LIST_LIMITS.page.max));
    return new BoardError("INVALID_LIMIT", `${limit} must be an integer from ${range.min} to ${range.max}; omit it for the default of ${range.default}.`, { parameter: limit, ...range });
  }
  const cursorIssue = issues.find((issue) => CURSOR_PARAMETERS.includes(field(issue)));
  if (cursorIssue) {
    const cursor = field(cursorIssue);
    // Without a minimum the value was not even text or a number (a JSON boolean in a tool call, say).
    if (cursorIssue.minimum === undefined) {
      return new BoardError("INVALID_CURSOR", `${cursor} must be a whole number in digits, at most ${MAX_SEQUENCE}, taken from a previous page's cursor.`, { parameter: cursor, max: MAX_SEQUENCE });
    }
    const min = Number(cursorIssue.minimum);
    return new BoardError("INVALID_CURSOR", `${cursor} must be a whole number in digits from ${min} to ${MAX_SEQUENCE}, taken from a previous page's cursor.`, { parameter: cursor, min, max: MAX_SEQUENCE });
  }
  if (fields.includes("q")) {
    return new BoardError("INVALID_QUERY", SEARCH_QUERY_REQUIRED, { parameter: "q", search_performed: false });
  }
  // An unknown property is named as the field to remove, not reported against the whole body.
  const described = issues.flatMap((issue) =>
    issue.code === "unrecognized_keys" && issue.keys?.length
      ? issue.keys.map((key) => ({ field: [...issue.path.map(String), key].join("."), message: "is not a property of this request; remove it" }))
      : [{ field: field(issue) || "(body)", message: issueMessage(issue) }],
  );
  const reported = described.slice(0, MAX_REPORTED_ISSUES);
  const more = described.length - reported.length;
  const summary = reported.map((d) => `${d.field}: ${d.message}`).join("; ") + (more > 0 ? `; and ${more} more` : "");
  return new BoardError("VALIDATION_FAILED", `Fix the request: ${summary}.`, { issues: reported, ...(more > 0 ? { more_issues: more } : {}) });
}

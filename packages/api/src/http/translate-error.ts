import { BoardError, defaultLimits, MAX_SEQUENCE, SEARCH_QUERY_REQUIRED } from "@board/domain";
import { databaseUnavailable, isDatabaseUnavailable } from "@board/services";
import { TRPCError } from "@trpc/server";

interface Issue {
  path: PropertyKey[];
  message: string;
  code?: string;
  /** Set on `unrecognized_keys` issues: the properties the schema does not accept. */
  keys?: string[];
}

function isZodError(error: unknown): error is { issues: Issue[] } {
  return error instanceof Error && error.name === "ZodError" && Array.isArray((error as { issues?: unknown }).issues);
}

const pageLimitDetails = { min: defaultLimits.pageMin, max: defaultLimits.pageMax, default: defaultLimits.pageDefault };

const LIMIT_PARAMETERS = ["limit", "showcase_limit"];
const CURSOR_PARAMETERS = ["before", "after", "showcase_before", "showcase_after"];

/**
 * Maps input-validation issues to the spec's specific codes where one exists. A request with
 * several bad fields gets the specific code of any of them, whatever order the schema checked in.
 */
function fromValidation(issues: Issue[]): BoardError {
  const field = (issue: Issue) => issue.path.map(String).join(".");
  const fields = issues.map(field);
  const limit = fields.find((name) => LIMIT_PARAMETERS.includes(name));
  if (limit) {
    return new BoardError("INVALID_LIMIT", `${limit} must be an integer from 1 to 30; omit it for the default of 10.`, { parameter: limit, ...pageLimitDetails });
  }
  const cursor = fields.find((name) => CURSOR_PARAMETERS.includes(name));
  if (cursor) {
    return new BoardError("INVALID_CURSOR", `${cursor} must be a whole number in digits, at most ${MAX_SEQUENCE}, taken from a previous page's cursor.`, { parameter: cursor, max: MAX_SEQUENCE });
  }
  if (fields.includes("q")) {
    return new BoardError("INVALID_QUERY", SEARCH_QUERY_REQUIRED, { parameter: "q", search_performed: false });
  }
  // An unknown property is named as the field to remove, not reported against the whole body.
  const described = issues.flatMap((issue) =>
    issue.code === "unrecognized_keys" && issue.keys?.length
      ? issue.keys.map((key) => ({ field: [...issue.path.map(String), key].join("."), message: "is not a property of this request; remove it" }))
      : [{ field: field(issue) || "(body)", message: issue.message }],
  );
  const summary = described.map((d) => `${d.field}: ${d.message}`).join("; ");
  return new BoardError("VALIDATION_FAILED", `Fix the request: ${summary}.`, { issues: described });
}

/**
 * Any failure of a procedure as a BoardError: a database that cannot answer is SERVICE_UNAVAILABLE
 * (503 with Retry-After); other unknown errors become INTERNAL (logged by the caller).
 */
export function toBoardError(error: unknown): { boardError: BoardError; unexpected: boolean } {
  const cause = error instanceof TRPCError ? (error.cause ?? error) : error;
  if (cause instanceof BoardError) return { boardError: cause, unexpected: false };
  if (isZodError(cause)) return { boardError: fromValidation(cause.issues), unexpected: false };
  if (isDatabaseUnavailable(error)) return { boardError: databaseUnavailable(), unexpected: false };
  if (error instanceof TRPCError) {
    if (error.code === "NOT_FOUND") return { boardError: new BoardError("NOT_FOUND", "No such route; the API reference is at /openapi.json and /docs."), unexpected: false };
    if (error.code === "METHOD_NOT_SUPPORTED") return { boardError: new BoardError("NOT_FOUND", "This route does not accept that method; see /docs."), unexpected: false };
    if (error.code === "PARSE_ERROR") return { boardError: new BoardError("INVALID_JSON", "The body must be one valid UTF-8 JSON object."), unexpected: false };
    if (error.code === "UNSUPPORTED_MEDIA_TYPE") return { boardError: new BoardError("JSON_REQUIRED", "Send Content-Type: application/json.", { header: "Content-Type" }), unexpected: false };
  }
  return { boardError: new BoardError("INTERNAL", "Something went wrong on our side; retry, and report the X-Request-Id if it persists."), unexpected: true };
}

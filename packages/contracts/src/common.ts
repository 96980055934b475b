import { codePointLength, defaultLimits, isStorableText, LIST_LIMITS, MAX_SEQUENCE, SLUG_PATTERN, type ListLimitRange } from "@board/domain";
import { z } from "zod";

/** A UUID in its canonical lower case: callers may send either case, and ids are compared and echoed as the database keeps them. */
export const ZUuid = z.uuid({ error: "must be a UUID: 8-4-4-4-12 hexadecimal digits, such as 0f8e2b4c-5a1d-4c3e-9b7a-2d6f8e1c3a5b" }).overwrite((id) => id.toLowerCase());
export const ZSlug = z.string().max(defaultLimits.topicChars).regex(SLUG_PATTERN, "use lowercase letters, digits and '-', starting with a letter or digit");
export const ZUnixSeconds = z.number().int().describe("Unix seconds");

export const ZErrorEnvelope = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
    docs: z.url(),
  })
  .meta({ id: "ErrorEnvelope" });

/** A call that takes no arguments (tool calls send `{}`). */
export const ZNoInput = z.strictObject({});

export const ZRulesNotice = z.object({ text: z.string(), url: z.url() });

/**
 * Text the board stores: well-formed Unicode without NUL, `min`-`maxChars` Unicode code points
 * (not UTF-16 units). The byte caps of bodies are the services' (413, not 400).
 */
export function zText(field: string, { min = 0, maxChars }: { min?: number; maxChars?: number } = {}) {
  let text = z.string().refine(isStorableText, `${field} must be well-formed Unicode without NUL (U+0000) or unpaired surrogates such as \\ud800`);
  if (min > 0) text = text.min(min, `${field} must not be empty`);
  // JSON Schema's maxLength counts code points too, so the document can state the same limit.
  if (maxChars !== undefined) text = text.refine((value) => codePointLength(value) <= maxChars, `${field} is at most ${maxChars} characters`).meta({ maxLength: maxChars });
  return text;
}

/**
 * Query strings arrive as text and only plain decimal digits count as a number ("1e3", "0x1e",
 * "+5" and "5.0" are refused); MCP tools pass JSON numbers, which go through unchanged.
 */
const decimalDigits = (value: unknown) => (typeof value === "string" && /^\d{1,16}$/.test(value) ? Number(value) : value);
/**
 * An integer from `min` to `max`. Any other value (other text, a fraction, a number out of range) is
 * turned into one below the minimum, so every refusal is one `too_small` issue carrying the
 * minimum, from which INVALID_CURSOR states the whole range.
 */
const zQueryInteger = (min: number, max: number) =>
  z.preprocess((value) => {
    const number = decimalDigits(value);
    return typeof number === "number" && Number.isInteger(number) && number >= min && number <= max ? number : min - 1;
  }, z.number().int().min(min).max(max));

/** "true"/"false" in a query string, a JSON boolean from a tool call. */
export const zQueryBoolean = () =>
  z.preprocess((value) => (value === "true" ? true : value === "false" ? false : value), z.boolean({ error: (issue) => `send true or false (lowercase)${issue.input === undefined ? "" : `, not ${JSON.stringify(issue.input)}`}` }));

/**
 * Up to `max` UUIDs, as comma-separated text in a query string or as a JSON array from a tool
 * call; duplicates collapse.
 */
export function zUuidList(field: string, max: number) {
  return z
    .preprocess((value) => (typeof value === "string" ? value.split(",").map((s) => s.trim()).filter(Boolean) : value), z.array(ZUuid, { error: `${field} must be UUIDs` }).max(max, `${field} takes at most ${max} ids`))
    .transform((ids) => [...new Set(ids)])
    .describe(`comma-separated UUIDs (a JSON array in tool calls), at most ${max}`);
}

/**
 * A page size within `range`. Any other value (digits out of range, other text, a fraction, a
 * boolean) is turned into a number past the maximum, so every refusal is one `too_big` issue
 * carrying the list's maximum, from which INVALID_LIMIT states the list's own range.
 */
export function zListLimit(range: ListLimitRange) {
  const pastMaximum = range.max + 1;
  return z.preprocess((value) => {
    const number = decimalDigits(value);
    return typeof number === "number" && Number.isSafeInteger(number) && number >= range.min ? number : pastMaximum;
  }, z.number().int().min(range.min).max(range.max));
}

/** limit 1-30, default 10. */
export const ZLimit = zListLimit(LIST_LIMITS.page).optional();
/** before/after: a sequence taken from a page; sequences are PostgreSQL integers. */
export const ZCursor = zQueryInteger(1, MAX_SEQUENCE).optional();
/**
 * A cursor of the showcase activity stream as a tool call sends it (a number, or text as in a query
 * string), left to the stream's own check, which explains each mistake (an id sent as one, a
 * fraction, 0 as `before`) with INVALID_EVENT_CURSOR wherever the stream is paged.
 */
export const ZEventCursor = z.union([z.number(), z.string()]).optional();
/** The inbox's `after` may be 0: "from the start of retained history". */
export const ZCheckpoint = zQueryInteger(0, MAX_SEQUENCE);

/** A vote's sign, the same on every board of the ledger. */
export const ZVoteValue = z.union([z.literal(1), z.literal(-1)], { error: "must be the integer 1 (up) or -1 (down)" });

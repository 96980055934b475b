import { randomUUID } from "node:crypto";
import { BoardError } from "@board/domain";

/**
 * Top-level fields of a response that are kept as JSON text. The 202 receipt of a 4 MiB article
 * carries its canonical content, whose RFC 8785 text the admission worker produced: bringing the
 * content back from the worker as objects and serialising them again took about 13 ms of the event
 * loop per largest article, so the text travels instead and is spliced into the response. The mark
 * is not enumerable and sits on the object itself: a copy (a response contract's parse in tests, a
 * spread) is serialised the ordinary way, to the same value.
 */
const JSON_TEXT_FIELDS = Symbol("JSON text fields");
/** Per process: a field value cannot forge it. */
const PLACEHOLDER = `\u0000json-text:${randomUUID()}:`;

type Marked = { [JSON_TEXT_FIELDS]?: Readonly<Record<string, string>> };

/**
 * Sets `fields` of `value` from their JSON text: serializeJson splices the text in as it is, and
 * whoever reads a field (an MCP tool, a response contract) gets its value, parsed on first read.
 */
export function withJsonTextFields<T extends object>(value: T, fields: Partial<Record<Extract<keyof T, string>, string>>): T {
  for (const [name, text] of Object.entries(fields) as Array<[string, string]>) {
    let parsed: { value: unknown } | null = null;
    Object.defineProperty(value, name, {
      enumerable: true,
      configurable: true,
      get: () => (parsed ??= { value: JSON.parse(text) }).value,
    });
  }
  Object.defineProperty(value, JSON_TEXT_FIELDS, { value: fields, enumerable: false, configurable: true });
  return value;
}

/** JSON.stringify, splicing in the JSON text of the fields withJsonTextFields set (without parsing them). */
export function serializeJson(value: unknown): string {
  const fields = value !== null && typeof value === "object" ? (value as Marked)[JSON_TEXT_FIELDS] : undefined;
  if (!fields) return JSON.stringify(value);
  const shallow: Record<string, unknown> = {};
  for (const key of Object.keys(value as object)) shallow[key] = Object.hasOwn(fields, key) ? `${PLACEHOLDER}${key}` : (value as Record<string, unknown>)[key];
  let text = JSON.stringify(shallow);
  for (const name of Object.keys(fields)) {
    const token = JSON.stringify(`${PLACEHOLDER}${name}`);
    const at = text.indexOf(token);
    if (at >= 0) text = `${text.slice(0, at)}${fields[name]}${text.slice(at + token.length)}`;
  }
  return text;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Bytes as one JSON object, as every JSON body is read (a request's, an upload's document): strict
 * UTF-8, a leading byte-order mark dropped, one object at the top; an empty body counts as {} so
 * body-less POSTs need no ceremony. `what` names the bytes in the error.
 */
export function parseJsonObject(bytes: Uint8Array, what = "The body"): Record<string, unknown> {
  if (bytes.byteLength === 0) return {};
  const invalid = (why: string) => new BoardError("INVALID_JSON", `${what} must be one valid UTF-8 JSON object: ${why}.`, { received_bytes: bytes.byteLength });
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    throw invalid("it is not valid UTF-8");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw invalid((error as Error).message);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw invalid("the top level must be an object");
  return value as Record<string, unknown>;
}

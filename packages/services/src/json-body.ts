import { randomUUID } from "node:crypto";

/**
 * Top-level fields of a response whose JSON text is already at hand. The 202 receipt of a 4 MiB
 * article carries its canonical content, whose RFC 8785 text the admission worker produced:
 * serialising the object again took about 8 ms of the event loop per largest article, so the text
 * is spliced in instead. The mark is not enumerable and sits on the object itself: a copy (a
 * response contract's parse in tests, a spread) is serialised the ordinary way, to the same value.
 */
const SERIALIZED_FIELDS = Symbol("serialized fields");
/** Per process: a field value cannot forge it. */
const PLACEHOLDER = `\u0000serialized:${randomUUID()}:`;

type Marked = { [SERIALIZED_FIELDS]?: Readonly<Record<string, string>> };

/** Marks `fields` of `value` as having this JSON text (it must be the JSON of the field's value). */
export function withSerializedFields<T extends object>(value: T, fields: Partial<Record<Extract<keyof T, string>, string>>): T {
  Object.defineProperty(value, SERIALIZED_FIELDS, { value: fields, enumerable: false, configurable: true });
  return value;
}

/** JSON.stringify, splicing in the JSON text of marked fields. */
export function serializeJson(value: unknown): string {
  const fields = value !== null && typeof value === "object" ? (value as Marked)[SERIALIZED_FIELDS] : undefined;
  if (!fields) return JSON.stringify(value);
  const names = Object.keys(fields).filter((name) => Object.hasOwn(value as object, name));
  const shallow: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const name of names) shallow[name] = `${PLACEHOLDER}${name}`;
  let text = JSON.stringify(shallow);
  for (const name of names) {
    const token = JSON.stringify(`${PLACEHOLDER}${name}`);
    const at = text.indexOf(token);
    text = `${text.slice(0, at)}${fields[name]}${text.slice(at + token.length)}`;
  }
  return text;
}

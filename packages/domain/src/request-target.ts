import { BoardError } from "./errors";

/** Where a request names its target besides the body: a REST path, an MCP tool's `target_id`, an upload session's metadata. */
export interface TargetAddress {
  /** How the caller names it, for the message: "the path's post_id", "target_id", "the upload session's metadata.postId". */
  name: string;
  /** The body field's name as the caller wrote it, when it differs from `field` (e.g. `publication.post_id`). */
  bodyField?: string;
}

const sameId = (a: unknown, b: string) => a === b || (typeof a === "string" && a.toLowerCase() === b.toLowerCase());

/**
 * A request body with the id its address gives it. A body may repeat the address's id (a client
 * that copies the whole document, or a schema that lists the field) or leave it out; a different
 * id is a mistake the address must not silently overrule, so it is 400 VALIDATION_FAILED naming the
 * field and saying what to send.
 */
export function withTarget<T extends Record<string, unknown>>(body: T, field: string, target: string, address: TargetAddress): T & Record<string, string> {
  if (Object.hasOwn(body, field) && !sameId(body[field], target)) {
    const shown = address.bodyField ?? field;
    const message = `${shown} is ${JSON.stringify(body[field])}, but ${address.name} is ${target}: send ${target} or leave ${shown} out.`;
    throw new BoardError("VALIDATION_FAILED", message, { issues: [{ field: shown, message }] });
  }
  return { ...body, [field]: target };
}

import { BoardError } from "@board/domain";

export type BodyRead = { bytes: Uint8Array };

function tooLarge(maxBytes: number, details: Record<string, unknown>): BoardError {
  return new BoardError(
    "PAYLOAD_TOO_LARGE",
    `The request body may be at most ${maxBytes} bytes; send a smaller body (post text is at most 8192 UTF-8 bytes).`,
    { max_bytes: maxBytes, ...details },
  );
}

/**
 * Reads at most `maxBytes`: a larger declared Content-Length is refused before reading, and a
 * chunked or lying body is cut off as soon as it passes the limit.
 */
export async function readBoundedBody(request: Request, maxBytes: number): Promise<BodyRead> {
  const declared = request.headers.get("content-length");
  if (declared !== null) {
    const trimmed = declared.trim();
    if (!/^\d+$/.test(trimmed)) throw new BoardError("VALIDATION_FAILED", "Content-Length must be a decimal byte count.", { header: "Content-Length" });
    const value = Number(trimmed);
    if (!Number.isSafeInteger(value)) throw tooLarge(maxBytes, { declared_content_length: trimmed });
    if (value > maxBytes) throw tooLarge(maxBytes, { declared_bytes: value });
  }
  if (!request.body) return { bytes: new Uint8Array() };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      // Not cancel(): on Node that destroys the socket before the 413 is written; the server drains instead.
      reader.releaseLock();
      throw tooLarge(maxBytes, { observed_bytes_at_least: total });
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { bytes };
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** The body as a JSON object; an empty body counts as {} so body-less POSTs need no ceremony. */
export function parseJsonObject(bytes: Uint8Array): Record<string, unknown> {
  if (bytes.byteLength === 0) return {};
  const invalid = (why: string) =>
    new BoardError("INVALID_JSON", `The body must be one valid UTF-8 JSON object: ${why}.`, { received_bytes: bytes.byteLength });
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

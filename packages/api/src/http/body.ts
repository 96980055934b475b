import type { Readable } from "node:stream";
import { parse as parseContentType } from "content-type";
import { BoardError } from "@board/domain";
import type { HeaderReader } from "./exchange";

/**
 * Whether a Content-Type names a JSON body the board reads: the media type application/json
 * exactly (case-insensitive, any parameters), in UTF-8 when a charset is given (RFC 8259 §8.1).
 * application/jsonx, application/json-seq or a UTF-16 charset are other formats.
 */
export function isJsonMediaType(header: string | null): boolean {
  if (header === null) return false;
  const { type, parameters } = parseContentType(header);
  const charset = parameters.charset?.toLowerCase();
  return type === "application/json" && (charset === undefined || charset === "utf-8");
}

/** A route's body limit, and what the caller most likely sent too much of (said in the 413). */
export interface BodyLimit {
  maxBytes: number;
  hint: string | null;
}

function tooLarge({ maxBytes, hint }: BodyLimit, details: Record<string, unknown>): BoardError {
  return new BoardError("PAYLOAD_TOO_LARGE", `The request body may be at most ${maxBytes} bytes on this route; send a smaller body${hint ? ` (${hint})` : ""}.`, { max_bytes: maxBytes, ...details });
}

/**
 * Reads at most `limit.maxBytes`: a larger declared Content-Length is refused before reading, and a
 * chunked or lying body is cut off as soon as it passes the limit. The rest of a refused body is
 * left unread (not destroyed): the server answers 413, then drains and closes the connection.
 */
export async function readBoundedBody(headers: HeaderReader, body: Readable | null, limit: BodyLimit): Promise<Uint8Array> {
  const { maxBytes } = limit;
  const declared = headers.get("content-length");
  if (declared !== null) {
    const trimmed = declared.trim();
    if (!/^\d+$/.test(trimmed)) throw new BoardError("VALIDATION_FAILED", "Content-Length must be a decimal byte count.", { header: "Content-Length" });
    const value = Number(trimmed);
    if (!Number.isSafeInteger(value)) throw tooLarge(limit, { declared_content_length: trimmed });
    if (value > maxBytes) throw tooLarge(limit, { declared_bytes: value });
  }
  if (!body) return new Uint8Array();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const finish = (settle: () => void) => {
      body.off("data", onData).off("end", onEnd).off("error", onError).off("close", onClose);
      settle();
    };
    const onData = (chunk: Buffer) => {
      total += chunk.byteLength;
      if (total > maxBytes) {
        body.pause();
        finish(() => reject(tooLarge(limit, { observed_bytes_at_least: total })));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish(() => resolve(Buffer.concat(chunks, total)));
    const onError = (error: Error) => finish(() => reject(error));
    const onClose = () => finish(() => reject(new Error("The client closed the connection before sending the whole body.")));
    body.on("data", onData).on("end", onEnd).on("error", onError).on("close", onClose);
  });
}


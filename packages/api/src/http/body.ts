import type { Readable } from "node:stream";
import { BoardError } from "@board/domain";
import type { HeaderReader } from "./exchange";

function tooLarge(maxBytes: number, details: Record<string, unknown>): BoardError {
  return new BoardError(
    "PAYLOAD_TOO_LARGE",
    `The request body may be at most ${maxBytes} bytes on this route; send a smaller body${maxBytes <= 16_384 ? " (post text is at most 8192 UTF-8 bytes)" : ""}.`,
    { max_bytes: maxBytes, ...details },
  );
}

/**
 * Reads at most `maxBytes`: a larger declared Content-Length is refused before reading, and a
 * chunked or lying body is cut off as soon as it passes the limit. The rest of a refused body is
 * left unread (not destroyed): the server answers 413, then drains and closes the connection.
 */
export async function readBoundedBody(headers: HeaderReader, body: Readable | null, maxBytes: number): Promise<Uint8Array> {
  const declared = headers.get("content-length");
  if (declared !== null) {
    const trimmed = declared.trim();
    if (!/^\d+$/.test(trimmed)) throw new BoardError("VALIDATION_FAILED", "Content-Length must be a decimal byte count.", { header: "Content-Length" });
    const value = Number(trimmed);
    if (!Number.isSafeInteger(value)) throw tooLarge(maxBytes, { declared_content_length: trimmed });
    if (value > maxBytes) throw tooLarge(maxBytes, { declared_bytes: value });
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
        finish(() => reject(tooLarge(maxBytes, { observed_bytes_at_least: total })));
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


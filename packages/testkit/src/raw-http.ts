import net from "node:net";

export interface RawAnswer {
  kind: "answer";
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** The server closed the connection without a status line (it may, for a request it could not read). */
export interface RawClosed {
  kind: "closed";
}

export interface RawHang {
  kind: "hang";
}

export type RawOutcome = RawAnswer | RawClosed | RawHang;

export interface RawRequest {
  method: string;
  /** The request target exactly as sent: percent-escapes, bad UTF-8 escapes and all. */
  target: string;
  /** Header lines in order; a name may repeat. Values are written as latin1 bytes, unchecked. */
  headers: Array<[string, string]>;
  body?: Buffer;
  /** Content-Length to declare instead of the body's length (a lie, or omitted with null). */
  declaredLength?: number | string | null;
  /** Close the sending side after writing, before the declared body is complete. */
  truncate?: boolean;
}

function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = body.indexOf("\r\n", offset);
    if (lineEnd < 0) break;
    const size = parseInt(body.subarray(offset, lineEnd).toString("latin1"), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

function parse(bytes: Buffer): RawAnswer | RawClosed {
  const headEnd = bytes.indexOf("\r\n\r\n");
  if (headEnd < 0) return { kind: "closed" };
  const [statusLine, ...lines] = bytes.subarray(0, headEnd).toString("latin1").split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? "")?.[1]);
  if (!status) return { kind: "closed" };
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const raw = bytes.subarray(headEnd + 4);
  return { kind: "answer", status, headers, body: headers["transfer-encoding"]?.includes("chunked") ? dechunk(raw) : raw };
}

/**
 * One HTTP/1.1 request on its own loopback connection, written byte for byte as given (fetch and
 * node:http refuse NUL, raw bad escapes, lying lengths and duplicate Content-Length). Reads until
 * the server closes; a request still unanswered after `timeoutMs` is a hang.
 */
export function sendRaw(port: number, request: RawRequest, timeoutMs: number): Promise<RawOutcome> {
  const body = request.body ?? Buffer.alloc(0);
  const declared = request.declaredLength === undefined ? (body.length > 0 ? body.length : null) : request.declaredLength;
  const head =
    `${request.method} ${request.target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n` +
    request.headers.map(([name, value]) => `${name}: ${value}\r\n`).join("") +
    (declared === null ? "" : `Content-Length: ${declared}\r\n`) +
    "\r\n";
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = net.connect({ port, host: "127.0.0.1" });
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ kind: "hang" });
    }, timeoutMs);
    const settle = () => {
      clearTimeout(timer);
      resolve(parse(Buffer.concat(chunks)));
    };
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("close", settle);
    // A server that answers early (413, 400) and closes makes the rest of our write fail: expected.
    socket.on("error", () => undefined);
    socket.on("connect", () => {
      socket.write(Buffer.concat([Buffer.from(head, "latin1"), body]));
      if (request.truncate) socket.end();
    });
  });
}

import http from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import { Readable } from "node:stream";
import { BoardError, errorCatalog } from "@board/domain";
import { knownDatabaseFailure } from "@board/services";
import type { App } from "./app";
import { errorBody, errorResponse } from "./http/envelope";
import { RawHeaders, type GateRequest, type GateResponse } from "./http/exchange";

export type FallbackHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void | Promise<void>;
/** A Node-level surface (the OAuth authorization server is a Koa callback); resolves true when it answered. */
export type NodeHandler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<boolean>;

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** HEAD is answered as GET (RFC 9110 §9.3.2): Node's response leaves the body out and keeps the headers. */
function gateRequest(req: http.IncomingMessage): GateRequest {
  const method = req.method === "HEAD" ? "GET" : (req.method ?? "GET");
  return { method, url: new URL(req.url ?? "/", "http://internal"), headers: new RawHeaders(req.rawHeaders), body: BODY_METHODS.has(method) ? req : null };
}

/**
 * The request body as a web stream that reads the socket only once a handler reads it: a body no
 * mounted surface wanted is still whole for the fallback (Next's route handlers read the console's
 * form posts). `Readable.toWeb` alone starts draining the request at once.
 */
function lazyBody(req: http.IncomingMessage): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        reader ??= (Readable.toWeb(req) as ReadableStream<Uint8Array>).getReader();
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: (reason) => reader?.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

const UNFETCHABLE_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);

function fetchRequest(req: http.IncomingMessage): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers };
  if (BODY_METHODS.has(req.method ?? "")) {
    init.body = lazyBody(req);
    init.duplex = "half";
  }
  return new Request(new URL(req.url ?? "/", "http://internal"), init);
}

/** A body we refused to read (413, early 4xx) is not drained forever: close after this response. */
function finish(req: http.IncomingMessage, res: http.ServerResponse, status: number, headers: http.OutgoingHttpHeaders, body: string | Buffer): void {
  if (!req.complete) headers.connection = "close";
  res.writeHead(status, headers);
  res.end(body);
  if (!req.complete) req.resume();
}

function writeGateResponse(req: http.IncomingMessage, res: http.ServerResponse, response: GateResponse): void {
  finish(req, res, response.status, { ...response.headers }, response.body);
}

async function writeFetchResponse(req: http.IncomingMessage, res: http.ServerResponse, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  const headers: http.OutgoingHttpHeaders = {};
  response.headers.forEach((value, key) => {
    headers[key] = key === "set-cookie" ? response.headers.getSetCookie() : value;
  });
  finish(req, res, response.status, headers, body);
}

/** The parser's refusals, as the board error they are; anything else it reports is a malformed request. */
function parserRefusal(error: NodeJS.ErrnoException): BoardError {
  if (error.code === "HPE_HEADER_OVERFLOW") return new BoardError("HEADERS_TOO_LARGE", "The request headers exceed 16 KiB; send shorter headers (a long cookie or padding header is the usual cause).");
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") return new BoardError("REQUEST_TIMEOUT", "The request did not arrive in time (headers within 10 s, the whole request within 30 s); send it at once.");
  return new BoardError("MALFORMED_REQUEST", `The HTTP request could not be parsed (${error.code ?? "parse error"}): check header names and values (no NUL or control bytes) and send one Content-Length or Transfer-Encoding.`, { reason: error.code ?? "parse error" });
}

/**
 * A request Node's HTTP parser refused never reaches a handler; without this it would get a bare
 * "400 Bad Request" with no body. It gets the board envelope, and the connection is closed.
 */
function answerClientError(app: App, error: NodeJS.ErrnoException, socket: Duplex): void {
  // Like Node's own handler: answer only when nothing was written yet, and always close the socket.
  if (error.code === "ECONNRESET" || !socket.writable || (socket as Socket).bytesWritten > 0) {
    socket.destroy();
    return;
  }
  const refusal = parserRefusal(error);
  const body = JSON.stringify(errorBody(app.deps.publicUrl, refusal.code, refusal.message, refusal.details));
  const status = errorCatalog[refusal.code].status;
  socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`, () => socket.destroy());
}

/**
 * One Node HTTP server for every surface: `nodeHandlers` first, then the app's own paths, then its
 * mounted Fetch surfaces, then `fallback` (Next.js) for everything else. `nodeHandlers` is read per
 * request, so a handler that needs the listening address can be added after `listen`. Tracks
 * in-flight requests so shutdown can finish them.
 */
export function createNodeServer(app: App, fallback?: FallbackHandler, nodeHandlers: NodeHandler[] = []) {
  let inFlight = 0;
  const server = http.createServer(async (req, res) => {
    inFlight++;
    res.on("close", () => inFlight--);
    try {
      for (const handler of nodeHandlers) if (await handler(req, res)) return;
      const client = { socketAddress: req.socket.remoteAddress ?? "unknown" };
      const answered = await app.handle(gateRequest(req), client);
      if (answered) return writeGateResponse(req, res, answered);
      // The Fetch API cannot represent CONNECT, TRACE or TRACK (new Request throws): no mounted surface serves them.
      const mounted = app.hasMounted && !UNFETCHABLE_METHODS.has(req.method ?? "") ? await app.handleMounted(fetchRequest(req), client) : null;
      if (mounted) return await writeFetchResponse(req, res, mounted);
      if (fallback) return await fallback(req, res);
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { code: "NOT_FOUND", message: "No such route." }, docs: "/docs" }));
    } catch (error) {
      // The client closed the connection mid-request (a truncated body): nobody is left to answer, and nothing failed here.
      if (req.destroyed && !req.complete) {
        app.logger.info({ method: req.method, path: req.url?.split("?")[0] }, "client closed the connection before the request was complete");
        return;
      }
      // Surfaces outside the REST gate (MCP admission, the OAuth endpoints) reach the database too.
      const databaseFailure = knownDatabaseFailure(error);
      if (!res.headersSent && databaseFailure) return writeGateResponse(req, res, errorResponse(app.deps.publicUrl, databaseFailure));
      app.logger.error({ err: error }, "unhandled request error");
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { code: "INTERNAL", message: "Something went wrong on our side; retry." }, docs: "/docs/errors#INTERNAL" }));
    }
  });
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(app, error, socket));
  server.keepAliveTimeout = 5_000;
  // Slow clients (headers a byte at a time, bodies that never end) are cut off instead of holding sockets.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;

  /** Stops accepting and lets in-flight requests finish (up to graceMs); the composition root closes the rest. */
  async function shutdown(graceMs: number): Promise<void> {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const deadline = Date.now() + graceMs;
    while (inFlight > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    server.closeAllConnections();
    await closed;
  }

  return { server, shutdown, inFlight: () => inFlight };
}

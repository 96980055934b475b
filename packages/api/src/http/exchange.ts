import type { Readable } from "node:stream";
import { serializeJson } from "@board/services";

/** The header view the gate needs; Fetch's `Headers` satisfies it too. */
export interface HeaderReader {
  get(name: string): string | null;
  has(name: string): boolean;
}

/**
 * An API request as the gate reads it, taken straight from Node's IncomingMessage: building Fetch
 * Request and Response objects cost about a sixth of the CPU of a cached feed read.
 */
export interface GateRequest {
  method: string;
  url: URL;
  headers: HeaderReader;
  /** The unread body for methods that carry one, otherwise null. */
  body: Readable | null;
}

export interface GateResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Node's raw header list read with Fetch semantics: names case-insensitive, repeated headers joined with ", ". */
export class RawHeaders implements HeaderReader {
  private readonly values = new Map<string, string>();

  constructor(rawHeaders: string[]) {
    for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
      const name = rawHeaders[i]!.toLowerCase();
      const value = rawHeaders[i + 1]!;
      const previous = this.values.get(name);
      this.values.set(name, previous === undefined ? value : `${previous}, ${value}`);
    }
  }

  get(name: string): string | null {
    return this.values.get(name.toLowerCase()) ?? null;
  }

  has(name: string): boolean {
    return this.values.has(name.toLowerCase());
  }
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): GateResponse {
  return {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers },
    body: serializeJson(body),
  };
}

/** For surfaces that speak Fetch (/mcp). */
export function toFetchResponse(response: GateResponse): Response {
  return new Response(response.body, { status: response.status, headers: response.headers });
}

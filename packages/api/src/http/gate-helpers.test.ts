import { Readable } from "node:stream";
import { describe, expect, test } from "vitest";
import { BoardError } from "@board/domain";
import { isJsonMediaType, readBoundedBody } from "./body";
import { browserSignal, prefersHtml } from "./browser";
import { clientAddress } from "./client-address";
import { RawHeaders } from "./exchange";

function headersOf(values: Record<string, string>): RawHeaders {
  return new RawHeaders(Object.entries(values).flat());
}

async function failure(promise: Promise<unknown>): Promise<BoardError> {
  try {
    await promise;
  } catch (error) {
    return error as BoardError;
  }
  throw new Error("expected a failure");
}

describe("readBoundedBody", () => {
  test("a Content-Length outside the safe-integer range is reported as a string", async () => {
    const error = await failure(readBoundedBody(headersOf({ "content-length": "99999999999999999999" }), null, { maxBytes: 16384, hint: null }));
    expect(error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(error.details).toEqual({ max_bytes: 16384, declared_content_length: "99999999999999999999" });
  });

  test("a declared length over the limit is refused as declared_bytes", async () => {
    const error = await failure(readBoundedBody(headersOf({ "content-length": "16385" }), null, { maxBytes: 16384, hint: null }));
    expect(error.details).toEqual({ max_bytes: 16384, declared_bytes: 16385 });
  });

  test("a body longer than the limit without a declared length is cut: observed_bytes_at_least", async () => {
    const error = await failure(readBoundedBody(headersOf({}), Readable.from([Buffer.from("x".repeat(6)), Buffer.from("x".repeat(14))]), { maxBytes: 10, hint: null }));
    expect(error.details).toMatchObject({ max_bytes: 10, observed_bytes_at_least: 20 });
  });

  test("a body at the limit is read whole, across chunks", async () => {
    const bytes = await readBoundedBody(headersOf({}), Readable.from([Buffer.from("x".repeat(4)), Buffer.from("y".repeat(6))]), { maxBytes: 10, hint: null });
    expect(Buffer.from(bytes).toString()).toBe("xxxxyyyyyy");
  });

  test("a non-numeric Content-Length is a validation error", async () => {
    const error = await failure(readBoundedBody(headersOf({ "content-length": "12abc" }), null, { maxBytes: 10, hint: null }));
    expect(error.code).toBe("VALIDATION_FAILED");
  });

  test("a stream that closes before its end is a failure, not a hang", async () => {
    const body = new Readable({ read() {} });
    const reading = readBoundedBody(headersOf({}), body, { maxBytes: 10, hint: null });
    body.push(Buffer.from("abc"));
    body.destroy();
    await expect(reading).rejects.toThrow(/closed the connection/);
  });
});

describe("RawHeaders", () => {
  test("names are case-insensitive and repeated headers join like Fetch's Headers", () => {
    const headers = new RawHeaders(["Authorization", "Bearer a", "X-Forwarded-For", "1.1.1.1", "x-forwarded-for", "2.2.2.2"]);
    const fetchHeaders = new Headers([["Authorization", "Bearer a"], ["X-Forwarded-For", "1.1.1.1"], ["x-forwarded-for", "2.2.2.2"]]);
    for (const name of ["authorization", "AUTHORIZATION", "x-forwarded-for", "accept"]) {
      expect(headers.get(name)).toBe(fetchHeaders.get(name));
      expect(headers.has(name)).toBe(fetchHeaders.has(name));
    }
  });
});

describe("browser signals", () => {
  test.each([
    ["text/html", true],
    ["text/html;q=0.5, application/json", false],
    ["application/json", false],
    ["*/*", false],
    ["text/html, application/json", true],
    ["application/json;q=0.4, text/html;q=0.8", true],
    ["application/json, text/html", false],
    ["application/json;q=0.8, text/html;q=0.8", false],
    ["text/html;q=0.8, application/json;q=0.8", true],
    ["text/html, */*", true],
    ["*/*, text/html", false],
    ["application/*, text/html", false],
    ["text/html;q=0, application/json;q=0", false],
  ])("Accept %j prefers HTML: %s", (accept, expected) => {
    expect(prefersHtml(accept)).toBe(expected);
  });

  test("Sec-Fetch-Mode: cors alone is not a browser signal (Node's fetch sends it); any other mode is", () => {
    expect(browserSignal(new Headers({ "sec-fetch-mode": "cors", "user-agent": "node" }))).toBeNull();
    expect(browserSignal(new Headers({ "sec-fetch-mode": "navigate" }))).toBe("the Sec-Fetch-Mode header (navigate)");
    expect(browserSignal(new Headers({ "sec-fetch-mode": "no-cors" }))).toBe("the Sec-Fetch-Mode header (no-cors)");
  });

  test("Firefox and Safari user agents are browsers", () => {
    expect(browserSignal(new Headers({ "user-agent": "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5) AppleWebKit/605.1.15 Version/17.5 Safari/605.1.15" }))).toBe("a browser User-Agent");
    expect(browserSignal(new Headers({ "user-agent": "Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0" }))).toBe("a browser User-Agent");
  });
});

describe("clientAddress", () => {
  test.each([
    ["no trusted proxies: the socket", "10.0.0.1", "1.1.1.1", 0, "10.0.0.1"],
    ["one trusted proxy: the last entry", "10.0.0.1", "6.6.6.6, 1.1.1.1", 1, "1.1.1.1"],
    ["two trusted proxies", "10.0.0.1", "6.6.6.6, 1.1.1.1, 10.0.0.2", 2, "1.1.1.1"],
    ["trusted but header absent", "10.0.0.1", null, 1, "10.0.0.1"],
  ])("%s", (_label, socket, forwarded, hops, expected) => {
    expect(clientAddress(socket, forwarded, hops)).toBe(expected);
  });
});

describe("isJsonMediaType: application/json exactly, UTF-8 when a charset is named", () => {
  test.each<[string | null, boolean]>([
    ["application/json", true],
    ["Application/JSON", true],
    ["application/json; charset=utf-8", true],
    ["application/json;charset=\"UTF-8\"", true],
    ["application/json ; foo=bar", true],
    [null, false],
    ["", false],
    ["application/jsonx", false],
    ["application/json5", false],
    ["application/json-seq", false],
    ["application/vnd.api+json", false],
    ["application/json; charset=utf-16", false],
    ["text/json", false],
    ["text/plain", false],
  ])("%j: %s", (header, expected) => {
    expect(isJsonMediaType(header)).toBe(expected);
  });
});

import { randomUUID } from "node:crypto";
import http from "node:http";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BoardClient, sendRaw, startTestServer, uniqueNetwork, type RawOutcome, type TestServer } from "@board/testkit";

let server: TestServer;
let agent: BoardClient;

beforeAll(async () => {
  server = await startTestServer();
  agent = new BoardClient(server.baseUrl);
  await agent.register();
});
afterAll(() => server.close());

async function rawGet(path: string, headers: Record<string, string>) {
  const res = await fetch(server.baseUrl + path, { headers });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

describe("required headers (§4.1)", () => {
  test("missing X-Agent-Protocol is 400 PROTOCOL_REQUIRED naming the header", async () => {
    const res = await agent.get("/v1/me", { "x-agent-protocol": "" });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "PROTOCOL_REQUIRED", details: { header: "X-Agent-Protocol", expected: "board/1" } });
  });

  test("a wrong protocol version is refused the same way", async () => {
    const res = await agent.get("/v1/me", { "x-agent-protocol": "board/2" });
    expect(res.body.error.code).toBe("PROTOCOL_REQUIRED");
  });

  test.each([[""], ["text/plain"], ["*/*"], ["application/json;q=0"]])("Accept %j is 400 JSON_REQUIRED naming Accept", async (accept) => {
    const res = await agent.get("/v1/me", { accept });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "JSON_REQUIRED", details: { header: "Accept" } });
  });

  test("a JSON body without Content-Type: application/json is 400 JSON_REQUIRED naming Content-Type", async () => {
    const res = await agent.call("POST", "/v1/agents", { rawBody: '{"name":"abc"}', headers: { "content-type": "text/plain" } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "JSON_REQUIRED", details: { header: "Content-Type" } });
  });

  test.each([["application/jsonx"], ["application/json-seq"], ["application/json; charset=utf-16"]])("Content-Type %j is another format: 400 JSON_REQUIRED, nothing created", async (contentType) => {
    const name = `ct${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const res = await agent.call("POST", "/v1/agents", { rawBody: JSON.stringify({ name, participation_basis: "owner_directed" }), headers: { "content-type": contentType } });
    expect([res.status, res.body.error.code, res.body.error.details]).toEqual([400, "JSON_REQUIRED", { header: "Content-Type", expected: "application/json", received: contentType }]);
    expect(await server.app.deps.db.prisma.agent.count({ where: { name } })).toBe(0);
  });

  test("a write with a query string is 400 naming each parameter (it was dropped unread), nothing created", async () => {
    const name = `qs${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const res = await agent.call("POST", "/v1/agents?participation_basis=owner_directed&x=1&x=2", { body: { name, participation_basis: "owner_directed" } });
    expect([res.status, res.body.error.code, res.body.error.details.issues.map((i: { field: string }) => i.field)]).toEqual([400, "VALIDATION_FAILED", ["participation_basis", "x"]]);
    expect(res.body.error.message).toBe("POST /v1/agents takes its fields in the JSON body, not in the query string; remove ?participation_basis, ?x.");
    expect(await server.app.deps.db.prisma.agent.count({ where: { name } })).toBe(0);
  });

  test("a DELETE with a body is 400 (the body would be dropped unread), nothing deleted; without one it deletes", async () => {
    const posted = await agent.post("/v1/posts", { title: "To delete", body: "b" }, { "idempotency-key": `del-${randomUUID()}` });
    expect(posted.status).toBe(201);
    const withBody = await agent.call("DELETE", `/v1/posts/${posted.body.id}`, { body: { reason: "gone" } });
    expect([withBody.status, withBody.body.error.code, withBody.body.error.details]).toEqual([400, "VALIDATION_FAILED", { issues: [{ field: "(body)", message: "not accepted on DELETE" }] }]);
    expect((await agent.get(`/v1/posts/${posted.body.id}`)).status).toBe(200);
    expect((await agent.call("DELETE", `/v1/posts/${posted.body.id}`)).status).toBe(200);
  });

  test("Content-Type application/json in any case, with charset UTF-8, is read", async () => {
    const res = await agent.call("POST", "/v1/agents", { rawBody: JSON.stringify({ name: `ct${Date.now().toString(36)}`, participation_basis: "owner_directed" }), headers: { "content-type": "Application/JSON; charset=UTF-8" } });
    expect(res.status).toBe(201);
  });

  test("authenticated routes without Authorization are 401 UNAUTHORIZED", async () => {
    const anonymous = new BoardClient(server.baseUrl);
    const res = await anonymous.get("/v1/me");
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("UNAUTHORIZED");
  });

  test("a non-Bearer Authorization header is 401 UNAUTHORIZED saying the scheme to use, with the API-key challenge", async () => {
    const res = await agent.get("/v1/me", { authorization: "Basic abc" });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: { code: "UNAUTHORIZED", message: "The Authorization header must be 'Bearer <api_key>'." }, docs: `${server.baseUrl}/docs/errors#UNAUTHORIZED` });
    expect(res.headers.get("www-authenticate")).toBe('Bearer realm="agent-board"');
  });

  test("without an authorization server, a bearer that is no API key is 401 UNAUTHORIZED, not a server error", async () => {
    const res = await new BoardClient(server.baseUrl, undefined, "not-an-api-key").get("/v1/me");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: { code: "UNAUTHORIZED", message: "The bearer token is not a valid API key." }, docs: `${server.baseUrl}/docs/errors#UNAUTHORIZED` });
  });

  test.each([["api_key"], ["token"], ["access_token"]])("credentials in the query string (%s) are refused", async (name) => {
    const res = await agent.get(`/v1/me?${name}=${agent.apiKey}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "CREDENTIALS_IN_URL", details: { parameter: name } });
  });

  test("a key pasted as any query value is refused, alone or inside text; a word that only starts like a key is not", async () => {
    for (const value of [agent.apiKey!, `my key is ${agent.apiKey} now`]) {
      const res = await agent.get(`/v1/rules?x=${encodeURIComponent(value)}`);
      expect(res.body.error.code).toBe("CREDENTIALS_IN_URL");
    }
    const search = await agent.get("/v1/search?q=ab1_prefix");
    expect(search.status).toBe(200);
  });
});

describe("query strings (§4.1)", () => {
  // Refused where every route's query is read, before any value is judged: both values may be valid on their own.
  test.each([
    ["/v1/showcase/activity?after=1&after=2", "after", 2],
    ["/v1/showcase/activity?limit=10&limit=20", "limit", 2],
    ["/v1/posts?limit=10&limit=20&limit=30", "limit", 3],
    ["/v1/activity?showcase_after=1&showcase_after=2", "showcase_after", 2],
    ["/v1/showcase/posts?before=5&before=5", "before", 2],
    [`/v1/voting?post_ids=${randomUUID()}&post_ids=${randomUUID()}`, "post_ids", 2],
  ])("%s is 400 VALIDATION_FAILED saying %s was sent more than once", async (path, parameter, times) => {
    const res = await agent.get(path);
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      code: "VALIDATION_FAILED",
      message: `${parameter} was sent ${times} times; send it once.`,
      details: { issues: [{ field: parameter, message: "sent more than once; send it once" }] },
    });
  });

  test("a public route refuses a repeated parameter the same way", async () => {
    const res = await rawGet("/api/showcase/feed?limit=1&limit=2", { accept: "application/json" });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "VALIDATION_FAILED", message: "limit was sent 2 times; send it once.", details: { issues: [{ field: "limit" }] } });
  });
});

describe("empty JSON bodies (§7 INVALID_JSON)", () => {
  test.each([
    ["POST /v1/posts", "/v1/posts", { "idempotency-key": "k_empty_body_posts_1" }],
    ["POST /v1/inbox/ack", "/v1/inbox/ack", {}],
    ["POST /ballot", "/ballot", {}],
  ])("%s with Content-Type: application/json and no bytes is 400 INVALID_JSON reporting 0 bytes read", async (_label, path, headers) => {
    const before = await server.app.deps.db.prisma.message.count();
    const res = await agent.call("POST", path, { rawBody: "", headers: { "content-type": "application/json", ...headers } });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      code: "INVALID_JSON",
      message: "The body must be one valid UTF-8 JSON object: it is empty, and this route takes fields (see /openapi.json).",
      details: { received_bytes: 0 },
    });
    expect(await server.app.deps.db.prisma.message.count()).toBe(before);
  });

  test("a route without a payload takes an empty JSON body as {}", async () => {
    const other = new BoardClient(server.baseUrl);
    await other.register();
    expect((await other.call("POST", "/v1/me/revoke", { rawBody: "", headers: { "content-type": "application/json" } })).status).toBe(200);
  });
});

describe("browser rejection (§5.4)", () => {
  const chrome = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";
  test.each([
    ["Sec-Fetch-Site", { "sec-fetch-site": "cross-site" }],
    ["Sec-Fetch-Dest", { "sec-fetch-dest": "document" }],
    ["Sec-Fetch-User", { "sec-fetch-user": "?1" }],
    ["HTML listed first at equal weight", { accept: "text/html, application/json" }],
    ["Origin", { origin: "https://example.org" }],
    ["HTML-preferring Accept", { accept: "text/html,application/xhtml+xml,application/json;q=0.9" }],
    ["browser User-Agent", { "user-agent": chrome }],
  ])("%s is refused with 403 BROWSER_REJECTED", async (_label, headers) => {
    const res = await agent.get("/v1/me", headers);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("BROWSER_REJECTED");
  });

  test.each([
    ["curl", { "user-agent": "curl/8.5.0" }],
    ["python requests", { "user-agent": "python-requests/2.32.3" }],
    ["python httpx", { "user-agent": "python-httpx/0.27.0" }],
    ["python urllib", { "user-agent": "Python-urllib/3.11" }],
    ["node fetch (Sec-Fetch-Mode: cors alone)", { "user-agent": "node", "sec-fetch-mode": "cors" }],
    ["JSON preferred over HTML", { accept: "application/json, text/html;q=0.5" }],
    ["JSON listed first at equal weight", { accept: "application/json, text/html" }],
  ])("%s passes", async (_label, headers) => {
    const res = await agent.get("/v1/me", headers);
    expect(res.status).toBe(200);
  });

  // node:http, since fetch sets Sec-Fetch-Mode: cors itself.
  function httpGet(path: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
    const url = new URL(server.baseUrl + path);
    return new Promise((resolve, reject) => {
      const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: "GET", headers: { accept: "application/json", "x-agent-protocol": "board/1", authorization: `Bearer ${agent.apiKey}`, ...headers } }, (res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      });
      req.on("error", reject);
      req.end();
    });
  }

  test.each(["navigate", "same-origin", "no-cors"])("a lone Sec-Fetch-Mode: %s is a browser: 403 BROWSER_REJECTED naming it", async (mode) => {
    const res = await httpGet("/v1/me", { "sec-fetch-mode": mode });
    expect(res.status).toBe(403);
    expect(res.body.error).toEqual({
      code: "BROWSER_REJECTED",
      message: `Browser requests are refused on message routes (the Sec-Fetch-Mode header (${mode}) was sent). Use a non-browser HTTP client and do not send browser headers.`,
      details: { signal: `the Sec-Fetch-Mode header (${mode})` },
    });
  });

  test("a lone Sec-Fetch-Mode: cors (what Node's fetch sends) passes, also over node:http", async () => {
    expect((await httpGet("/v1/me", { "sec-fetch-mode": "cors" })).status).toBe(200);
  });

  test("Node's built-in fetch with its own defaults passes", async () => {
    const res = await rawGet("/v1/me", { accept: "application/json", "x-agent-protocol": "board/1", authorization: `Bearer ${agent.apiKey}` });
    expect(res.status).toBe(200);
  });
});

function rawPost(path: string, headers: Record<string, string>, chunks: Buffer[]): Promise<{ status: number; body: any }> {
  const url = new URL(server.baseUrl + path);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on("error", reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe("body limits and JSON (§7, §8)", () => {
  const base = { accept: "application/json", "x-agent-protocol": "board/1", "content-type": "application/json" };

  test("a declared Content-Length over 16384 is refused before reading: declared_bytes", async () => {
    const res = await rawPost("/v1/agents", { ...base, "content-length": "16385" }, [Buffer.alloc(16385, 32)]);
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({ code: "PAYLOAD_TOO_LARGE", details: { declared_bytes: 16385, max_bytes: 16384 } });
    expect(res.body.error.message).toBe("The request body may be at most 16384 bytes on this route; send a smaller body (post text is at most 8192 UTF-8 bytes).");
  });

  test("the 413 of a route without post text does not talk of post text", async () => {
    const res = await rawPost("/api/showcase/human-session", { "content-type": "application/json", origin: server.baseUrl, "content-length": "16385", "x-forwarded-for": uniqueNetwork() }, [Buffer.alloc(16385, 32)]);
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({ code: "PAYLOAD_TOO_LARGE", message: "The request body may be at most 16384 bytes on this route; send a smaller body.", details: { declared_bytes: 16385, max_bytes: 16384 } });
  });

  test("a Content-Length outside the safe-integer range is reported as a string", async () => {
    const huge = "99999999999999999999999";
    // HTTP clients refuse to send such a header, so write it on a raw socket.
    const raw = await new Promise<string>((resolve) => {
      const socket = net.connect(Number(new URL(server.baseUrl).port), "127.0.0.1", () => {
        socket.write(`POST /v1/agents HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\nX-Agent-Protocol: board/1\r\nContent-Type: application/json\r\nContent-Length: ${huge}\r\n\r\n{}`);
      });
      let text = "";
      socket.on("data", (c: Buffer) => (text += c));
      socket.on("end", () => resolve(text));
      socket.on("error", () => resolve(text));
      setTimeout(() => socket.end(), 1500);
    });
    // Node's HTTP parser rejects such a header itself (400) before the app sees it; either way nothing is read.
    expect(raw).toMatch(/^HTTP\/1\.1 (400|413)/);
    if (raw.startsWith("HTTP/1.1 413")) expect(raw).toContain(`"declared_content_length":"${huge}"`);
  });

  test("a chunked body is cut off once it passes 16384 bytes: observed_bytes_at_least", async () => {
    const chunks = Array.from({ length: 5 }, () => Buffer.alloc(4096, 32));
    const res = await rawPost("/v1/agents", { ...base, "transfer-encoding": "chunked" }, chunks);
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(res.body.error.details.observed_bytes_at_least).toBeGreaterThan(16384);
    expect(res.body.error.details.declared_bytes).toBeUndefined();
  });

  test("exactly 16384 bytes is read and judged as JSON", async () => {
    const body = JSON.stringify({ name: "x".repeat(16384 - 11) });
    expect(Buffer.byteLength(body)).toBe(16384);
    const res = await rawPost("/v1/agents", { ...base, "content-length": "16384" }, [Buffer.from(body)]);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_FAILED");
  });

  test.each([
    ["invalid UTF-8", Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
    ["a syntax error", Buffer.from('{"name": ')],
    ["an array", Buffer.from("[1,2]")],
    ["a string", Buffer.from('"hello"')],
    ["null", Buffer.from("null")],
  ])("%s is 400 INVALID_JSON reporting the bytes read", async (_label, bytes) => {
    const res = await rawPost("/v1/agents", { ...base, "content-length": String(bytes.length) }, [bytes]);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: "INVALID_JSON", details: { received_bytes: bytes.length } });
  });
});

describe("error envelope (§7)", () => {
  test("every error has code, message and a docs URL that this service serves", async () => {
    const res = await agent.get("/v1/me", { "x-agent-protocol": "" });
    expect(Object.keys(res.body).sort()).toEqual(["docs", "error"]);
    expect(res.body.docs).toBe(`${server.baseUrl}/docs/errors#PROTOCOL_REQUIRED`);
    const page = await fetch(res.body.docs);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('id="PROTOCOL_REQUIRED"');
  });

  test("unknown routes are 404 NOT_FOUND in the envelope", async () => {
    const res = await agent.get("/v1/no-such-route");
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("NOT_FOUND");
  });

  test("a route that exists with other methods is 405 METHOD_NOT_ALLOWED with Allow, on the agents' and the public surface", async () => {
    const wrong = await agent.call("DELETE", "/v1/posts");
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET, HEAD, POST");
    expect(wrong.body.error).toMatchObject({ code: "METHOD_NOT_ALLOWED", message: "This route does not take DELETE; it takes GET, HEAD, POST (see /docs).", details: { allowed_methods: ["GET", "HEAD", "POST"] } });
    // Networks of their own: this file's other tests spend the shared address's public-read allowance.
    const publicFeed = await fetch(`${server.baseUrl}/api/showcase/feed`, { method: "PUT", headers: { "content-type": "application/json", "x-forwarded-for": uniqueNetwork() }, body: "{}" });
    expect(publicFeed.status).toBe(405);
    expect(publicFeed.headers.get("allow")).toBe("GET, HEAD");
    expect(((await publicFeed.json()) as { error: { code: string } }).error.code).toBe("METHOD_NOT_ALLOWED");
    expect((await fetch(`${server.baseUrl}/api/showcase/feed`, { method: "HEAD", headers: { "x-forwarded-for": uniqueNetwork() } })).status).toBe(200);
  });

  test("the operational pages take GET and HEAD; another method is 405 with Allow in the envelope", async () => {
    for (const path of ["/healthz", "/livez", "/openapi.json"]) {
      const wrong = await fetch(`${server.baseUrl}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      expect([path, wrong.status, wrong.headers.get("allow")]).toEqual([path, 405, "GET, HEAD"]);
      expect(await wrong.json()).toMatchObject({ error: { code: "METHOD_NOT_ALLOWED", details: { allowed_methods: ["GET", "HEAD"] } }, docs: expect.stringContaining("/docs/errors#METHOD_NOT_ALLOWED") });
      const head = await fetch(`${server.baseUrl}${path}`, { method: "HEAD" });
      expect([path, head.status, await head.text()]).toEqual([path, 200, ""]);
    }
  });

  describe("requests the HTTP parser refuses are answered in the envelope too (found by the fuzz test)", () => {
    const port = () => Number(new URL(server.baseUrl).port);
    const envelopeOf = (answer: RawOutcome) => (answer.kind === "answer" ? { status: answer.status, body: JSON.parse(answer.body.toString("utf8")) } : answer);

    test.each([
      ["a NUL byte in a header value", [["X-Agent-Protocol", "board/1\u0000"]], "HPE_INVALID_HEADER_TOKEN"],
      ["a space in a header name", [["Bad Header", "x"]], "HPE_INVALID_HEADER_TOKEN"],
      ["two different Content-Length headers", [["Content-Length", "2"], ["Content-Length", "3"]], "HPE_UNEXPECTED_CONTENT_LENGTH"],
    ] as Array<[string, Array<[string, string]>, string]>)("%s: 400 MALFORMED_REQUEST naming the parser's reason", async (_label, headers, reason) => {
      const answer = envelopeOf(await sendRaw(port(), { method: "POST", target: "/v1/posts", headers: [["Accept", "application/json"], ...headers], body: Buffer.from("{}"), declaredLength: null }, 5_000));
      expect(answer).toEqual({
        status: 400,
        body: { error: { code: "MALFORMED_REQUEST", message: expect.stringContaining("could not be parsed"), details: { reason: expect.stringMatching(/^HPE_/) } }, docs: `${server.baseUrl}/docs/errors#MALFORMED_REQUEST` },
      });
      expect([reason, "HPE_INVALID_HEADER_TOKEN", "HPE_INVALID_CONTENT_LENGTH"]).toContain((answer as { body: any }).body.error.details.reason);
    });

    test("headers over 16 KiB: 431 HEADERS_TOO_LARGE", async () => {
      const answer = envelopeOf(await sendRaw(port(), { method: "GET", target: "/v1/me", headers: [["X-Padding", "p".repeat(20_000)]] }, 5_000));
      expect(answer).toEqual({ status: 431, body: { error: { code: "HEADERS_TOO_LARGE", message: expect.stringContaining("16 KiB") }, docs: `${server.baseUrl}/docs/errors#HEADERS_TOO_LARGE` } });
    });

    test("a well-formed request on the same server still works after them", async () => {
      expect((await agent.get("/v1/me")).status).toBe(200);
    });
  });

  test("responses carry a request id, echoing a well-formed incoming one", async () => {
    const res = await agent.get("/v1/me", { "x-request-id": "trace-123" });
    expect(res.headers.get("x-request-id")).toBe("trace-123");
    const generated = await agent.get("/v1/me", { "x-request-id": "bad id with spaces" });
    expect(generated.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("rate limits (§8)", () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ limits: { writesPerMinutePerNetwork: 2, credentialCallsPerMinutePerNetwork: 5, registrationAttemptsPerMinutePerNetwork: 100 } });
  });
  afterAll(() => limited.close());

  test("writes per network per minute: the third write is 429 BOARD_RATE_LIMIT with Retry-After and RateLimit headers", async () => {
    const client = new BoardClient(limited.baseUrl);
    const first = await client.post("/v1/agents", { name: "x" });
    expect(first.status).toBe(400);
    expect(first.headers.get("ratelimit-policy")).toContain('"writes";q=2;w=60');
    expect(first.headers.get("ratelimit")).toContain('"writes";r=1;');
    await client.post("/v1/agents", { name: "x" });
    const third = await client.post("/v1/agents", { name: "x" });
    expect(third.status).toBe(429);
    expect(third.body.error).toMatchObject({ code: "BOARD_RATE_LIMIT", details: { policy: "writes", limit: 2, window_seconds: 60 } });
    expect(Number(third.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const otherNetwork = new BoardClient(limited.baseUrl);
    expect((await otherNetwork.post("/v1/agents", { name: "x" })).status).toBe(400);
  });

  test("a POST that only reads (a preview link, board:read) counts as a call, not as a write", async () => {
    const client = new BoardClient(limited.baseUrl);
    await client.register();
    for (let i = 0; i < 3; i++) {
      const preview = await client.post(`/v1/showcase/revisions/${randomUUID()}/preview-session`, {});
      expect(preview.status).toBe(404);
    }
    expect((await client.post("/v1/posts", {})).status).toBe(400);
    const third = await client.post("/v1/posts", {});
    expect(third.status).toBe(429);
    expect(third.body.error.details.policy).toBe("writes");
  });

  test("calls per network per minute apply to reads too", async () => {
    const client = new BoardClient(limited.baseUrl);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await client.get("/v1/me")).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  test("registration attempts per minute per network", async () => {
    const strict = await startTestServer({ limits: { registrationAttemptsPerMinutePerNetwork: 2 } });
    try {
      const client = new BoardClient(strict.baseUrl);
      expect((await client.post("/v1/agents", { name: "x" })).status).toBe(400);
      expect((await client.post("/v1/agents", { name: "x" })).status).toBe(400);
      const res = await client.post("/v1/agents", { name: "x" });
      expect(res.status).toBe(429);
      expect(res.body.error.details.policy).toBe("registration");
    } finally {
      await strict.close();
    }
  });

  test("routes match as written: another case or a trailing slash is 404, so no path reaches registration uncounted", async () => {
    const client = new BoardClient(limited.baseUrl);
    const names = ["/v1/agents/", "/v1/Agents", "/V1/agents"].map((path) => ({ path, name: `slash_${randomUUID().slice(0, 8)}` }));
    for (const { path, name } of names) {
      const res = await client.post(path, { name });
      expect(res.status, path).toBe(404);
      expect(res.body.error.code, path).toBe("NOT_FOUND");
    }
    expect(await limited.app.deps.db.prisma.agent.count({ where: { name: { in: names.map((n) => n.name) } } })).toBe(0);
  });
});

describe("operations", () => {
  test("/healthz reports the runtime, the database and the limiter", async () => {
    const res = await fetch(server.baseUrl + "/healthz");
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "ok", runtime: { node: process.version }, database: { ok: true }, limiter: { ok: true, store: "postgres" } });
    expect(Number(process.version.slice(1).split(".")[0])).toBeGreaterThanOrEqual(22);
  });

  test("OpenAPI 3.1 document 1.8.0 with real statuses and the error envelope", async () => {
    const doc = await (await fetch(server.baseUrl + "/openapi.json")).json();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("1.8.0");
    const register = doc.paths["/v1/agents"].post;
    expect(Object.keys(register.responses)).toEqual(expect.arrayContaining(["201", "400", "409", "413", "429"]));
    // Registration never replays (a taken name is 409), nor do upload sessions or /b writes: no 200 is promised.
    expect(register.responses["200"]).toBeUndefined();
    expect(doc.paths["/v1/showcase/uploads"].post.responses["200"]).toBeUndefined();
    expect(doc.paths["/b/threads"].post.responses["200"]).toBeUndefined();
    expect(doc.paths["/v1/posts"].post.responses["200"].description).toBe("Exact retry: the original receipt, replayed (replayed: true).");
    expect(doc.paths["/api/showcase/human-session"].post.responses["200"].description).toBe("The session already existed: its nickname was changed (no new cookie).");
    expect(register.requestBody.content["application/json"].schema.anyOf).toEqual([{ required: ["participation_basis"] }, { required: ["operator_authorized"] }]);
    expect(register.responses["429"].headers["Retry-After"]).toBeDefined();
    expect(register.responses["400"].content["application/json"].schema.$ref).toBe("#/components/schemas/ErrorEnvelope");
    const oauthOrEnvelope = { oneOf: [{ $ref: "#/components/schemas/ErrorEnvelope" }, { $ref: "#/components/schemas/OAuthError" }] };
    expect(doc.paths["/v1/inbox"].get.responses["401"].content["application/json"].schema).toEqual(oauthOrEnvelope);
    expect(doc.paths["/ballot"].post.responses["403"].content["application/json"].schema).toEqual(oauthOrEnvelope);
    expect(doc.paths["/v1/me"].get.responses["401"].content["application/json"].schema).toEqual(oauthOrEnvelope);
    expect(doc.paths["/v1/me"].get.responses["403"].content["application/json"].schema.$ref).toBe("#/components/schemas/ErrorEnvelope");
    expect(doc.components.schemas.OAuthError.properties.error.enum).toEqual(["invalid_token", "insufficient_scope"]);
    expect(doc.paths["/v1/me"].get.parameters).toContainEqual(expect.objectContaining({ name: "X-Agent-Protocol", in: "header", required: true, schema: { type: "string", const: "board/1" } }));
    expect(doc.paths["/ballot"].post.parameters).toContainEqual(expect.objectContaining({ name: "X-Agent-Protocol", required: false }));
    expect(doc.paths["/api/showcase/posts/{post_id}/human-comments"].post.parameters).toContainEqual(expect.objectContaining({ name: "X-CSRF-Token", required: true }));
    expect(doc.paths["/api/showcase/feed"].get.parameters ?? []).not.toContainEqual(expect.objectContaining({ in: "header" }));
    const reference = await fetch(server.baseUrl + "/docs");
    expect(reference.status).toBe(200);
    expect(await reference.text()).toContain("/v1/agents");
  });
});

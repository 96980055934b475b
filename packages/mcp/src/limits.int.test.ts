import { afterAll, beforeAll, expect, test } from "vitest";
import { connectMcp, makeAgent, registeredClient, startTestServer, uniqueNetwork, type TestServer } from "@board/testkit";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ oauth: true, limits: { credentialCallsPerMinutePerNetwork: 3, registrationAttemptsPerMinutePerNetwork: 1 } });
});
afterAll(() => server.close());

test("/mcp calls count against the per-network limit: 429 BOARD_RATE_LIMIT with Retry-After", async () => {
  const network = uniqueNetwork();
  const call = () =>
    fetch(`${server.baseUrl}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "x-forwarded-for": network },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
  const statuses = [];
  for (let i = 0; i < 4; i++) statuses.push((await call()).status);
  expect(statuses).toEqual([401, 401, 401, 429]);
  const limited = await call();
  expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
  expect((await limited.json()).error.code).toBe("BOARD_RATE_LIMIT");
});

test("dynamic client registration counts against the registration-attempt limit", async () => {
  const network = uniqueNetwork();
  const register = () =>
    fetch(`${server.baseUrl}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": network },
      body: JSON.stringify({ redirect_uris: ["http://127.0.0.1:9/callback"], client_name: "limit test", token_endpoint_auth_method: "none" }),
    });
  expect((await register()).status).toBe(201);
  const second = await register();
  expect(second.status).toBe(429);
  expect(second.headers.get("retry-after")).toMatch(/^\d+$/);
  // §7: the OAuth layer answers in its own shape, the board's limit named in the description.
  expect(await second.json()).toEqual({ error: "temporarily_unavailable", error_description: expect.stringMatching(/^Too many requests for the 'registration' limit \(1 per 60 s\); wait \d+ s before retrying\.$/) });
});

test("a credential in the URL is refused on /mcp (board envelope) and on the OAuth endpoints (OAuth shape)", async () => {
  const agent = await makeAgent(server.app.deps.db);
  const onMcp = await fetch(`${server.baseUrl}/mcp?api_key=${agent.apiKey}`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "x-forwarded-for": uniqueNetwork() },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  expect(onMcp.status).toBe(400);
  expect((await onMcp.json()).error).toMatchObject({ code: "CREDENTIALS_IN_URL", details: { parameter: "api_key" } });
  const onOAuth = await fetch(`${server.baseUrl}/oauth/authorize?response_type=code&client_id=x&state=${agent.apiKey}`, { redirect: "manual", headers: { "x-forwarded-for": uniqueNetwork() } });
  expect(onOAuth.status).toBe(400);
  expect(await onOAuth.json()).toEqual({ error: "invalid_request", error_description: expect.stringContaining("Remove 'state' from the URL") });
  const tokenInQuery = await fetch(`${server.baseUrl}/oauth/token?access_token=abc`, { method: "POST", headers: { "x-forwarded-for": uniqueNetwork() } });
  expect(tokenInQuery.status).toBe(400);
  expect((await tokenInQuery.json()).error).toBe("invalid_request");
  const metadata = await fetch(`${server.baseUrl}/.well-known/oauth-authorization-server?x=1`, { headers: { "x-forwarded-for": uniqueNetwork() } });
  expect(metadata.status).toBe(200);
});

test("write tools count against the writes-per-network window, as REST writes do; read tools do not", async () => {
  const strict = await startTestServer({ oauth: true, limits: { writesPerMinutePerNetwork: 2 } });
  try {
    const agent = await registeredClient(strict.baseUrl);
    // A network of its own: the limiter's windows are shared through the run's database.
    const session = await connectMcp(strict.baseUrl, agent.apiKey!, { network: uniqueNetwork() });
    const call = async (name: string, args: Record<string, unknown>) => (await session.client.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent: { error?: { code: string; retry_after_seconds?: number } } };
    for (let i = 0; i < 3; i++) expect((await call("list_inbox", {})).isError).toBeFalsy();
    const acks = [];
    for (let i = 0; i < 3; i++) acks.push(await call("acknowledge_inbox", { through: 0 }));
    expect(acks.map((a) => a.structuredContent.error?.code ?? "ok")).toEqual(["ok", "ok", "BOARD_RATE_LIMIT"]);
    expect(acks[2]!.structuredContent.error!.retry_after_seconds).toBeGreaterThan(0);
    await session.close();
  } finally {
    await strict.close();
  }
});

test("the write window is each network's own, shared by its REST and tool-protocol writes", async () => {
  const strict = await startTestServer({ oauth: true, limits: { writesPerMinutePerNetwork: 2 } });
  try {
    const agent = await registeredClient(strict.baseUrl);
    const other = await registeredClient(strict.baseUrl);
    const busy = uniqueNetwork();
    const quiet = uniqueNetwork();
    const busySession = await connectMcp(strict.baseUrl, agent.apiKey!, { network: busy });
    const quietSession = await connectMcp(strict.baseUrl, other.apiKey!, { network: quiet });
    const ack = async (session: typeof busySession) =>
      ((await session.client.callTool({ name: "acknowledge_inbox", arguments: { through: 0 } })) as { structuredContent: { error?: { code: string } } }).structuredContent.error?.code ?? "ok";
    const restAck = async (network: string) => (await fetch(`${strict.baseUrl}/v1/inbox/ack`, { method: "POST", headers: { authorization: `Bearer ${agent.apiKey}`, accept: "application/json", "x-agent-protocol": "board/1", "content-type": "application/json", "x-forwarded-for": network }, body: "{}" })).status;
    // A call with arguments the tool refuses counts too, as a REST write with a refused body does.
    const invalid = (await busySession.client.callTool({ name: "acknowledge_inbox", arguments: { through: "0" } })) as { structuredContent: { error?: { code: string } } };
    expect(invalid.structuredContent.error?.code).toBe("VALIDATION_FAILED");
    expect([await ack(busySession), await ack(busySession)]).toEqual(["ok", "BOARD_RATE_LIMIT"]);
    // Another network's tool calls are its own.
    expect(await ack(quietSession)).toBe("ok");
    // The busy network's REST write meets the window its tool calls used up.
    expect(await restAck(busy)).toBe(429);
    await busySession.close();
    await quietSession.close();
  } finally {
    await strict.close();
  }
});

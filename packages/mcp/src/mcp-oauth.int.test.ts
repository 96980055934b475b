import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createOperator, linkAgentToOperatorRole, removeAccount } from "@board/services";
import { approveInBrowser, BoardClient, connectMcp, makeAgent, MemoryOAuthClient, startTestServer, type TestServer, readBody } from "@board/testkit";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ oauth: true });
});
afterAll(() => server.close());

const READ_TOOLS = ["list_recent", "list_inbox", "read_thread", "fetch", "inspect_votes", "lookup_publication", "get_my_agent", "get_voting_status", "showcase_read", "showcase_next_review", "showcase_preview"];
const WRITE_TOOLS = ["acknowledge_inbox", "vote", "pin_thread", "showcase_submit", "showcase_vote", "showcase_withdraw", "showcase_appeal", "showcase_upload", "edit_current_rules"];

describe("an MCP client links an agent account end to end", () => {
  test("401 -> metadata -> registration -> consent with the API key -> tools -> refresh -> revocation", async () => {
    const agent = await new BoardClient(server.baseUrl).register();
    const mcpUrl = new URL("/mcp", server.baseUrl);
    const oauth = new MemoryOAuthClient();

    // 1. The first call is refused with the RFC 9728 challenge; the SDK discovers, registers and asks for consent.
    const first = new Client({ name: "e2e", version: "1.0.0" });
    const firstTransport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: oauth });
    await expect(first.connect(firstTransport)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(oauth.client?.client_id).toBeTruthy();
    const authorizationUrl = oauth.authorizationUrl!;
    expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorizationUrl.searchParams.get("resource")).toBe(mcpUrl.href);

    // 2. The owner pastes the API key and approves; the client exchanges the code.
    const redirect = await approveInBrowser(authorizationUrl, agent.api_key);
    await firstTransport.finishAuth(redirect.searchParams.get("code")!);
    const tokens = oauth.tokens()!;
    expect(tokens.token_type).toMatch(/bearer/i);
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.refresh_token).toBeTruthy();
    expect(tokens.scope?.split(" ").sort()).toEqual(["board:read", "board:write"]);

    // 3. Connected: the tool list is exact for a read+write, non-operator token.
    const client = new Client({ name: "e2e", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: oauth }));
    const listed = await client.listTools();
    expect(listed.tools.map((t) => t.name).sort()).toEqual([...READ_TOOLS, ...WRITE_TOOLS].sort());
    for (const tool of listed.tools) {
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type).toBe("object");
      expect(tool.annotations).toMatchObject({ readOnlyHint: expect.any(Boolean), destructiveHint: expect.any(Boolean), idempotentHint: expect.any(Boolean) });
      // Writes act on this board alone, the showcase's as the board's: one set of hints for all.
      if (WRITE_TOOLS.includes(tool.name)) expect([tool.name, tool.annotations?.readOnlyHint, tool.annotations?.openWorldHint]).toEqual([tool.name, false, false]);
    }

    const me = await client.callTool({ name: "get_my_agent", arguments: {} });
    expect(me.isError).toBeFalsy();
    expect(me.structuredContent).toMatchObject({ id: agent.id, name: agent.name });

    // Board tools call the same services as their REST twins.
    const other = new BoardClient(server.baseUrl);
    const otherAccount = await other.register();
    const root = await other.post("/v1/posts", { title: "Via MCP", body: `hello @${agent.name}` }, { "idempotency-key": `mcp-e2e-${agent.id}` });
    const recent = await client.callTool({ name: "list_recent", arguments: { limit: 5 } });
    expect(recent.isError).toBeFalsy();
    expect((recent.structuredContent as { items: Array<{ id: string }> }).items.map((i) => i.id)).toContain(root.body.id);
    const thread = await client.callTool({ name: "read_thread", arguments: { id: root.body.id } });
    expect(thread.structuredContent).toMatchObject({ post: { id: root.body.id, body: `hello @${agent.name}` }, viewer: { agent_id: agent.id, auth: "oauth" } });
    const fetched = await client.callTool({ name: "fetch", arguments: { id: root.body.id } });
    expect(fetched.structuredContent).toEqual({
      id: root.body.id,
      title: "Via MCP",
      text: `hello @${agent.name}`,
      url: `${server.baseUrl}/v1/posts/${root.body.id}`,
      metadata: expect.objectContaining({ kind: "root", author: otherAccount.name, reply_count: 0, your_vote: null }),
    });
    const answer = await other.post(`/v1/posts/${root.body.id}/replies`, { body: "a reply" }, { "idempotency-key": `mcp-e2e-reply-${agent.id}` });
    const fetchedReply = await client.callTool({ name: "fetch", arguments: { id: answer.body.id } });
    expect(fetchedReply.structuredContent).toMatchObject({ id: answer.body.id, title: `Reply in thread ${root.body.id}`, text: "a reply", metadata: { kind: "reply", root_id: root.body.id } });
    const missing = await client.callTool({ name: "fetch", arguments: { id: "00000000-0000-4000-8000-000000000000" } });
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent).toMatchObject({ error: { code: "NOT_FOUND" } });
    const voted = await client.callTool({ name: "vote", arguments: { board: "named", post_id: root.body.id, value: 1 } });
    expect(voted.structuredContent).toMatchObject({ board: "named", post_id: root.body.id, value: 1, weight: 1, replayed: false });
    const replayed = await client.callTool({ name: "vote", arguments: { board: "named", post_id: root.body.id, value: 1 } });
    expect(replayed.structuredContent).toMatchObject({ replayed: true });
    const conflict = await client.callTool({ name: "vote", arguments: { board: "named", post_id: root.body.id, value: -1 } });
    expect(conflict.isError).toBe(true);
    expect(conflict.structuredContent).toMatchObject({ error: { code: "VOTE_CONFLICT" } });
    const inbox = await client.callTool({ name: "list_inbox", arguments: {} });
    const items = (inbox.structuredContent as { items: Array<{ inbox_seq: number; reasons: string[] }>; newest_cursor: number }).items;
    expect(items[0]).toMatchObject({ reasons: ["mention"] });
    expect(inbox.structuredContent).toMatchObject({ read_through: 0, resume_after: items.at(-1)!.inbox_seq, newest_cursor: items.at(-1)!.inbox_seq });
    const far = await client.callTool({ name: "list_inbox", arguments: { after: 1_000_000 } });
    expect(far.structuredContent).toMatchObject({ items: [], resume_after: items.at(-1)!.inbox_seq, next_after: null, newest_cursor: null });
    const acked = await client.callTool({ name: "acknowledge_inbox", arguments: { through: items[0]!.inbox_seq } });
    expect(acked.structuredContent).toMatchObject({ read_through: items[0]!.inbox_seq, moved: true });
    expect((await new BoardClient(server.baseUrl, undefined, agent.api_key).get("/v1/me")).body.inbox.read_through).toBe(items[0]!.inbox_seq);

    // 4. Refresh rotates the refresh token; the new access token works.
    const refreshed = await refresh(oauth, tokens.refresh_token!);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).toBeTruthy();
    expect(refreshed.body.refresh_token).not.toBe(tokens.refresh_token);
    oauth.saveTokens(refreshed.body);
    const again = await client.callTool({ name: "get_my_agent", arguments: {} });
    expect(again.structuredContent).toMatchObject({ id: agent.id });

    // 5. Revoking the API key ends every linked token at once.
    const revoke = await new BoardClient(server.baseUrl, undefined, agent.api_key).post("/v1/me/revoke");
    expect(revoke.status).toBe(200);
    const after = await rawCall(oauth.tokens()!.access_token, { jsonrpc: "2.0", id: 1, method: "tools/list" });
    expect(after.status).toBe(401);
    expect(after.headers.get("www-authenticate")).toContain(`resource_metadata="${server.baseUrl}/.well-known/oauth-protected-resource/mcp"`);
    expect(after.body).toMatchObject({ error: "invalid_token" });
    const refreshAfter = await refresh(oauth, refreshed.body.refresh_token);
    expect(refreshAfter.status).toBe(400);
    expect(refreshAfter.body.error).toBe("invalid_grant");
  });

  test("pin_thread: a veteran linked over OAuth pins and unpins; the same token works on REST /pins and /ballot without X-Agent-Protocol", async () => {
    const vet = await makeAgent(server.app.deps.db, { veteran: true, ageDays: 8, karma: 6 });
    const author = new BoardClient(server.baseUrl);
    await author.register();
    const root = await author.post("/v1/posts", { title: "Pin me", body: "b" }, { "idempotency-key": `pin-e2e-${vet.id}` });
    const session = await connectMcp(server.baseUrl, vet.apiKey);
    try {
      const pinned = await session.client.callTool({ name: "pin_thread", arguments: { board: "named", thread_id: root.body.id, pinned: true } });
      expect(pinned.isError).toBeFalsy();
      expect(pinned.structuredContent).toMatchObject({ pinned: true, replayed: false, kind: "community" });
      expect((await new BoardClient(server.baseUrl).get("/pins")).body.pins.map((p: { thread_id: string }) => p.thread_id)).toContain(root.body.id);
      const token = session.oauth.tokens()!.access_token;
      const unpin = await fetch(`${server.baseUrl}/pins`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json" }, body: JSON.stringify({ board: "named", thread_id: root.body.id, pinned: false }) });
      expect(unpin.status).toBe(200);
      expect(await unpin.json()).toMatchObject({ pinned: false });
      const ballot = await fetch(`${server.baseUrl}/ballot`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json" }, body: JSON.stringify({ board: "named", post_id: root.body.id, value: 1 }) });
      expect(ballot.status).toBe(200);
      expect(await ballot.json()).toMatchObject({ value: 1, replayed: false });
    } finally {
      await session.close();
    }
  });

  test("a read-only token gets no write action templates and no vote offers", async () => {
    const author = new BoardClient(server.baseUrl);
    await author.register();
    await author.post("/v1/posts", { title: "read only", body: "b" }, { "idempotency-key": `ro-${Date.now()}-abcdefgh` });
    const session = await connectMcp(server.baseUrl, (await makeAgent(server.app.deps.db)).apiKey, { scope: "board:read" });
    try {
      const page = (await session.client.callTool({ name: "list_recent", arguments: { limit: 3 } })).structuredContent as {
        action_templates: Record<string, unknown>;
        items: Array<{ actions: Array<{ template: string }>; vote_state: { can_vote: boolean; reason: string } }>;
      };
      expect(Object.keys(page.action_templates)).toEqual(["read_thread"]);
      for (const item of page.items) {
        expect(item.actions.map((a) => a.template)).toEqual(["read_thread"]);
        expect(item.vote_state).toMatchObject({ can_vote: false, reason: "read_only_token" });
      }
    } finally {
      await session.close();
    }
  });

  test("the SDK helper links a client in one call", async () => {
    const made = await makeAgent(server.app.deps.db);
    const session = await connectMcp(server.baseUrl, made.apiKey);
    const me = await session.client.callTool({ name: "get_my_agent", arguments: {} });
    expect(me.structuredContent).toMatchObject({ id: made.id });
    await session.close();
  });
});

describe("tools", () => {
  test("edit_current_rules: an agent an admin linked to a moderator role may call it; others get a tool error saying why", async () => {
    const { operator: admin } = await createOperator(server.app.deps, { kind: "system", name: "cli" }, { email: `links-${randomUUID()}@example.org`, role: "admin", password: "a long enough password" });
    const adminActor = { kind: "operator" as const, operatorId: admin.id, role: "admin" as const, sessionVersion: 1 };
    const linked = await makeAgent(server.app.deps.db);
    await linkAgentToOperatorRole(server.app.deps, adminActor, { agentId: linked.id, role: "moderator", reason: "rules editor bot" });
    const session = await connectMcp(server.baseUrl, linked.apiKey);
    expect((await session.client.listTools()).tools.map((t) => t.name)).toContain("edit_current_rules");
    const text = `Rules edited over MCP ${Date.now()}`;
    const edited = await session.client.callTool({ name: "edit_current_rules", arguments: { text } });
    expect(edited.isError).toBeFalsy();
    expect(edited.structuredContent).toMatchObject({ text, url: `${server.baseUrl}/v1/rules`, version_id: expect.any(String) });
    // Audited as the agent, under the role it was linked to.
    const audit = await server.app.deps.db.prisma.operatorAuditEntry.findFirstOrThrow({ where: { action: "rules.edit", targetId: (edited.structuredContent as { version_id: string }).version_id } });
    expect(audit).toMatchObject({ actorKind: "agent", reason: "edited with the MCP tool edit_current_rules", after: { agent_id: linked.id, linked_role: "moderator" } });
    const stale = await session.client.callTool({ name: "edit_current_rules", arguments: { text: `${text} again`, base_version_id: "00000000-0000-4000-8000-000000000000" } });
    expect(stale.structuredContent).toMatchObject({ error: { code: "RULES_CONFLICT", details: { current_version_id: (edited.structuredContent as { version_id: string }).version_id } } });
    // The length is the deployment's limit in code points, told by the service with the count.
    const tooLong = await session.client.callTool({ name: "edit_current_rules", arguments: { text: "r".repeat(20_001) } });
    expect(tooLong.structuredContent).toMatchObject({ error: { code: "VALIDATION_FAILED", message: "The rules text must be 1-20000 characters; this one has 20001." } });
    const blank = await session.client.callTool({ name: "edit_current_rules", arguments: { text: "   " } });
    expect(blank.structuredContent).toMatchObject({ error: { code: "VALIDATION_FAILED", message: "The rules text must be 1-20000 characters; this one has 0." } });
    const withNul = await session.client.callTool({ name: "edit_current_rules", arguments: { text: `${text}\u0000` } });
    expect(withNul.structuredContent).toMatchObject({ error: { code: "VALIDATION_FAILED", details: { issues: [{ field: "text" }] } } });
    expect((await new BoardClient(server.baseUrl, undefined, linked.apiKey).get("/v1/rules")).body).toMatchObject({ text });

    // The longest valid text fits the tool's envelope however the client encodes it, though it is
    // far over the 32 KiB of the showcase's tools: 20,000 emoji are 80 KB as UTF-8 and 240 KB escaped.
    const token = session.oauth.tokens()!.access_token;
    const escapedCall = (codePoints: number) =>
      JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "edit_current_rules", arguments: { text: "\u{1F600}".repeat(codePoints) } } }).replaceAll("\u{1F600}", "\\ud83d\\ude00");
    const longest = await session.client.callTool({ name: "edit_current_rules", arguments: { text: "\u{1F600}".repeat(20_000) } });
    expect(longest.isError).toBeFalsy();
    expect(Buffer.byteLength(escapedCall(20_000))).toBeGreaterThan(240_000);
    const escaped = await rawBodyCall(token, escapedCall(20_000));
    expect(escaped.status).toBe(200);
    expect(escaped.body.result.isError).toBeFalsy();
    expect(escaped.body.result.structuredContent.text).toBe("\u{1F600}".repeat(20_000));
    const tooLongEscaped = await rawBodyCall(token, escapedCall(20_001));
    expect(tooLongEscaped.body.result.structuredContent.error).toMatchObject({ code: "VALIDATION_FAILED", message: "The rules text must be 1-20000 characters; this one has 20001." });
    const overEnvelope = await rawBodyCall(token, escapedCall(23_000));
    expect(overEnvelope.body.result.structuredContent.error).toMatchObject({
      code: "PAYLOAD_TOO_LARGE",
      message: `This tool call is ${Buffer.byteLength(escapedCall(23_000))} bytes; the tool-protocol envelope of this tool is 272768 bytes. Send shorter arguments: no input of this tool needs that much.`,
      details: { scope: "mcp_envelope", tool: "edit_current_rules", max_bytes: 272_768 },
    });
    await session.close();

    const viewerLinked = await makeAgent(server.app.deps.db);
    await linkAgentToOperatorRole(server.app.deps, adminActor, { agentId: viewerLinked.id, role: "viewer", reason: "read-only bot" });
    for (const [made, why] of [
      [await makeAgent(server.app.deps.db), "no admin has linked it to an operator role"],
      [await makeAgent(server.app.deps.db, { role: "operator" }), "no admin has linked it to an operator role"],
      [viewerLinked, "it is linked to the viewer role, which may not edit the rules"],
    ] as const) {
      const plain = await connectMcp(server.baseUrl, made.apiKey);
      const refused = await plain.client.callTool({ name: "edit_current_rules", arguments: { text } });
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent).toMatchObject({ error: { code: "OPERATOR_ONLY", message: `Only agent accounts an admin linked to a moderator or admin role may edit the rules; ${why}.` } });
      await plain.close();
    }
  });

  test("an operator's account removal kills its OAuth tokens at once (401 invalid_token)", async () => {
    const { operator } = await createOperator(server.app.deps, { kind: "system", name: "cli" }, { email: `remover-${randomUUID()}@example.org`, role: "moderator", password: "a long enough password" });
    const made = await makeAgent(server.app.deps.db);
    const session = await connectMcp(server.baseUrl, made.apiKey);
    expect((await session.client.callTool({ name: "get_my_agent", arguments: {} })).structuredContent).toMatchObject({ id: made.id });
    await removeAccount(server.app.deps, { kind: "operator", operatorId: operator.id, role: "moderator", sessionVersion: 1 }, { agentId: made.id, reason: "abuse", removeContent: false });
    const after = await rawCall(session.oauth.tokens()!.access_token, { jsonrpc: "2.0", id: 1, method: "tools/list" });
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ error: "invalid_token" });
    expect((await new BoardClient(server.baseUrl, undefined, made.apiKey).get("/v1/me")).status).toBe(401);
    await session.close();
  });

  test("get_voting_status: the allowance, and vote state per requested target", async () => {
    const made = await makeAgent(server.app.deps.db);
    const session = await connectMcp(server.baseUrl, made.apiKey);
    const status = await session.client.callTool({ name: "get_voting_status", arguments: {} });
    expect(status.structuredContent).toMatchObject({ board: "named", voting: { can_vote: true, daily_limit: 20 }, items: [] });
    const missing = "00000000-0000-4000-8000-000000000000";
    const one = await session.client.callTool({ name: "get_voting_status", arguments: { post_ids: [missing] } });
    expect(one.structuredContent).toMatchObject({ items: [{ post_id: missing, vote_state: { can_vote: false, reason: "target_unavailable" } }] });
    await session.close();
  });

  test("showcase_read answers the capabilities the REST route answers", async () => {
    const session = await connectMcp(server.baseUrl, (await makeAgent(server.app.deps.db)).apiKey);
    const res = await session.client.callTool({ name: "showcase_read", arguments: { action: "capabilities" } });
    expect(res.isError).toBeFalsy();
    expect(res.structuredContent).toMatchObject({ action: "capabilities", result: { discovery: { showcase_activity_route: "/v1/showcase/activity", read_before_commenting: true } } });
    await session.close();
  });

  test("lookup_publication's input schema states the key's rule: required, 16-128 characters, the pattern", async () => {
    const session = await connectMcp(server.baseUrl, (await makeAgent(server.app.deps.db)).apiKey);
    const tool = (await session.client.listTools()).tools.find((t) => t.name === "lookup_publication")!;
    expect(tool.inputSchema).toMatchObject({ type: "object", required: ["request_id"], additionalProperties: false, properties: { request_id: { type: "string", minLength: 16, maxLength: 128, pattern: "^[A-Za-z0-9_-]+$" } } });
    await session.close();
  });

  test("lookup_publication: a key no write could have used (a NUL byte, too short) is a tool error saying the format, not an internal error", async () => {
    const session = await connectMcp(server.baseUrl, (await makeAgent(server.app.deps.db)).apiKey);
    // No key at all is refused as GET /v1/me/publications/lookup refuses a missing header.
    for (const args of [{}, { request_id: "" }]) {
      const res = await session.client.callTool({ name: "lookup_publication", arguments: args });
      expect(res.structuredContent).toMatchObject({ error: { code: "IDEMPOTENCY_KEY_REQUIRED", message: expect.stringContaining("request_id") } });
    }
    // A key sent as a number is refused for its type, not as missing.
    const numeric = await session.client.callTool({ name: "lookup_publication", arguments: { request_id: 1234567890123456 } });
    expect(numeric.structuredContent).toMatchObject({ error: { code: "IDEMPOTENCY_KEY_REQUIRED", message: "request_id must be text, the original Idempotency-Key as it was sent (here a number): quote it.", details: { argument: "request_id" } } });
    for (const request_id of ["abcdefghijklmnop\u0000", "short"]) {
      const res = await session.client.callTool({ name: "lookup_publication", arguments: { request_id } });
      expect(res.isError).toBe(true);
      expect(res.structuredContent).toMatchObject({ error: { code: "IDEMPOTENCY_KEY_REQUIRED", message: expect.stringContaining("16-128 characters") } });
    }
    // The refusal names the argument the tool takes, not the REST route's header.
    const short = await session.client.callTool({ name: "lookup_publication", arguments: { request_id: "short" } });
    expect(short.structuredContent).toMatchObject({
      error: {
        code: "IDEMPOTENCY_KEY_REQUIRED",
        message: "request_id must be the original Idempotency-Key: 16-128 characters of A-Z, a-z, 0-9, _ or - (this one has 5).",
        details: { argument: "request_id", length: 5 },
      },
    });
    expect(JSON.stringify(short.structuredContent)).not.toContain("header");
    const unused = await session.client.callTool({ name: "lookup_publication", arguments: { request_id: "a".repeat(16) } });
    expect(unused.structuredContent).toEqual({ found: false });
    await session.close();
  });

  test("every tool's input schema refuses unknown properties, and list_recent, list_inbox and read_thread refuse them when called, as their REST twins refuse unknown parameters", async () => {
    const session = await connectMcp(server.baseUrl, (await makeAgent(server.app.deps.db)).apiKey);
    for (const tool of (await session.client.listTools()).tools) expect([tool.name, tool.inputSchema.additionalProperties]).toEqual([tool.name, false]);
    for (const [name, args] of [["list_recent", { foo: 1 }], ["list_inbox", { foo: 1 }], ["read_thread", { id: randomUUID(), foo: 1 }]] as const) {
      const res = await session.client.callTool({ name, arguments: args });
      expect([name, res.isError]).toEqual([name, true]);
      expect(res.structuredContent).toMatchObject({ error: { code: "VALIDATION_FAILED", details: { issues: [expect.objectContaining({ field: "foo" })] } } });
    }
    await session.close();
  });

  test("invalid arguments are a tool error naming the field, with the REST gate's codes and details (§7)", async () => {
    const session = await connectMcp(server.baseUrl, (await makeAgent(server.app.deps.db)).apiKey);
    const call = async (name: string, args: Record<string, unknown>) => {
      const res = await session.client.callTool({ name, arguments: args });
      expect(res.isError).toBe(true);
      return (res.structuredContent as { error: { code: string; details: Record<string, unknown> } }).error;
    };
    const action = await call("showcase_read", { action: "everything" });
    expect(action.code).toBe("VALIDATION_FAILED");
    expect((action.details.issues as Array<{ field: string }>).map((i) => i.field)).toEqual(["action"]);
    for (const [name, args] of [["showcase_read", { action: "activity", limit: 31 }], ["list_recent", { limit: 0 }], ["list_recent", { limit: 1.5 }]] as const) {
      expect(await call(name, args)).toMatchObject({ code: "INVALID_LIMIT", details: { parameter: "limit", min: 1, max: 30, default: 10 } });
    }
    expect(await call("showcase_read", { action: "posts", before: 3_000_000_000 })).toMatchObject({ code: "INVALID_CURSOR", details: { parameter: "before" } });
    await session.close();
  });
});

describe("transport guards", () => {
  let token: string;
  beforeAll(async () => {
    const session = await connectMcp(server.baseUrl, (await makeAgent(server.app.deps.db)).apiKey);
    token = session.oauth.tokens()!.access_token;
    await session.close();
  });

  test("no credential at all: 401 with the bare challenge (no OAuth error code) and the board's UNAUTHORIZED body, as REST answers", async () => {
    const res = await rawCall(null, { jsonrpc: "2.0", id: 1, method: "tools/list" });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${server.baseUrl}/.well-known/oauth-protected-resource/mcp"`);
    expect(res.body).toEqual({ error: { code: "UNAUTHORIZED", message: expect.stringContaining("Authorization: Bearer") }, docs: expect.stringContaining("UNAUTHORIZED") });
  });

  test("every REST 401 carries a challenge (RFC 9110 §15.5.2): OAuth routes name the resource metadata, API-key routes the realm; a refused key adds invalid_token", async () => {
    const metadata = `Bearer resource_metadata="${server.baseUrl}/.well-known/oauth-protected-resource/mcp"`;
    const unknownKey = `ab1_${"x".repeat(43)}`;
    const cases: Array<[string, string | null, string]> = [
      ["/v1/showcase/capabilities", null, metadata],
      ["/v1/showcase/capabilities", unknownKey, `${metadata}, error="invalid_token"`],
      ["/v1/me", null, 'Bearer realm="agent-board"'],
      ["/v1/me", unknownKey, 'Bearer realm="agent-board", error="invalid_token"'],
    ];
    for (const [path, key, challenge] of cases) {
      const res = await new BoardClient(server.baseUrl, undefined, key).get(path);
      expect([path, key !== null, res.status, res.body.error.code]).toEqual([path, key !== null, 401, "UNAUTHORIZED"]);
      expect(res.headers.get("www-authenticate")).toMatch(new RegExp(`^${challenge.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(, error_description="[^"]+")?$`));
    }
  });

  test("a foreign Origin is 403; the service's own origin is allowed", async () => {
    const foreign = await rawCall(token, { jsonrpc: "2.0", id: 1, method: "tools/list" }, { origin: "https://evil.example" });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32000, message: "Origin 'https://evil.example' may not call this MCP server; call it from a non-browser client or from an allowed origin." },
    });
    expect((await rawCall(token, { jsonrpc: "2.0", id: 1, method: "tools/list" }, { origin: server.baseUrl })).status).toBe(200);
  });

  test("the request envelope is capped at 32 KiB: a tool call over it is a tool error naming the limit (showcase_upload only for a submission), anything else 413 with §7's size details", async () => {
    const call = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "showcase_read", arguments: { action: "activity", id: "x".repeat(33 * 1024) } } };
    for (const params of [call.params, { name: "list_recent", arguments: { topic: "a".repeat(100_000) } }]) {
      const toolCall = await rawCall(token, { ...call, params });
      expect(toolCall.status).toBe(200);
      expect(toolCall.body).toMatchObject({ jsonrpc: "2.0", id: 7, result: { isError: true, structuredContent: { error: { code: "PAYLOAD_TOO_LARGE", details: { scope: "mcp_envelope", tool: params.name, max_bytes: 32_768 } } } } });
      const { error } = toolCall.body.result.structuredContent;
      expect(error.message).toContain("envelope is 32768 bytes");
      expect(error.message).not.toContain("showcase_upload");
      expect(error.details).not.toHaveProperty("use_tool");
    }
    const listing = await rawCall(token, { jsonrpc: "2.0", id: 1, method: "tools/list", params: { padding: "x".repeat(33 * 1024) } });
    expect(listing.status).toBe(413);
    expect(listing.body.error.message).toContain("32768");
    expect(listing.body.error.message).not.toContain("showcase_upload");
    const listingBytes = Buffer.byteLength(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { padding: "x".repeat(33 * 1024) } }));
    expect(listing.body.error.data).toEqual({ code: "PAYLOAD_TOO_LARGE", scope: "mcp_envelope", max_bytes: 32_768, actual_bytes: listingBytes });
    const post = (body: BodyInit, extra: RequestInit = {}) =>
      fetch(`${server.baseUrl}/mcp`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${token}` }, body, ...extra });
    const notJson = await post("x".repeat(33 * 1024));
    expect(notJson.status).toBe(413);
    expect(((await notJson.json()) as any).error.data).toMatchObject({ actual_bytes: 33 * 1024 });
    const huge = await rawCall(token, { ...call, params: { name: "showcase_submit", arguments: { kind: "article", publication: { blob: "x".repeat(4_600_000) } } } });
    expect(huge.status).toBe(413);
    expect(huge.body.error.data).toEqual({ code: "PAYLOAD_TOO_LARGE", scope: "mcp_envelope", max_bytes: 32_768, declared_bytes: expect.any(Number) });
    expect(huge.body.error.data.declared_bytes).toBeGreaterThan(4_600_000);
    // Without a Content-Length the body is read until it passes the inspection limit.
    const chunk = new TextEncoder().encode("x".repeat(1024 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 6) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const chunked = await post(stream, { duplex: "half" } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(((await chunked.json()) as any).error.data.observed_bytes_at_least).toBeGreaterThan(4_587_520);
  });

  test("malformed tools/call params are -32602 with one sentence saying what to send, for the call's id", async () => {
    const cases: Array<[unknown, string]> = [
      [{ name: "list_recent", arguments: [1] }, "arguments must be an object"],
      [{ name: "list_recent", arguments: "limit=5" }, "arguments must be an object"],
      [{ name: "list_recent", arguments: null }, "arguments must be an object"],
      [{}, "params.name must be a string"],
      [{ name: 5 }, "params.name must be a string"],
      ["list_recent", "params must be an object"],
    ];
    for (const [params, fix] of cases) {
      const res = await rawCall(token, { jsonrpc: "2.0", id: 4, method: "tools/call", params });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ jsonrpc: "2.0", id: 4, error: { code: -32602, message: expect.stringContaining(fix) } });
      expect(res.body.error.message).not.toContain("\n");
    }
  });

  test("a tools/call naming no tool is -32602 saying so and where the tools are listed, for the call's id", async () => {
    for (const name of ["showcase_delete", "", "SHOWCASE_READ"]) {
      const res = await rawCall(token, { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name, arguments: {} } });
      expect([name, res.status]).toEqual([name, 200]);
      expect(res.body).toEqual({ jsonrpc: "2.0", id: 9, error: { code: -32602, message: `MCP error -32602: Unknown tool '${name}'; call tools/list for the tools this token can use.` } });
    }
  });

  test("valid JSON that is no JSON-RPC message is -32600 Invalid Request; only unparseable JSON is -32700", async () => {
    for (const message of [{}, { id: 1, method: "ping" }, { jsonrpc: "1.0", id: 1, method: "ping" }, 5, "ping", null, { jsonrpc: "2.0", id: 1 }, { jsonrpc: "2.0", id: 1, method: 7 }]) {
      const res = await rawCall(token, message);
      expect([message, res.status]).toEqual([message, 400]);
      expect(res.body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringMatching(/^Invalid Request: .*"jsonrpc":"2.0"/) } });
    }
    const broken = await fetch(`${server.baseUrl}/mcp`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${token}` }, body: '{"jsonrpc":' });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as any).error.code).toBe(-32700);
    expect((await rawCall(token, { jsonrpc: "2.0", id: 1, method: "ping" })).body).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
  });

  test("an unsupported MCP-Protocol-Version is 400", async () => {
    const res = await rawCall(token, { jsonrpc: "2.0", id: 1, method: "tools/list" }, { "mcp-protocol-version": "1999-01-01" });
    expect(res.status).toBe(400);
  });

  test("GET is 405: the server is stateless and offers no SSE stream", async () => {
    const res = await fetch(`${server.baseUrl}/mcp`, { headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" } });
    expect(res.status).toBe(405);
  });
});

async function refresh(oauth: MemoryOAuthClient, refreshToken: string) {
  const response = await fetch(`${server.baseUrl}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: oauth.client!.client_id, resource: `${server.baseUrl}/mcp` }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

async function rawCall(token: string | null, message: unknown, headers: Record<string, string> = {}) {
  return rawBodyCall(token, JSON.stringify(message), headers);
}

/** A message sent as exactly this text (a client's own JSON encoding). */
async function rawBodyCall(token: string | null, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.baseUrl}/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body,
  });
  return { status: response.status, headers: response.headers, body: await readBody(response) };
}

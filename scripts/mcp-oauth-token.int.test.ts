import { afterAll, beforeAll, expect, test } from "vitest";
import { registeredClient, startTestServer, type TestServer } from "../packages/testkit/src";
import { obtainMcpToken, PathCookieJar } from "./mcp-oauth-token";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ oauth: true });
});
afterAll(() => server.close());

test("the headless script links a client over plain HTTP and lists the tools with its token", async () => {
  const agent = await registeredClient(server.baseUrl);
  const linked = await obtainMcpToken(server.baseUrl, agent.apiKey!);
  expect(linked.scope.split(" ").sort()).toEqual(["board:read", "board:write"]);
  expect(linked.expiresIn).toBe(3600);
  expect(linked.tools).toEqual(expect.arrayContaining(["list_recent", "read_thread", "vote", "pin_thread", "showcase_submit"]));
  // Listed to every write token; only an account an admin linked to an operator role may use it.
  expect(linked.tools).toContain("edit_current_rules");
  // The token is the account's: /v1 accepts it on a route with a scope.
  const voting = await fetch(`${server.baseUrl}/v1/voting`, { headers: { accept: "application/json", "x-agent-protocol": "board/1", authorization: `Bearer ${linked.accessToken}` } });
  expect(voting.status).toBe(200);
});

test("a read-only link lists only the read tools", async () => {
  const agent = await registeredClient(server.baseUrl);
  const linked = await obtainMcpToken(server.baseUrl, agent.apiKey!, "board:read");
  expect(linked.scope).toBe("board:read");
  expect(linked.tools).toContain("read_thread");
  expect(linked.tools).not.toContain("vote");
  expect(linked.tools).not.toContain("edit_current_rules");
});

test("a wrong API key stops the script at the consent form, saying why", async () => {
  await expect(obtainMcpToken(server.baseUrl, "ab1_not-a-key-of-this-board")).rejects.toThrow("the consent page refused the approval (401): That API key is unknown or revoked. Paste the live key of the agent account you want to connect.");
});

test("cookies go only to the paths they were set for", () => {
  const jar = new PathCookieJar();
  const response = new Response(null, { headers: [["set-cookie", "_interaction=a; path=/oauth/interaction/uid1; httponly"], ["set-cookie", "_resume=b; path=/oauth/authorize/uid1"], ["set-cookie", "site=c; path=/"]] });
  jar.store(response, new URL("http://127.0.0.1/oauth/auth"));
  expect(jar.header(new URL("http://127.0.0.1/oauth/interaction/uid1"))).toBe("_interaction=a; site=c");
  expect(jar.header(new URL("http://127.0.0.1/oauth/authorize/uid1"))).toBe("_resume=b; site=c");
  expect(jar.header(new URL("http://127.0.0.1/oauth/interaction/uid10"))).toBe("site=c");
  jar.store(new Response(null, { headers: [["set-cookie", "_interaction=; path=/oauth/interaction/uid1; max-age=0"]] }), new URL("http://127.0.0.1/oauth/interaction/uid1"));
  expect(jar.header(new URL("http://127.0.0.1/oauth/interaction/uid1"))).toBe("site=c");
});

import { afterAll, beforeAll, expect, test } from "vitest";
import type { CaptchaVerifier } from "@board/services";
import { BoardClient, connectMcp, post, readBody, registeredClient, scriptedChecker, startTestServer, uniqueNetwork, type TestServer } from "@board/testkit";

/**
 * Issue 19, figure 6: while API keys, OAuth access and refresh tokens, guest cookies and CSRF
 * tokens are used (and misused), no log line contains any of them.
 */
const logLines: string[] = [];
const acceptEveryAnswer: CaptchaVerifier = {
  siteKey: "site",
  scriptUrl: "https://js.hcaptcha.com/1/api.js?render=explicit",
  verify: async () => ({ success: true, hostname: "127.0.0.1", challenge_ts: new Date().toISOString() }),
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ oauth: true, logLines, checker: scriptedChecker(), captcha: acceptEveryAnswer, showcaseActivatedAt: new Date() });
});
afterAll(() => server.close());

test("no API key, access or refresh token, guest cookie or CSRF token appears in any log line (issue 19, figure 6)", async () => {
  const secrets: Array<[string, string]> = [];

  const agent = await registeredClient(server.baseUrl);
  secrets.push(["api key", agent.apiKey!]);
  await agent.get("/v1/me");
  const root = await post(agent);
  await agent.get(`/v1/me?api_key=${encodeURIComponent(agent.apiKey!)}`);
  await new BoardClient(server.baseUrl, uniqueNetwork(), `${agent.apiKey!}x`).get("/v1/me");

  const session = await connectMcp(server.baseUrl, agent.apiKey!);
  const tokens = session.oauth.tokens()!;
  secrets.push(["access token", tokens.access_token], ["refresh token", tokens.refresh_token!]);
  await session.client.callTool({ name: "get_my_agent", arguments: {} });
  await new BoardClient(server.baseUrl, uniqueNetwork(), tokens.access_token).get("/v1/me");
  const refreshed = await fetch(`${server.baseUrl}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: tokens.refresh_token!, client_id: session.oauth.client!.client_id, resource: `${server.baseUrl}/mcp` }),
  }).then(readBody);
  secrets.push(["rotated access token", refreshed.access_token], ["rotated refresh token", refreshed.refresh_token]);
  await fetch(`${server.baseUrl}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: tokens.refresh_token!, client_id: session.oauth.client!.client_id }),
  });
  await session.close();
  await fetch(`${server.baseUrl}/mcp`, { method: "POST", headers: { authorization: `Bearer ${agent.apiKey!}`, "content-type": "application/json" }, body: "{}" });

  const origin = server.baseUrl;
  const started = await fetch(`${server.baseUrl}/api/showcase/human-session`, { method: "POST", headers: { origin, "content-type": "application/json", "x-forwarded-for": uniqueNetwork() }, body: JSON.stringify({ nickname: "Ada" }) });
  const cookie = started.headers.get("set-cookie")!.split(";")[0]!;
  const csrf = (await started.json()).session.csrf_token as string;
  secrets.push(["guest cookie", cookie.split("=")[1]!], ["csrf token", csrf]);
  await fetch(`${server.baseUrl}/api/showcase/reports`, { method: "POST", headers: { origin, cookie, "x-csrf-token": csrf, "content-type": "application/json" }, body: JSON.stringify({ target_id: root.id, reason: "test" }) });
  await fetch(`${server.baseUrl}/api/showcase/reports`, { method: "POST", headers: { origin, cookie, "x-csrf-token": `${csrf}x`, "content-type": "application/json" }, body: "{}" });

  expect(logLines.length).toBeGreaterThan(20);
  const leaks = secrets.flatMap(([name, value]) => logLines.filter((line) => line.includes(value)).map((line) => `${name}: ${line.slice(0, 200)}`));
  console.log(`secrets: ${secrets.length} secrets used, ${logLines.length} log lines read, ${leaks.length} containing a secret`);
  expect(leaks).toEqual([]);
});

import { afterAll, beforeAll, expect, test } from "vitest";
import { boardJobHandlers, OAUTH_SWEEP_TASK, oauthStore, UNUSED_OAUTH_CLIENT_SECONDS } from "@board/services";
import { authorizeOAuthClient, makeAgent, startTestServer, TEST_REDIRECT_URI, type TestServer } from "@board/testkit";

let server: TestServer;
beforeAll(async () => {
  // The sweep is table-wide and runs at clocks weeks ahead: other files' links must not be in reach.
  server = await startTestServer({ ownDatabase: true, oauth: true });
});
afterAll(() => server.close());

const DAY_MS = 24 * 60 * 60 * 1000;

async function rowsOfType(): Promise<Record<string, number>> {
  const groups = await server.app.deps.db.prisma.oidcPayload.groupBy({ by: ["type"], _count: { _all: true } });
  return Object.fromEntries(groups.map((group) => [group.type, group._count._all]));
}

async function registerClient(): Promise<string> {
  const response = await fetch(`${server.baseUrl}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: "Abandoned client", redirect_uris: [TEST_REDIRECT_URI], token_endpoint_auth_method: "none" }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { client_id: string }).client_id;
}

function toolsList(accessToken: string) {
  return fetch(`${server.baseUrl}/mcp`, {
    method: "POST",
    headers: { authorization: `Bearer ${accessToken}`, "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
}

test("the hourly sweep deletes expired payloads and unused client registrations, never a live link", async () => {
  const agent = await makeAgent(server.app.deps.db);
  const linked = await authorizeOAuthClient(server.baseUrl, agent.apiKey);
  const abandoned = await registerClient();
  const access = linked.tokens()!.access_token;
  const before = await rowsOfType();
  expect(before).toMatchObject({ Client: 2, RegistrationAccessToken: 2, Grant: 1, RefreshToken: 1 });

  // At the real time, as the job runs it: nothing live goes.
  await boardJobHandlers(server.app.deps)[OAUTH_SWEEP_TASK]!({}, { number: 1, max: 1 });
  expect((await rowsOfType()).Client).toBe(2);
  expect((await toolsList(access)).status).toBe(200);

  // A day later: the consent session, interaction and code are gone; the link and both clients stay
  // (the abandoned one is younger than 30 days).
  const dayLater = new Date(Date.now() + DAY_MS);
  const early = await oauthStore.sweep(server.app.deps, dayLater, new Date(dayLater.getTime() - UNUSED_OAUTH_CLIENT_SECONDS * 1000));
  expect(early.clients).toBe(0);
  expect(early.expired).toBe((before.Session ?? 0) + (before.Interaction ?? 0) + (before.AuthorizationCode ?? 0));
  expect(await rowsOfType()).toEqual({ Client: 2, RegistrationAccessToken: 2, Grant: 1, RefreshToken: 1 });

  // 31 days on: the abandoned registration goes; the linked client stays while its grant lives.
  const monthLater = new Date(Date.now() + 31 * DAY_MS);
  const abandonedGone = await oauthStore.sweep(server.app.deps, new Date(), new Date(monthLater.getTime() - UNUSED_OAUTH_CLIENT_SECONDS * 1000 + DAY_MS));
  expect(abandonedGone).toEqual({ expired: 0, clients: 1 });
  expect(await server.app.deps.db.prisma.oidcPayload.findMany({ where: { type: "Client" }, select: { id: true } })).toEqual([{ id: linked.clientInformation()!.client_id }]);
  expect((await rowsOfType()).RegistrationAccessToken).toBe(1);
  expect(abandoned).not.toBe(linked.clientInformation()!.client_id);
  expect((await toolsList(access)).status).toBe(200);

  // Once the link has expired, its client goes with it.
  const ended = await oauthStore.sweep(server.app.deps, monthLater, new Date(monthLater.getTime() - UNUSED_OAUTH_CLIENT_SECONDS * 1000 + DAY_MS));
  expect(ended).toEqual({ expired: 2, clients: 1 });
  expect(await rowsOfType()).toEqual({});
});

import { randomBytes } from "node:crypto";
import { expect, test, type Browser } from "@playwright/test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { MemoryOAuthClient, TEST_REDIRECT_URI } from "@board/testkit/mcp-client";

/** This test's own network (the e2e server trusts one proxy hop), so its registrations leave other tests' limits alone. */
const agentHeaders = { accept: "application/json", "x-agent-protocol": "board/1", "content-type": "application/json", "x-forwarded-for": `10.77.${randomBytes(1)[0]}.${randomBytes(1)[0]}` };

type ToolAnswer = { isError?: boolean; structuredContent?: any };

/**
 * Links an MCP client built on the official SDK to a new agent account: discovery and registration
 * by the SDK, the owner's consent in the browser (API key pasted, Approve), the code exchanged by
 * the SDK. All clients share one registration, as installations of one app would; each owner
 * approves in a browser of their own (a browser with a session would be linked to its account).
 */
async function linkAccount(browser: Browser, baseURL: string, account: { id: string; api_key: string }, registration?: MemoryOAuthClient["client"]) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const mcpUrl = new URL("/mcp", baseURL);
  const oauth = new MemoryOAuthClient();
  if (registration) oauth.saveClientInformation(registration);
  expect(await auth(oauth, { serverUrl: mcpUrl })).toBe("REDIRECT");
  let redirected: URL | null = null;
  await page.route(`${TEST_REDIRECT_URI}**`, async (route) => {
    redirected = new URL(route.request().url());
    await route.fulfill({ status: 200, contentType: "text/plain", body: "linked" });
  });
  await page.goto(oauth.authorizationUrl!.toString());
  await page.getByLabel("The agent's API key").fill(account.api_key);
  await page.getByRole("button", { name: "Approve" }).click();
  await expect.poll(() => redirected?.searchParams.get("code") ?? null).not.toBeNull();
  await context.close();
  expect(await auth(oauth, { serverUrl: mcpUrl, authorizationCode: redirected!.searchParams.get("code")! })).toBe("AUTHORIZED");
  const client = new Client({ name: "showcase-e2e", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: oauth }));
  const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as ToolAnswer;
  expect((await call("get_my_agent", {})).structuredContent).toMatchObject({ id: account.id });
  return { client, oauth, call };
}

test("an SDK client linked through OAuth submits an article; two other accounts review it through showcase_next_review and showcase_vote; it is published (grace mode)", async ({ browser, request, baseURL }) => {
  test.setTimeout(90_000);
  const accounts = [];
  for (const role of ["author", "reviewer-a", "reviewer-b"]) {
    const res = await request.post("/v1/agents", { headers: agentHeaders, data: { name: `sc-${role}-${randomBytes(3).toString("hex")}`, participation_basis: "owner_directed" } });
    expect(res.status()).toBe(201);
    accounts.push((await res.json()) as { id: string; api_key: string });
  }
  const author = await linkAccount(browser, baseURL!, accounts[0]!);
  const reviewers = [await linkAccount(browser, baseURL!, accounts[1]!, author.oauth.client), await linkAccount(browser, baseURL!, accounts[2]!, author.oauth.client)];

  const submitted = await author.call("showcase_submit", {
    kind: "article",
    publication: {
      schema_version: 1,
      language: "en",
      publication_intent: "show_to_humans",
      idempotency_key: `e2e_${randomBytes(8).toString("hex")}`,
      title: "Reading a queue from the outside",
      blocks: [
        { type: "heading", level: 2, text: "What the poller sees" },
        { type: "paragraph", text: "This article describes how an agent polls a job queue once a minute, remembers the last sequence number it saw, and never misses a job that commits late because numbers are handed out at read time." },
        { type: "svg", source: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 40"><rect x="4" y="4" width="32" height="32" fill="teal"/><rect x="44" y="4" width="32" height="32" fill="orange"/></svg>', description: "Two squares: a job already read and the next one.", runtime: "showcase-svg-v1" },
      ],
    },
  });
  expect(submitted.isError).toBeFalsy();
  const receipt = submitted.structuredContent as { revision_id: string; item_id: string; state: string };
  expect(receipt.state).toBe("checking");

  // The job runner checks the submission in the background.
  await expect
    .poll(async () => (await author.call("showcase_read", { action: "revision", id: receipt.revision_id })).structuredContent?.result?.state, { timeout: 30_000 })
    .toBe("awaiting_votes");

  const states: string[] = [];
  for (const reviewer of reviewers) {
    const skipped: string[] = [];
    let offer = (await reviewer.call("showcase_next_review", {})).structuredContent;
    while (offer.candidate && offer.candidate.revision_id !== receipt.revision_id) {
      skipped.push(offer.candidate.revision_id);
      offer = (await reviewer.call("showcase_next_review", { exclude_revision_ids: skipped })).structuredContent;
    }
    expect(offer.candidate?.revision_id).toBe(receipt.revision_id);
    expect(offer.publication.mode).toBe("grace");
    const read = await reviewer.call(offer.candidate.read_tool.name, offer.candidate.read_tool.arguments);
    expect(read.structuredContent.result).toMatchObject({ revision_id: receipt.revision_id, title: "Reading a queue from the outside" });
    const vote = await reviewer.call("showcase_vote", { revision_id: receipt.revision_id, value: 1 });
    expect(vote.isError).toBeFalsy();
    states.push(vote.structuredContent.revision_state);
  }
  expect(states).toEqual(["awaiting_votes", "published"]);

  const post = await reviewers[0]!.call("showcase_read", { action: "post", id: receipt.item_id });
  expect(post.structuredContent.result).toMatchObject({ website_status: "public", published_revision: { revision_id: receipt.revision_id } });
  await Promise.all([author.client.close(), ...reviewers.map((r) => r.client.close())]);
});

import { randomBytes } from "node:crypto";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { as, newNetwork, register } from "../web/support";
import { ConsoleClient, createOperator, operatorCli, signIn, siteOrigin, type Role } from "./support";

type Principal = "none" | "agent key" | "disabled" | Role;

async function postRoot(request: APIRequestContext, key: string) {
  const res = await request.post("/v1/posts", { headers: { ...as(key), "idempotency-key": `k_${randomBytes(10).toString("hex")}` }, data: { title: `Matrix ${randomBytes(3).toString("hex")}`, body: "A root thread for the console's authorization matrix." } });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** A signed-in console client for each principal; the disabled operator is disabled after signing in, which must end its session. */
async function principals(): Promise<Record<Principal, ConsoleClient>> {
  const clients = {} as Record<Principal, ConsoleClient>;
  for (const role of ["viewer", "moderator", "admin"] as const) {
    const operator = await createOperator(role);
    clients[role] = new ConsoleClient();
    expect((await clients[role].signIn(operator.email, operator.password)).status).toBe(302);
  }
  const doomed = await createOperator("moderator");
  clients.disabled = new ConsoleClient();
  expect((await clients.disabled.signIn(doomed.email, doomed.password)).headers.get("location")).toMatch(/\/operator$/);
  expect((await clients.disabled.get("/operator/audit")).status).toBe(200);
  const disabled = await operatorCli("disable", ["--email", doomed.email]);
  expect(disabled.stdout).toContain(`Disabled ${doomed.email}`);
  clients.none = new ConsoleClient();
  clients["agent key"] = new ConsoleClient();
  return clients;
}

test("every console page and form against no session, an agent key, a disabled operator, and each role", async ({ request }) => {
  test.setTimeout(120_000);
  const agentKey = await register(request, "matrix", newNetwork());
  const account = (await (await request.get("/v1/me", { headers: as(agentKey) })).json()) as { id: string };
  const clients = await principals();
  const agentHeaders = { authorization: `Bearer ${agentKey}`, accept: "text/html" };
  const headersOf = (who: Principal) => (who === "agent key" ? agentHeaders : {});
  const threadId = await postRoot(request, agentKey);

  const pages = ["/operator", "/operator?q=Matrix", "/operator/audit", "/operator/operators", "/operator/pins", "/operator/reports", "/operator/rules", `/operator/accounts/${account.id}`, `/operator/content/named_message/${threadId}`];
  for (const who of ["none", "agent key", "disabled"] as const) {
    for (const path of pages) {
      const res = await clients[who].get(path, headersOf(who));
      expect(res.status, `${who} GET ${path}`).toBe(307);
      expect(res.headers.get("location"), `${who} GET ${path}`).toBe("/operator/sign-in");
    }
  }
  for (const who of ["viewer", "moderator", "admin"] as const) {
    for (const path of pages) {
      const res = await clients[who].get(path);
      expect(res.status, `${who} GET ${path}`).toBe(200);
      expect(res.headers.get("x-robots-tag")).toBe("noindex, nofollow");
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      const html = await res.text();
      if (path === "/operator/operators") expect(html.includes("may not perform operators.manage"), `${who} sees operators`).toBe(who !== "admin");
    }
  }
  // A viewer's pages are read-only: no moderation form at all.
  const viewerContent = await (await clients.viewer.get(`/operator/content/named_message/${threadId}`)).text();
  expect(viewerContent).toContain("reads only");
  expect(viewerContent).not.toContain('action="/operator/actions/remove-content"');

  const csrf: Partial<Record<Principal, string>> = {};
  for (const who of ["viewer", "moderator", "admin"] as const) {
    csrf[who] = await clients[who].consoleCsrf();
    expect(csrf[who]).toMatch(/^[A-Za-z0-9_-]{43}$/);
  }

  /** One form post; answers where it led and what the page it leads to says. */
  const submit = async (who: Principal, action: string, fields: Record<string, string>) => {
    const res = await clients[who].post(`/operator/actions/${action}`, { csrf_token: csrf[who] ?? "none", return_to: "/operator/audit", reason: `matrix ${who}`, ...fields }, { headers: headersOf(who) });
    expect(res.status, `${who} ${action}`).toBe(303);
    const location = res.headers.get("location")!;
    if (location === "/operator/sign-in") return { signIn: true as const };
    const url = new URL(location, siteOrigin);
    return { signIn: false as const, outcome: url.searchParams.get("outcome"), message: url.searchParams.get("message") ?? "" };
  };

  for (const who of ["none", "agent key", "disabled"] as const) {
    const target = await postRoot(request, agentKey);
    expect(await submit(who, "remove-content", { target_kind: "named_message", target_id: target })).toEqual({ signIn: true });
    expect((await request.get(`/v1/posts/${target}`, { headers: as(agentKey) })).status()).toBe(200);
  }

  // Moderation: the viewer is refused by the service with its reason; moderators and admins act.
  for (const who of ["viewer", "moderator", "admin"] as const) {
    const target = await postRoot(request, agentKey);
    const removal = await submit(who, "remove-content", { target_kind: "named_message", target_id: target });
    if (who === "viewer") {
      expect(removal).toEqual({ signIn: false, outcome: "refused", message: "The viewer role may not perform content.remove; it needs a moderator or an admin." });
      expect((await request.get(`/v1/posts/${target}`, { headers: as(agentKey) })).status()).toBe(200);
    } else {
      expect(removal).toEqual({ signIn: false, outcome: "done", message: "Removed: it is gone for everyone." });
      expect((await request.get(`/v1/posts/${target}`, { headers: as(agentKey) })).status()).toBe(404);
    }
  }
  // Every form of the console: without a session it leads to the sign-in page; a viewer is refused by the service, naming the role.
  const unknown = "00000000-0000-4000-8000-00000000abcd";
  const everyAction: Record<string, Record<string, string>> = {
    "remove-content": { target_kind: "named_message", target_id: threadId },
    "restrict-content": { target_kind: "showcase_item", target_id: unknown },
    "unrestrict-content": { target_kind: "showcase_item", target_id: unknown },
    "restrict-account": { agent_id: account.id },
    "unrestrict-account": { agent_id: account.id },
    "remove-account": { agent_id: account.id, content: "keep" },
    "pin-official": { board: "named", thread_id: threadId },
    "unpin-official": { board: "named", thread_id: threadId },
    "retire-community-pin": { pin_id: unknown },
    "edit-rules": { text: "Viewer edit", base_version_id: "" },
    "resolve-reports": { target_kind: "revision", target_id: unknown, outcome: "dismiss" },
    "link-agent": { agent_id: account.id, role: "viewer" },
    "unlink-agent": { agent_id: account.id },
  };
  for (const [action, fields] of Object.entries(everyAction)) {
    for (const who of ["none", "agent key", "disabled"] as const) expect(await submit(who, action, fields), `${who} ${action}`).toEqual({ signIn: true });
    const refused = await submit("viewer", action, fields);
    expect(refused, `viewer ${action}`).toMatchObject({ outcome: "refused", message: expect.stringMatching(/^The viewer role may not perform [a-z_.]+; it needs (a moderator or an admin|an admin)\.$/) });
  }
  expect((await request.get(`/v1/posts/${threadId}`, { headers: as(agentKey) })).status()).toBe(200);
  expect((await request.get("/v1/me", { headers: as(agentKey) })).status()).toBe(200);

  // Rules: authorization comes before the version check, so an allowed role meets the stale base's 409 and nothing is saved.
  const staleBase = "00000000-0000-4000-8000-000000000000";
  const rulesBefore = await (await request.get("/v1/rules", { headers: as(agentKey) })).json();
  for (const who of ["viewer", "moderator", "admin"] as const) {
    const edit = await submit(who, "edit-rules", { text: "Stale edit", base_version_id: staleBase });
    expect(edit.signIn).toBe(false);
    if (who === "viewer") expect(edit).toMatchObject({ outcome: "refused", message: "The viewer role may not perform rules.edit; it needs a moderator or an admin." });
    else expect(edit).toMatchObject({ outcome: "refused", message: expect.stringContaining("Another rules version was saved after the one you edited") });
  }
  // The longest rules text in a script of three UTF-8 bytes a character is nine bytes a character once the form is encoded: it still reaches the service.
  const longest = await submit("moderator", "edit-rules", { text: "語".repeat(20_000), base_version_id: staleBase });
  expect(longest).toMatchObject({ outcome: "refused", message: expect.stringContaining("Another rules version was saved after the one you edited") });
  expect(await (await request.get("/v1/rules", { headers: as(agentKey) })).json()).toEqual(rulesBefore);
  // Administration: only admins link agent accounts to a role.
  for (const who of ["viewer", "moderator", "admin"] as const) {
    const link = await submit(who, "link-agent", { agent_id: account.id, role: "viewer" });
    if (who === "admin") expect(link).toMatchObject({ outcome: "done", message: "Linked as viewer." });
    else expect(link).toMatchObject({ outcome: "refused", message: `The ${who} role may not perform agent_links.manage; it needs an admin.` });
  }
  expect(await submit("admin", "unlink-agent", { agent_id: account.id })).toMatchObject({ outcome: "done", message: "Unlinked." });
});

test("console forms need this site's Origin and the session's CSRF token", async ({ request }) => {
  const agentKey = await register(request, "csrf", newNetwork());
  const moderator = await createOperator("moderator");
  const client = new ConsoleClient();
  await client.signIn(moderator.email, moderator.password);
  const csrf = await client.consoleCsrf();
  const other = new ConsoleClient();
  const otherOperator = await createOperator("moderator");
  await other.signIn(otherOperator.email, otherOperator.password);
  const otherCsrf = await other.consoleCsrf();
  expect(otherCsrf).not.toBe(csrf);

  const target = await postRoot(request, agentKey);
  const form = { target_kind: "named_message", target_id: target, reason: "origin check", return_to: "/operator" };
  const refusals: Array<[string, Response, number, string]> = [
    ["no Origin", await client.post("/operator/actions/remove-content", { ...form, csrf_token: csrf }, { origin: null }), 403, "ORIGIN_MISMATCH"],
    ["another site's Origin", await client.post("/operator/actions/remove-content", { ...form, csrf_token: csrf }, { origin: "https://evil.example" }), 403, "ORIGIN_MISMATCH"],
    ["sign-in from another site", await client.post("/operator/auth/callback/credentials", { email: moderator.email, password: moderator.password, csrfToken: "x" }, { origin: "https://evil.example" }), 403, "ORIGIN_MISMATCH"],
  ];
  for (const [what, res, status, code] of refusals) {
    expect(res.status, what).toBe(status);
    expect(((await res.json()) as { error: { code: string } }).error.code, what).toBe(code);
  }
  // A form from this site without this session's token (opened before signing in again) does
  // nothing, and the page it came from says why.
  for (const [what, csrfToken, message] of [
    ["no CSRF token", undefined, "Nothing was done: the form carried no security token. Fill it in again on this page and submit."],
    ["another session's CSRF token", otherCsrf, "Nothing was done: this form was opened before you last signed in, so its security token is out of date. Fill it in again on this page and submit."],
  ] as const) {
    const res = await client.post("/operator/actions/remove-content", { ...form, ...(csrfToken ? { csrf_token: csrfToken } : {}), return_to: "/operator" });
    expect(res.status, what).toBe(303);
    const location = new URL(res.headers.get("location")!, "http://console.test");
    expect([location.pathname, location.searchParams.get("outcome"), location.searchParams.get("message")], what).toEqual(["/operator", "refused", message]);
    expect(await (await client.get(`${location.pathname}${location.search}`)).text(), what).toContain("Nothing was done:");
  }
  expect((await request.get(`/v1/posts/${target}`, { headers: as(agentKey) })).status()).toBe(200);
  // A form returns only to console pages: another site's address leads to the console's start.
  const accepted = await client.post("/operator/actions/remove-content", { ...form, csrf_token: csrf, return_to: "//evil.example/operator" });
  expect(accepted.status).toBe(303);
  expect(accepted.headers.get("location")).toMatch(/^\/operator\?outcome=done&message=Removed/);
  // The audit entry names the form post's request id, which the response also carries.
  const requestId = accepted.headers.get("x-request-id");
  expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
  expect(await (await client.get(`/operator/audit?target_id=${target}`)).text()).toContain(`(request ${requestId})`);
  expect((await request.get(`/v1/posts/${target}`, { headers: as(agentKey) })).status()).toBe(404);
});

test("sign-in through the form is throttled after repeated failures, and a password change ends sessions at once", async ({ page }) => {
  const operator = await createOperator("viewer");
  // A network of its own (the server trusts one proxy hop), so earlier failures elsewhere do not count.
  await page.setExtraHTTPHeaders({ "x-forwarded-for": newNetwork() });
  for (let attempt = 1; attempt <= 6; attempt++) {
    await signIn(page, operator.email, "wrong password entirely");
    await expect(page.locator(".outcome-refused")).toHaveText("Wrong email or password, or this operator is disabled.");
  }
  // The sixth failure started a two-second wait: even the right password waits.
  await signIn(page, operator.email, operator.password);
  await expect(page.locator(".outcome-refused")).toHaveText(/^Too many failed sign-ins from this account or network: wait [12] seconds, then try again\.$/);
  await page.waitForTimeout(2_500);
  await signIn(page, operator.email, operator.password);
  await expect(page).toHaveURL(/\/operator$/);
  await page.goto("/operator/audit");
  await expect(page.getByRole("heading", { level: 1, name: "Audit log" })).toBeVisible();

  const reset = await operatorCli("reset-password", ["--email", operator.email], `new-${randomBytes(12).toString("hex")}`);
  expect(reset.stdout).toContain("its console sessions have ended");
  expect(reset.stdout).not.toContain("stays disabled");
  await page.goto("/operator/audit");
  await expect(page).toHaveURL(/\/operator\/sign-in/);

  // A disabled operator's new password opens nothing, and the command says so.
  expect((await operatorCli("disable", ["--email", operator.email])).code).toBe(0);
  const afterDisable = await operatorCli("reset-password", ["--email", operator.email], `newer-${randomBytes(12).toString("hex")}`);
  expect(afterDisable.stdout).toContain(`${operator.email} stays disabled: disabling is final`);
});

test("signing out ends the session: a copy of its cookie opens nothing afterwards, while another sign-in of the same operator goes on", async ({ page }) => {
  const operator = await createOperator("moderator");
  await page.setExtraHTTPHeaders({ "x-forwarded-for": newNetwork() });
  await signIn(page, operator.email, operator.password);
  await expect(page).toHaveURL(/\/operator$/);
  const session = (await page.context().cookies()).find((cookie) => cookie.name === "__Secure-board-operator.session");
  expect(session?.value).toBeTruthy();
  const copy = new ConsoleClient();
  copy.adoptCookie(session!.name, session!.value);
  expect((await copy.get("/operator/audit")).status).toBe(200);
  const elsewhere = new ConsoleClient();
  expect((await elsewhere.signIn(operator.email, operator.password)).status).toBe(302);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/operator\/sign-in/);
  const refused = await copy.get("/operator/audit");
  expect(refused.status).toBe(307);
  expect(refused.headers.get("location")).toMatch(/\/operator\/sign-in$/);
  // next-auth's own session endpoint names no operator for the copy either.
  expect(((await (await copy.get("/operator/auth/session")).json()) as { operator?: unknown }).operator).toBeUndefined();
  expect(await (await elsewhere.get("/operator/auth/session")).json()).toMatchObject({ operator: { email: operator.email } });
  expect((await elsewhere.get("/operator/audit")).status).toBe(200);
});

import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BoardClient, startTestServer, uniqueName, type TestServer } from "@board/testkit";

let server: TestServer;
const fixedNow = new Date("2026-11-22T18:30:15.000Z");

beforeAll(async () => {
  server = await startTestServer({ clock: () => fixedNow });
});
afterAll(() => server.close());

const client = () => new BoardClient(server.baseUrl);

describe("POST /v1/agents", () => {
  test("201 with id, name, api_key, instructions, participation_basis; only a hash is stored", async () => {
    const name = uniqueName();
    const res = await client().post("/v1/agents", { name, description: "d", discovered_via: "a friend", participation_basis: "autonomous_discovery" });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(["api_key", "id", "instructions", "name", "participation_basis"]);
    expect(res.body).toMatchObject({ name, participation_basis: "autonomous_discovery" });
    expect(res.body.api_key).toMatch(/^ab1_[A-Za-z0-9_-]{43}$/);
    expect(res.body.instructions).toContain("X-Agent-Protocol: board/1");
    const stored = await server.app.deps.db.prisma.agent.findUniqueOrThrow({ where: { id: res.body.id }, select: { apiKeyHash: true, description: true, discoveredVia: true } });
    expect(stored.apiKeyHash).toBe(createHash("sha256").update(res.body.api_key).digest("hex"));
    expect(JSON.stringify(stored)).not.toContain(res.body.api_key);
    expect(stored).toMatchObject({ description: "d", discoveredVia: "a friend" });
  });

  test("registration needs no Authorization header but does need the protocol headers", async () => {
    const res = await client().post("/v1/agents", { name: uniqueName(), participation_basis: "owner_directed" }, { "x-agent-protocol": "" });
    expect(res.body.error.code).toBe("PROTOCOL_REQUIRED");
  });

  test("exactly 3 and exactly 40 characters are accepted", async () => {
    const three = Math.random().toString(36).slice(2, 5).replace(/^[^a-z0-9]/, "a");
    const forty = `z${Math.random().toString(36).slice(2)}`.padEnd(40, "0").slice(0, 40);
    const a = await client().post("/v1/agents", { name: three, participation_basis: "owner_directed" });
    const b = await client().post("/v1/agents", { name: forty, participation_basis: "owner_directed" });
    expect([201, 409]).toContain(a.status);
    expect(b.status).toBe(201);
    expect(b.body.name).toHaveLength(40);
  });

  test.each([
    ["too short", "ab"],
    ["too long (41)", "a".repeat(41)],
    ["upper case", "Alice-bot"],
    ["leading hyphen", "-alice"],
    ["underscore", "alice_bot"],
    ["space", "alice bot"],
    ["non-ASCII", "älice"],
  ])("name %s is 400 VALIDATION_FAILED on field name", async (_label, name) => {
    const res = await client().post("/v1/agents", { name, participation_basis: "owner_directed" });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_FAILED");
    expect(res.body.error.details.issues.map((i: { field: string }) => i.field)).toContain("name");
  });

  test("a taken name is 409 NAME_TAKEN", async () => {
    const name = uniqueName();
    expect((await client().post("/v1/agents", { name, participation_basis: "owner_directed" })).status).toBe(201);
    const again = await client().post("/v1/agents", { name, participation_basis: "standing_authorization" });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: "NAME_TAKEN", details: { field: "name" } });
  });

  test("parallel registrations of one name create exactly one account", async () => {
    const name = uniqueName();
    const results = await Promise.all(Array.from({ length: 6 }, () => client().post("/v1/agents", { name, participation_basis: "owner_directed" })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(await server.app.deps.db.prisma.agent.count({ where: { name } })).toBe(1);
  });

  test.each([
    ["description 241 chars", { description: "d".repeat(241) }, "description"],
    ["discovered_via 101 chars", { discovered_via: "v".repeat(101) }, "discovered_via"],
    ["unknown participation_basis", { participation_basis: "because" }, "participation_basis"],
    ["operator_authorized false", { participation_basis: undefined, operator_authorized: false }, "operator_authorized"],
    ["neither basis nor operator_authorized", { participation_basis: undefined }, "participation_basis"],
    ["an unknown property", { favourite_colour: "blue" }, "favourite_colour"],
    ["NUL in description", { description: "a\u0000" }, "description"],
    ["an unpaired surrogate in discovered_via", { discovered_via: "\ud800" }, "discovered_via"],
  ])("%s is 400 naming the field", async (_label, extra, field) => {
    const res = await client().post("/v1/agents", { name: uniqueName(), participation_basis: "owner_directed", ...extra });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_FAILED");
    expect(res.body.error.details.issues.map((i: { field: string }) => i.field)).toContain(field);
  });

  test("description of 240 and discovered_via of 100 code points are accepted, astral characters counting once", async () => {
    const res = await client().post("/v1/agents", { name: uniqueName(), participation_basis: "owner_directed", description: "😀".repeat(240), discovered_via: "v".repeat(100) });
    expect(res.status).toBe(201);
    const tooLong = await client().post("/v1/agents", { name: uniqueName(), participation_basis: "owner_directed", description: "😀".repeat(241) });
    expect(tooLong.body.error).toMatchObject({ code: "VALIDATION_FAILED", details: { issues: [{ field: "description" }] } });
  });

  test.each(["autonomous_discovery", "standing_authorization"])("operator_authorized: true with participation_basis %s is 400 VALIDATION_FAILED naming both fields; nothing is stored", async (basis) => {
    const name = uniqueName();
    const res = await client().post("/v1/agents", { name, operator_authorized: true, participation_basis: basis });
    expect(res.status).toBe(400);
    const message = `operator_authorized: true means participation_basis owner_directed, which contradicts participation_basis ${basis}; send participation_basis alone (operator_authorized is deprecated)`;
    expect(res.body.error).toMatchObject({ code: "VALIDATION_FAILED", details: { issues: [{ field: "participation_basis", message }, { field: "operator_authorized", message }] } });
    expect(await server.app.deps.db.prisma.agent.count({ where: { name } })).toBe(0);
  });

  test("operator_authorized: true with participation_basis owner_directed (the same value both ways) is accepted", async () => {
    const res = await client().post("/v1/agents", { name: uniqueName(), operator_authorized: true, participation_basis: "owner_directed" });
    expect(res.status).toBe(201);
    expect(res.body.participation_basis).toBe("owner_directed");
  });

  test("a missing participation_basis names the deprecated alternative too", async () => {
    const res = await client().post("/v1/agents", { name: uniqueName() });
    expect(res.body.error.details.issues).toEqual([
      { field: "participation_basis", message: "send participation_basis (owner_directed, standing_authorization or autonomous_discovery); the deprecated operator_authorized: true is still accepted as owner_directed" },
    ]);
  });

  test("legacy operator_authorized: true is accepted as owner_directed", async () => {
    const res = await client().post("/v1/agents", { name: uniqueName(), operator_authorized: true });
    expect(res.status).toBe(201);
    expect(res.body.participation_basis).toBe("owner_directed");
  });
});

describe("GET /v1/me", () => {
  test("every §2.1 field, with an exact posting quota resetting at the next UTC midnight", async () => {
    const agent = client();
    const registered = await agent.register();
    const res = await agent.get("/v1/me");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: registered.id,
      name: registered.name,
      karma: 0,
      rules_notice: { url: `${server.baseUrl}/v1/rules` },
      posting_quota: { limit: 500, used: 0, remaining: 500, as_of: Math.floor(fixedNow.getTime() / 1000), resets_at: Date.UTC(2026, 10, 23) / 1000 },
      publication_lookup: { url: `${server.baseUrl}/v1/me/publications/lookup`, header: "Idempotency-Key" },
      inbox: { read_url: `${server.baseUrl}/v1/inbox`, read_through: 0 },
    });
    expect(res.body.rules_notice.text).toEqual(expect.any(String));
    expect(res.body.voting).toMatchObject({ status: "allowed", daily_limit: 20, remaining_today: 20 });
    expect(res.body.pinning).toMatchObject({ status: "not_veteran", can_pin: false });
    expect(res.body).not.toHaveProperty("api_key");
  });

  test("an unknown key is 401", async () => {
    const res = await new BoardClient(server.baseUrl, undefined, "ab1_" + "A".repeat(43)).get("/v1/me");
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("UNAUTHORIZED");
  });
});

describe("POST /v1/me/revoke", () => {
  test("the key is dead at once and stays dead", async () => {
    const agent = client();
    const { id } = await agent.register();
    const res = await agent.call("POST", "/v1/me/revoke");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, revoked: true, contributions_remain: true, revoked_at: Math.floor(fixedNow.getTime() / 1000) });
    const after = await agent.get("/v1/me");
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe("UNAUTHORIZED");
    expect((await agent.call("POST", "/v1/me/revoke")).status).toBe(401);
    const row = await server.app.deps.db.prisma.agent.findUniqueOrThrow({ where: { id }, select: { revokedAt: true } });
    expect(row.revokedAt).toEqual(fixedNow);
  });

  test("revoke takes no payload: a property is 400 VALIDATION_FAILED naming it and revokes nothing; {} and an empty JSON body revoke", async () => {
    const agent = client();
    const { id } = await agent.register();
    const refused = await agent.post("/v1/me/revoke", { x: 1 });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: "VALIDATION_FAILED", details: { issues: [{ field: "x" }] } });
    expect((await server.app.deps.db.prisma.agent.findUniqueOrThrow({ where: { id }, select: { revokedAt: true } })).revokedAt).toBeNull();
    expect((await agent.get("/v1/me")).status).toBe(200);
    expect((await agent.get("/v1/me?x=1")).body.error).toMatchObject({ code: "VALIDATION_FAILED", details: { issues: [{ field: "x" }] } });
    expect((await agent.get("/v1/rules?x=1")).body.error).toMatchObject({ code: "VALIDATION_FAILED", details: { issues: [{ field: "x" }] } });
    expect((await agent.call("POST", "/v1/me/revoke", { rawBody: "", headers: { "content-type": "application/json" } })).status).toBe(200);
    const other = client();
    await other.register();
    expect((await other.post("/v1/me/revoke", {})).status).toBe(200);
  });

  test("a key revoked on another instance, still in this one's read cache, writes nothing", async () => {
    // Another instance's revocation reaches this one's cached account only when the entry expires.
    const cached = await startTestServer({ cacheMs: 60_000, showcaseActivatedAt: new Date() });
    try {
      const [agent, author] = [new BoardClient(cached.baseUrl), new BoardClient(cached.baseUrl)];
      const { id } = await agent.register();
      await author.register();
      const target = await author.post("/v1/posts", { title: "A thread", body: "to vote on" }, { "idempotency-key": `k_${id.replace(/-/g, "")}` });
      expect((await agent.get("/v1/me")).status).toBe(200);
      await cached.app.deps.db.prisma.agent.update({ where: { id }, data: { revokedAt: new Date() } });
      const writes = [
        await agent.post("/v1/posts", { title: "After revocation", body: "b" }, { "idempotency-key": `r_${id.replace(/-/g, "")}` }),
        await agent.post("/ballot", { board: "named", post_id: target.body.id, value: 1 }),
      ];
      for (const res of writes) expect(res.body.error?.code).toBe("UNAUTHORIZED");
      expect(await cached.app.deps.db.prisma.message.count({ where: { agentId: id } })).toBe(0);
      expect(await cached.app.deps.db.prisma.vote.count({ where: { voterId: id } })).toBe(0);
    } finally {
      await cached.close();
    }
  });
});

describe("GET /v1/rules", () => {
  test("returns the current rules text; needs a key", async () => {
    const agent = client();
    await agent.register();
    const res = await agent.get("/v1/rules");
    expect(res.status).toBe(200);
    // Another test file's operator may have published new rules in the shared database: any current text will do.
    expect(res.body.text.length).toBeGreaterThan(0);
    expect(res.body.updated_at).toEqual(expect.any(Number));
    expect(res.body.url).toBe(`${server.baseUrl}/v1/rules`);
    expect((await client().get("/v1/rules")).status).toBe(401);
  });
});

describe("limits on accounts (§8)", () => {
  test("registrations per network per UTC day count successes only: 429 DAILY_LIMIT with Retry-After to midnight", async () => {
    const capped = await startTestServer({ limits: { registrationsPerNetworkPerDay: 2 }, clock: () => fixedNow });
    try {
      const network = client().network;
      const on = () => new BoardClient(capped.baseUrl, network);
      expect((await on().post("/v1/agents", { name: "x" })).status).toBe(400);
      expect((await on().post("/v1/agents", { name: uniqueName(), participation_basis: "owner_directed" })).status).toBe(201);
      expect((await on().post("/v1/agents", { name: uniqueName(), participation_basis: "owner_directed" })).status).toBe(201);
      const third = await on().post("/v1/agents", { name: uniqueName(), participation_basis: "owner_directed" });
      expect(third.status).toBe(429);
      expect(third.body.error).toMatchObject({ code: "DAILY_LIMIT", details: { limit: 2, scope: "registrations_per_network", resets_at: Date.UTC(2026, 10, 23) / 1000 } });
      expect(third.headers.get("retry-after")).toBe(String(Date.UTC(2026, 10, 23) / 1000 - fixedNow.getTime() / 1000));
      expect((await new BoardClient(capped.baseUrl).post("/v1/agents", { name: uniqueName(), participation_basis: "owner_directed" })).status).toBe(201);
    } finally {
      await capped.close();
    }
  });

  test("the retained-account cap refuses registration with 503 CAPACITY_EXHAUSTED; revoked accounts still count", async () => {
    const full = await startTestServer({ ownDatabase: true, limits: { retainedAccounts: 2 } });
    try {
      const first = new BoardClient(full.baseUrl);
      await first.register();
      await new BoardClient(full.baseUrl).register();
      expect((await first.post("/v1/me/revoke", {})).status).toBe(200);
      const res = await new BoardClient(full.baseUrl).post("/v1/agents", { name: uniqueName(), participation_basis: "owner_directed" });
      expect(res.status).toBe(503);
      expect(res.body.error).toMatchObject({ code: "CAPACITY_EXHAUSTED", message: "The board holds its maximum of 2 accounts; registration is closed until an operator raises the limit.", details: { limit: 2, scope: "retained_accounts" } });
      expect(res.headers.get("retry-after")).toBe("3600");
    } finally {
      await full.close();
    }
  });
});

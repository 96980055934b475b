import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { BoardError } from "@board/domain";
import { changePin, listPins, pinOfficialNotice, revokeApiKey, type AgentActor } from "@board/services";
import { authorizeOAuthClient, BoardClient, makeAgent, post, reply, sendWhileHeld, startTestServer, type TestServer } from "@board/testkit";

// A far-future clock keeps these pins apart from pins other test files create at the real time.
let now = new Date("2031-03-01T12:00:00Z");
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ clock: () => now, oauth: true });
});
afterEach(async () => {
  await server.app.deps.db.prisma.pin.deleteMany({ where: { createdAt: { gte: new Date("2031-01-01T00:00:00Z") } } });
  now = new Date("2031-03-01T12:00:00Z");
});
afterAll(() => server.close());

async function veteran(options: { oauth?: boolean; karma?: number } = {}) {
  const made = await makeAgent(server.app.deps.db, { ageDays: 10, karma: options.karma ?? 10, veteran: true, now });
  const actor: AgentActor = { kind: "agent", agentId: made.id, name: made.name, role: "agent", createdAt: now, via: options.oauth === false ? "api_key" : "oauth", scopes: ["board:read", "board:write"], network: "test" };
  const client = new BoardClient(server.baseUrl, undefined, made.apiKey);
  return { ...made, actor, client };
}

async function rootThread() {
  const author = new BoardClient(server.baseUrl);
  await author.register();
  return { author, root: await post(author) };
}

async function pinError(promise: Promise<unknown>): Promise<BoardError> {
  try {
    await promise;
  } catch (error) {
    return error as BoardError;
  }
  throw new Error("expected a refusal");
}

const pin = (actor: AgentActor, thread_id: string, pinned = true, board: "named" | "b" = "named") => changePin(server.app.deps, actor, { board, thread_id, pinned });

/** A veteran with an OAuth access token (board:write) over HTTP, and its API-key client for /v1/me. */
async function httpVeteran() {
  const v = await veteran();
  const oauth = await authorizeOAuthClient(server.baseUrl, v.apiKey);
  const pins = new BoardClient(server.baseUrl, undefined, oauth.tokens()!.access_token);
  return { ...v, pins, pinHttp: (thread_id: string, pinned = true) => pins.post("/pins", { board: "named", thread_id, pinned }) };
}

const activePinsOn = (threadId: string) => server.app.deps.db.prisma.pin.count({ where: { threadId, endedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] } });
const unix = (d: Date) => Math.floor(d.getTime() / 1000);

describe("community pins (§3.4, §4.4)", () => {
  test("a veteran pins a root thread for 7 days; an exact retry changes nothing and does not extend expiry", async () => {
    const v = await veteran();
    const { root } = await rootThread();
    const created = await pin(v.actor, root.id);
    const sevenDays = Math.floor(now.getTime() / 1000) + 604_800;
    expect(created).toEqual({ board: "named", thread_id: root.id, kind: "community", pinned: true, replayed: false, expires_at: sevenDays });
    now = new Date(now.getTime() + 3_600_000);
    expect(await pin(v.actor, root.id)).toMatchObject({ replayed: true, expires_at: sevenDays });
    const listed = await listPins(server.app.deps, "named");
    expect(listed.pins.map((p) => p.thread_id)).toContain(root.id);
  });

  test("raw API keys cannot change pins (403 OAUTH_WRITE_REQUIRED), also over HTTP", async () => {
    const v = await veteran({ oauth: false });
    const { root } = await rootThread();
    expect((await pinError(pin(v.actor, root.id))).code).toBe("OAUTH_WRITE_REQUIRED");
    const res = await v.client.post("/pins", { board: "named", thread_id: root.id, pinned: true });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("OAUTH_WRITE_REQUIRED");
  });

  test("a pin without any credential is 401 telling the caller to send an OAuth token, not an API key", async () => {
    const { root } = await rootThread();
    const res = await new BoardClient(server.baseUrl).post("/pins", { board: "named", thread_id: root.id, pinned: true });
    expect(res.status).toBe(401);
    expect(res.body.error).toMatchObject({ code: "UNAUTHORIZED", message: "Send Authorization: Bearer <OAuth access token> with the board:write scope; API keys cannot change pins (connect through OAuth, see /docs)." });
  });

  test("non-veterans get 403 NOT_VETERAN; replies cannot be pinned; unknown threads 404", async () => {
    const made = await makeAgent(server.app.deps.db, { ageDays: 1, karma: 0, now });
    const actor: AgentActor = { kind: "agent", agentId: made.id, name: made.name, role: "agent", createdAt: now, via: "oauth", scopes: ["board:write"], network: "t" };
    const { author, root } = await rootThread();
    expect((await pinError(pin(actor, root.id))).code).toBe("NOT_VETERAN");
    const v = await veteran();
    const r = await reply(author, root.id);
    expect((await pinError(pin(v.actor, r.id))).code).toBe("NOT_ROOT_THREAD");
    expect((await pinError(pin(v.actor, "00000000-0000-4000-8000-000000000000"))).code).toBe("NOT_FOUND");
  });

  test("one active pin per veteran, one new pin per UTC day (no refund after unpinning)", async () => {
    const v = await veteran();
    const [{ root: a }, { root: b }] = await Promise.all([rootThread(), rootThread()]);
    await pin(v.actor, a.id);
    const second = await pinError(pin(v.actor, b.id));
    expect(second.code).toBe("PIN_CONFLICT");
    expect(second.details).toMatchObject({ reason_code: "PIN_LIMIT_PER_VETERAN" });
    expect(await pin(v.actor, a.id, false)).toMatchObject({ pinned: false });
    const again = await pinError(pin(v.actor, b.id));
    expect([again.code, again.details]).toMatchObject(["DAILY_LIMIT", { scope: "pins_per_account", limit: 1 }]);
    expect(again.retryAfterSeconds).toBeGreaterThan(0);
    now = new Date("2031-03-02T00:00:01Z");
    expect(await pin(v.actor, b.id)).toMatchObject({ pinned: true });
  });

  test("three community slots across both boards; official pins are outside capacity and listed first", async () => {
    const vets = await Promise.all([veteran(), veteran(), veteran(), veteran()]);
    const threads = await Promise.all([rootThread(), rootThread(), rootThread(), rootThread()]);
    const anon = await new BoardClient(server.baseUrl).post("/b/threads", { title: "b", body: "b" });
    await pin(vets[0]!.actor, threads[0]!.root.id);
    await pin(vets[1]!.actor, threads[1]!.root.id);
    await pin(vets[2]!.actor, anon.body.id, true, "b");
    const full = await pinError(pin(vets[3]!.actor, threads[3]!.root.id));
    expect(full.code).toBe("PIN_CONFLICT");
    expect(full.details).toMatchObject({ reason_code: "PIN_CAPACITY" });
    await server.app.deps.db.prisma.pin.create({ data: { board: "named", threadId: threads[2]!.root.id, kind: "official", createdAt: now } });
    const listed = await listPins(server.app.deps, "named");
    expect(listed.pins[0]).toMatchObject({ kind: "official", thread_id: threads[2]!.root.id, expires_at: null });
    expect(listed.pins.slice(1).map((p) => p.kind)).toEqual(["community", "community"]);
    expect((await listPins(server.app.deps, "b")).pins.map((p) => p.thread_id)).toEqual([anon.body.id]);
  });

  test("pins expire after exactly 7 days", async () => {
    const v = await veteran();
    const { root } = await rootThread();
    await pin(v.actor, root.id);
    now = new Date(now.getTime() + 604_800_000 - 1);
    expect((await listPins(server.app.deps, "named")).pins.map((p) => p.thread_id)).toContain(root.id);
    now = new Date(now.getTime() + 1);
    expect((await listPins(server.app.deps, "named")).pins.map((p) => p.thread_id)).not.toContain(root.id);
  });

  test("karma <= -5 suspends pinning and retires community pins; the owner may still unpin; karma >= 5 restores the role, not the pins", async () => {
    const v = await veteran({ karma: 10 });
    const { root } = await rootThread();
    await pin(v.actor, root.id);
    await server.app.deps.db.prisma.agent.update({ where: { id: v.id }, data: { karma: -5 } });
    const refused = await pinError(pin(v.actor, root.id));
    expect(refused.code).toBe("PINNING_SUSPENDED");
    expect((await listPins(server.app.deps, "named")).pins.map((p) => p.thread_id)).not.toContain(root.id);
    const stored = await server.app.deps.db.prisma.agent.findUniqueOrThrow({ where: { id: v.id }, select: { pinningSuspendedAt: true } });
    expect(stored.pinningSuspendedAt).not.toBeNull();
    await server.app.deps.db.prisma.agent.update({ where: { id: v.id }, data: { karma: 5 } });
    now = new Date("2031-03-02T01:00:00Z");
    const { root: other } = await rootThread();
    expect(await pin(v.actor, other.id)).toMatchObject({ pinned: true });
    expect((await listPins(server.app.deps, "named")).pins.map((p) => p.thread_id)).not.toContain(root.id);
  });

  test("unpinning an active pin is free even while pinning is suspended", async () => {
    const v = await veteran({ karma: 10 });
    const { root } = await rootThread();
    await pin(v.actor, root.id);
    await server.app.deps.db.prisma.agent.update({ where: { id: v.id }, data: { pinningSuspendedAt: now, karma: 0 } });
    expect(await pin(v.actor, root.id, false)).toMatchObject({ pinned: false });
  });

  test("revoking the key retires the account's pins", async () => {
    const v = await veteran();
    const { root } = await rootThread();
    await pin(v.actor, root.id);
    await revokeApiKey(server.app.deps, v.actor);
    expect((await listPins(server.app.deps, "named")).pins.map((p) => p.thread_id)).not.toContain(root.id);
  });

  test("official notices: operators only, root threads only, permanent, listed first, outside community capacity", async () => {
    const operator = await makeAgent(server.app.deps.db, { role: "operator", now });
    const operatorActor: AgentActor = { kind: "agent", agentId: operator.id, name: operator.name, role: "operator", createdAt: now, via: "api_key", scopes: ["board:read", "board:write"], network: "t" };
    const vets = await Promise.all([veteran(), veteran(), veteran()]);
    const threads = await Promise.all([rootThread(), rootThread(), rootThread(), rootThread()]);
    for (const [i, v] of vets.entries()) await pin(v.actor, threads[i]!.root.id);
    const official = await pinOfficialNotice(server.app.deps, operatorActor, "named", threads[3]!.root.id, "Read the rules");
    expect(official).toMatchObject({ kind: "official", thread_id: threads[3]!.root.id });
    const listed = (await listPins(server.app.deps, "named")).pins;
    expect(listed[0]).toMatchObject({ kind: "official", thread_id: threads[3]!.root.id, expires_at: null });
    expect(listed.filter((p) => p.kind === "community")).toHaveLength(3);
    const plain = await veteran();
    expect((await pinError(pinOfficialNotice(server.app.deps, { ...plain.actor, via: "api_key" }, "named", threads[0]!.root.id))).code).toBe("OPERATOR_ONLY");
    const r = await reply(threads[0]!.author, threads[0]!.root.id);
    expect((await pinError(pinOfficialNotice(server.app.deps, operatorActor, "named", r.id))).code).toBe("NOT_FOUND");
    await server.app.deps.db.prisma.pin.deleteMany({ where: { kind: "official", threadId: threads[3]!.root.id } });
  });

  /** The pin's outcome: "pinned", or the code it was refused with. */
  const outcomeOf = (placing: Promise<unknown>) =>
    placing.then(
      () => "pinned",
      (error: BoardError) => error.code,
    );

  test.each(["community", "official"] as const)("%s pin racing its thread's removal waits for it and is refused: no pin outlives its thread", async (kind) => {
    const { root } = await rootThread();
    const pinner = await veteran();
    const operator = await makeAgent(server.app.deps.db, { now });
    const operatorActor: AgentActor = { kind: "agent", agentId: operator.id, name: operator.name, role: "operator", createdAt: now, via: "api_key", scopes: ["board:read", "board:write"], network: "t" };
    // A removal that has marked the thread deleted (and found no pin to end) but not yet committed.
    const { answer } = await sendWhileHeld(
      server.app.deps.db,
      (tx) => tx.message.update({ where: { id: root.id }, data: { deletedAt: now }, select: { id: true } }),
      () => outcomeOf(kind === "community" ? pin(pinner.actor, root.id) : pinOfficialNotice(server.app.deps, operatorActor, "named", root.id)),
    );
    expect(answer).toBe("NOT_FOUND");
    expect(await server.app.deps.db.prisma.pin.count({ where: { threadId: root.id, endedAt: null } })).toBe(0);
  });

  test("a pin racing its owner's revocation waits for it and is refused: no revoked account keeps a pin", async () => {
    const { root } = await rootThread();
    const pinner = await veteran();
    // A revocation that has marked the account (and found no pin to retire) but not yet committed.
    const { answer } = await sendWhileHeld(
      server.app.deps.db,
      (tx) => tx.agent.update({ where: { id: pinner.id }, data: { revokedAt: now }, select: { id: true } }),
      () => outcomeOf(pin(pinner.actor, root.id)),
    );
    expect(answer).toBe("UNAUTHORIZED");
    expect(await server.app.deps.db.prisma.pin.count({ where: { ownerId: pinner.id, endedAt: null } })).toBe(0);
  });

  test("a thread holds one pin: another veteran pinning it is 409 PIN_CONFLICT ALREADY_PINNED naming the holder, and costs no daily pin", async () => {
    const [alice, carol] = await Promise.all([httpVeteran(), httpVeteran()]);
    const [{ root }, { root: other }] = await Promise.all([rootThread(), rootThread()]);
    const first = await alice.pinHttp(root.id);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ board: "named", thread_id: root.id, kind: "community", pinned: true, replayed: false, expires_at: unix(now) + 604_800 });
    const second = await carol.pinHttp(root.id);
    expect(second.status).toBe(409);
    expect(second.body.error).toEqual({
      code: "PIN_CONFLICT",
      message: `This thread is already pinned by veteran ${alice.name} until ${new Date(now.getTime() + 604_800_000).toISOString()}; a thread holds one pin at a time. Pick another thread (see GET /pins); no daily pin was used.`,
      details: { reason_code: "ALREADY_PINNED", board: "named", thread_id: root.id, held_by: { kind: "community", pinned_by: alice.name, expires_at: unix(now) + 604_800 } },
    });
    expect(await activePinsOn(root.id)).toBe(1);
    const listed = await new BoardClient(server.baseUrl).get("/pins");
    expect(listed.body.pins.filter((p: { thread_id: string }) => p.thread_id === root.id)).toHaveLength(1);
    // The owner's exact retry is still a free replay; carol's day's pin is untouched.
    expect((await alice.pinHttp(root.id)).body).toMatchObject({ pinned: true, replayed: true });
    const carolsOwn = await carol.pinHttp(other.id);
    expect(carolsOwn.status).toBe(200);
    expect(carolsOwn.body).toMatchObject({ pinned: true, replayed: false });
  });

  test("a thread holding an official notice cannot also take a community pin (409 ALREADY_PINNED, held_by official)", async () => {
    const carol = await httpVeteran();
    const { root } = await rootThread();
    await server.app.deps.db.prisma.pin.create({ data: { board: "named", threadId: root.id, kind: "official", createdAt: now } });
    const res = await carol.pinHttp(root.id);
    expect(res.status).toBe(409);
    expect(res.body.error.details).toEqual({ reason_code: "ALREADY_PINNED", board: "named", thread_id: root.id, held_by: { kind: "official" } });
    expect(res.body.error.message).toContain("already pinned by an official notice");
    expect(await server.app.deps.db.prisma.pin.count({ where: { threadId: root.id, kind: "community" } })).toBe(0);
    await server.app.deps.db.prisma.pin.deleteMany({ where: { kind: "official", threadId: root.id } });
  });

  test("two veterans pinning the same thread at once: exactly one pin lands, the other is 409 ALREADY_PINNED", async () => {
    const [alice, carol] = await Promise.all([httpVeteran(), httpVeteran()]);
    const { root } = await rootThread();
    const answers = await Promise.all([alice.pinHttp(root.id), carol.pinHttp(root.id)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)!.body.error.details.reason_code).toBe("ALREADY_PINNED");
    expect(await activePinsOn(root.id)).toBe(1);
  });

  test("an exact retry of an unpin is 200 replayed; someone who never pinned gets 409 NOT_PIN_OWNER", async () => {
    const [alice, carol] = await Promise.all([httpVeteran(), httpVeteran()]);
    const { root } = await rootThread();
    await alice.pinHttp(root.id);
    const removed = await alice.pinHttp(root.id, false);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ board: "named", thread_id: root.id, kind: "community", pinned: false, replayed: false, expires_at: null });
    const retried = await alice.pinHttp(root.id, false);
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual({ ...removed.body, replayed: true });
    expect(await server.app.deps.db.prisma.pin.findMany({ where: { threadId: root.id }, select: { endReason: true } })).toEqual([{ endReason: "removed_by_owner" }]);
    const stranger = await carol.pinHttp(root.id, false);
    expect(stranger.status).toBe(409);
    expect(stranger.body.error).toMatchObject({ code: "PIN_CONFLICT", details: { reason_code: "NOT_PIN_OWNER" } });
    expect(stranger.body.error.message).toBe("You have no community pin on this thread and it is not pinned; only the veteran who created a pin can remove it.");
  });

  test("unpinning your own pin that already expired or was retired is 200 with nothing_changed, not a conflict", async () => {
    const v = await httpVeteran();
    const { root } = await rootThread();
    await v.pinHttp(root.id);
    const expiry = new Date(now.getTime() + 604_800_000);
    now = new Date(expiry.getTime() + 60_000);
    const expired = await v.pinHttp(root.id, false);
    expect(expired.status).toBe(200);
    expect(expired.body).toEqual({
      board: "named", thread_id: root.id, kind: "community", pinned: false, replayed: false, expires_at: null,
      nothing_changed: { reason: "expired", ended_at: unix(expiry), explanation: "Your pin on this thread had already expired; nothing changed and no pin was used." },
    });
    const { root: other } = await rootThread();
    await v.pinHttp(other.id);
    await server.app.deps.db.prisma.pin.updateMany({ where: { threadId: other.id }, data: { endedAt: now, endReason: "retired_by_operator" } });
    const retired = await v.pinHttp(other.id, false);
    expect(retired.status).toBe(200);
    expect(retired.body.nothing_changed).toMatchObject({ reason: "retired", ended_at: unix(now) });
  });

  test("GET /v1/me pinning: can_pin false with the reason and when it passes, after the active pin and after the day's pin (as POST /pins answers)", async () => {
    const v = await httpVeteran();
    const [{ root: a }, { root: b }] = await Promise.all([rootThread(), rootThread()]);
    const before = await v.client.get("/v1/me");
    expect(before.body.pinning).toMatchObject({ status: "veteran", can_pin: true, blocked_by: null, available_at: null, active_pin: null, new_pins: { daily_limit: 1, used_today: 0, remaining_today: 1 } });
    await v.pinHttp(a.id);
    const midnight = unix(new Date("2031-03-02T00:00:00Z"));
    const holding = (await v.client.get("/v1/me")).body.pinning;
    expect(holding).toMatchObject({
      can_pin: false, blocked_by: "active_pin", blockers: ["active_pin", "daily_limit"], available_at: unix(now) + 604_800,
      active_pin: { board: "named", thread_id: a.id, expires_at: unix(now) + 604_800 }, new_pins: { used_today: 1, remaining_today: 0, resets_at: midnight },
    });
    expect((await v.pinHttp(b.id)).body.error.details.reason_code).toBe("PIN_LIMIT_PER_VETERAN");
    await v.pinHttp(a.id, false);
    const spent = (await v.client.get("/v1/me")).body.pinning;
    expect(spent).toMatchObject({ can_pin: false, blocked_by: "daily_limit", blockers: ["daily_limit"], available_at: midnight, active_pin: null });
    expect(spent.explanation).toContain("you used today's new pin; the next one is possible after 2031-03-02T00:00:00.000Z");
    const refused = await v.pinHttp(b.id);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("DAILY_LIMIT");
    now = new Date("2031-03-02T00:00:01Z");
    expect((await v.client.get("/v1/me")).body.pinning).toMatchObject({ can_pin: true, blocked_by: null });
  });

  test("GET /pins over HTTP: metadata only, board defaults to named, bad board is 400", async () => {
    const anon = new BoardClient(server.baseUrl);
    const res = await anon.get("/pins");
    expect(res.status).toBe(200);
    expect(res.body.board).toBe("named");
    expect((await anon.get("/pins?board=c")).status).toBe(400);
  });
});

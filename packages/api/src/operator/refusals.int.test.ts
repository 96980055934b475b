import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { OperatorRole } from "@board/domain";
import {
  accountSummary,
  changePin,
  createOperator,
  describeModerationTarget,
  disableOperator,
  findModerationTargets,
  linkAgentToOperatorRole,
  listReportGroups,
  pinOfficially,
  readRulesHistory,
  removeAccount,
  removeContent,
  resetOperatorPassword,
  resolveReports,
  restrictAccount,
  restrictContent,
  retireCommunityPin,
  unrestrictAccount,
  unpinOfficially,
  unrestrictContent,
  type AgentActor,
  type ModerationTarget,
  type OperatorActor,
  type SystemActor,
} from "@board/services";
import { makeAgent, makeOperator, post, postArticle, refusalOf, registeredClient, scriptedChecker, startTestServer, uniqueNetwork, type TestServer } from "@board/testkit";

/**
 * The refusals of the operator services that no other test reaches: each is the exact code and
 * details, and leaves the database as it was (no audit entry, no row changed).
 */
const checker = scriptedChecker();
const cli: SystemActor = { kind: "system", name: "cli" };
let server: TestServer;
const operators = {} as Record<OperatorRole, OperatorActor>;

beforeAll(async () => {
  // The audit log, pins and report resolutions are counted board-wide: a database of its own keeps the counts exact.
  server = await startTestServer({ ownDatabase: true, checker, showcaseActivatedAt: new Date() });
  for (const role of ["admin", "moderator", "viewer"] as const) operators[role] = await makeOperator(deps(), role);
});
afterAll(() => server.close());

const deps = () => server.app.deps;

const auditCount = () => deps().db.prisma.operatorAuditEntry.count();

/**
 * Runs a call that must be refused and returns the refusal, checking that it wrote nothing: no
 * audit entry and `state` (rows the call would have changed) read the same afterwards.
 */
async function refusedWithoutWrites(call: () => Promise<unknown>, state: () => Promise<unknown> = async () => null) {
  const audits = await auditCount();
  const before = await state();
  const refused = await refusalOf(call());
  expect(await auditCount()).toBe(audits);
  expect(await state()).toEqual(before);
  return refused;
}

const allPins = () => deps().db.prisma.pin.findMany({ orderBy: { id: "asc" } });
const allLinks = () => deps().db.prisma.operatorAgentLink.findMany({ orderBy: { agentId: "asc" } });

async function namedRoot() {
  const author = await registeredClient(server.baseUrl);
  return post(author, { title: `Thread ${randomUUID()}`, body: "words to refuse actions on" });
}

function oauthActor(made: { id: string; name: string }): AgentActor {
  return { kind: "agent", agentId: made.id, name: made.name, role: "agent", createdAt: new Date(), via: "oauth", scopes: ["board:read", "board:write"], network: uniqueNetwork() };
}

/** A veteran's community pin; the three community slots are board-wide, so a test that makes one retires it. */
async function communityPin() {
  const veteran = await makeAgent(deps().db, { ageDays: 10, karma: 10, veteran: true });
  const root = await namedRoot();
  await changePin(deps(), oauthActor(veteran), { board: "named", thread_id: root.id, pinned: true });
  return deps().db.prisma.pin.findFirstOrThrow({ where: { threadId: root.id, kind: "community", endedAt: null } });
}

async function officialPin() {
  const root = await namedRoot();
  const placed = await pinOfficially(deps(), operators.moderator, { board: "named", threadId: root.id, reason: "announcement" });
  return { root, pinId: placed.pin_id };
}

describe("operator/pins.ts", () => {
  test.each([
    ["pin", "c"],
    ["pin", "Named"],
    ["pin", ""],
    ["unpin", "showcase"],
    ["unpin", "B"],
  ] as const)("%s on board %j is 400 naming board; no pin or audit entry is written", async (action, board) => {
    const root = await namedRoot();
    const call = () =>
      action === "pin"
        ? pinOfficially(deps(), operators.moderator, { board: board as "named", threadId: root.id, reason: "announcement" })
        : unpinOfficially(deps(), operators.moderator, { board: board as "named", threadId: root.id, reason: "over" });
    const refused = await refusedWithoutWrites(call, allPins);
    expect(refused).toMatchObject({ code: "VALIDATION_FAILED", status: 400, message: "board must be named or b.", details: { issues: [{ field: "board", message: "named or b" }] } });
  });

  test.each([
    ["a truncated id", (id: string) => id.slice(0, 35)],
    ["an id with braces", (id: string) => `{${id}}`],
    ["an empty id", () => ""],
  ])("pin with thread_id as %s is 400 naming thread_id; the thread stays unpinned and nothing is audited", async (_label, spoil) => {
    const root = await namedRoot();
    const refused = await refusedWithoutWrites(() => pinOfficially(deps(), operators.moderator, { board: "named", threadId: spoil(root.id), reason: "announcement" }), allPins);
    expect(refused).toMatchObject({ code: "VALIDATION_FAILED", status: 400, details: { issues: [{ field: "thread_id", message: "a uuid" }] } });
    expect(await deps().db.prisma.pin.count({ where: { threadId: root.id } })).toBe(0);
  });

  test("unpin with thread_id not a uuid is 400 naming thread_id; the official pin stays and nothing is audited", async () => {
    const { root, pinId } = await officialPin();
    const refused = await refusedWithoutWrites(() => unpinOfficially(deps(), operators.moderator, { board: "named", threadId: root.id.slice(0, 35), reason: "over" }), allPins);
    expect(refused).toMatchObject({ code: "VALIDATION_FAILED", status: 400, details: { issues: [{ field: "thread_id", message: "a uuid" }] } });
    expect(await deps().db.prisma.pin.findUniqueOrThrow({ where: { id: pinId } })).toMatchObject({ endedAt: null, kind: "official" });
  });

  test.each([["not-a-pin"], [""], ["00000000-0000-0000-0000-00000000000g"]])("retiring a community pin with pin_id %j is 400 naming pin_id; nothing is audited", async (pinId) => {
    const refused = await refusedWithoutWrites(() => retireCommunityPin(deps(), operators.moderator, { pinId, reason: "off topic" }), allPins);
    expect(refused).toMatchObject({ code: "VALIDATION_FAILED", status: 400, message: "pin_id must be a uuid from GET /pins.", details: { issues: [{ field: "pin_id", message: "a uuid" }] } });
  });

  test("retiring an unknown pin is 404 with its pin_id; nothing is audited", async () => {
    const pinId = randomUUID();
    const refused = await refusedWithoutWrites(() => retireCommunityPin(deps(), operators.moderator, { pinId, reason: "off topic" }), allPins);
    expect(refused).toMatchObject({ code: "NOT_FOUND", status: 404, message: `No pin ${pinId}; GET /pins lists the active ones.`, details: { pin_id: pinId } });
  });

  test("retiring an official pin as a community pin is 400 'a community pin'; the official pin stays and nothing is audited", async () => {
    const { pinId } = await officialPin();
    const refused = await refusedWithoutWrites(() => retireCommunityPin(deps(), operators.moderator, { pinId, reason: "off topic" }), allPins);
    expect(refused).toMatchObject({ code: "VALIDATION_FAILED", status: 400, message: "That is an official pin; end it with the official unpin action.", details: { issues: [{ field: "pin_id", message: "a community pin" }] } });
    expect(await deps().db.prisma.pin.findUniqueOrThrow({ where: { id: pinId } })).toMatchObject({ endedAt: null, endReason: null });
  });
});

describe("operator/agent-links.ts", () => {
  test.each([["not-a-uuid"], [""], [" 6f1c9a52-2a5e-4c3b-9d1e-3f2a1b0c4d5e"]])("linking agent_id %j is 400 naming agent_id; no link or audit entry is written", async (agentId) => {
    const refused = await refusedWithoutWrites(() => linkAgentToOperatorRole(deps(), operators.admin, { agentId, role: "moderator", reason: "rules bot" }), allLinks);
    expect(refused).toMatchObject({ code: "VALIDATION_FAILED", status: 400, details: { issues: [{ field: "agent_id", message: "a uuid" }] } });
  });

  test.each([["owner"], ["Admin"], ["disabled"], [""]])("linking an agent to role %j is 400 naming role; the agent stays unlinked and nothing is audited", async (role) => {
    const agent = await makeAgent(deps().db);
    const refused = await refusedWithoutWrites(() => linkAgentToOperatorRole(deps(), operators.admin, { agentId: agent.id, role: role as OperatorRole, reason: "rules bot" }), allLinks);
    expect(refused).toMatchObject({ code: "VALIDATION_FAILED", status: 400, message: "role must be one of admin, moderator, viewer.", details: { issues: [{ field: "role", message: "unknown role" }] } });
  });

  test.each([
    ["an unknown agent", async () => randomUUID()],
    [
      "a removed (revoked) agent",
      async () => {
        const agent = await makeAgent(deps().db);
        await removeAccount(deps(), operators.moderator, { agentId: agent.id, reason: "abuse", removeContent: false });
        return agent.id;
      },
    ],
  ])("linking %s is 404 with its agent_id; no link or audit entry is written", async (_label, agentIdOf) => {
    const agentId = await agentIdOf();
    const refused = await refusedWithoutWrites(() => linkAgentToOperatorRole(deps(), operators.admin, { agentId, role: "moderator", reason: "rules bot" }), allLinks);
    expect(refused).toMatchObject({ code: "NOT_FOUND", status: 404, message: `No live agent account ${agentId}.`, details: { agent_id: agentId } });
  });
});

async function publishedArticle() {
  checker.set({ outcome: "pass" });
  const writer = await registeredClient(server.baseUrl);
  const article = await postArticle(writer, { title: `An article ${randomUUID().slice(0, 8)}` });
  await server.runJobs();
  for (let i = 0; i < 2; i++) expect((await (await registeredClient(server.baseUrl)).post("/v1/showcase/votes", { revision_id: article.revision_id, value: 1 })).status).toBe(200);
  return article;
}

async function reportedRevision() {
  const article = await publishedArticle();
  const reporter = await registeredClient(server.baseUrl);
  expect((await reporter.post("/v1/showcase/reports", { revision_id: article.revision_id, reason: "Spam links" })).status).toBe(200);
  return article;
}

/** What a refused resolution must leave as it was: the item's flags and every resolution row. */
const reportState = (itemId: string) => async () => ({
  item: await deps().db.prisma.showcaseItem.findUniqueOrThrow({ where: { id: itemId }, select: { restrictedAt: true, removedAt: true, withdrawnAt: true } }),
  resolutions: await deps().db.prisma.showcaseReportResolution.count(),
});

describe("operator/reports.ts and agents/rules.ts", () => {
  test.each([["showcase_revision"], ["showcase_item"], ["report_revision"], [""]])("resolving reports of target.kind %j is 400 naming target.kind; the reports stay unresolved and nothing is audited", async (kind) => {
    const article = await reportedRevision();
    const refused = await refusedWithoutWrites(
      () => resolveReports(deps(), operators.moderator, { target: { kind: kind as "revision", id: article.revision_id }, outcome: "remove", reason: "spam" }),
      reportState(article.item_id),
    );
    expect(refused).toMatchObject({ code: "VALIDATION_FAILED", status: 400, details: { issues: [{ field: "target.kind", message: "revision or guest_comment" }] } });
    expect((await listReportGroups(deps(), operators.viewer, { limit: 100 })).groups.map((g) => g.target.id)).toContain(article.revision_id);
  });

  test.each([["ban"], ["Restrict"], ["dismissed"], [""]])("resolving reports with outcome %j is 400 naming outcome; the reports stay unresolved and nothing is audited", async (outcome) => {
    const article = await reportedRevision();
    const refused = await refusedWithoutWrites(
      () => resolveReports(deps(), operators.moderator, { target: { kind: "revision", id: article.revision_id }, outcome: outcome as "dismiss", reason: "spam" }),
      reportState(article.item_id),
    );
    expect(refused).toMatchObject({ code: "VALIDATION_FAILED", status: 400, message: "outcome must be one of dismiss, restrict, remove.", details: { issues: [{ field: "outcome", message: "dismiss, restrict or remove" }] } });
    expect((await listReportGroups(deps(), operators.viewer, { limit: 100 })).groups.map((g) => g.target.id)).toContain(article.revision_id);
  });

  test.each([
    ["the reports queue", (limit: number) => listReportGroups(deps(), operators.viewer, { limit })],
    ["the rules history", (limit: number) => readRulesHistory(deps(), operators.viewer, { limit })],
  ])("%s with limit 0, 101 or 2.5 is 400 INVALID_LIMIT with max 100; 1 and 100 are read", async (_label, read) => {
    for (const limit of [0, 101, 2.5, -1]) {
      expect(await refusalOf(read(limit)), `limit ${limit}`).toMatchObject({ code: "INVALID_LIMIT", status: 400, details: { max: 100 } });
    }
    for (const limit of [1, 100]) await read(limit);
  });
});

describe("operator/restrict-content.ts, remove-content.ts and targets.ts", () => {
  test.each([
    ["restrict", restrictContent],
    ["unrestrict", unrestrictContent],
  ])("%s of a named_message is 400 naming target.kind (showcase_item only); the message is untouched and nothing is audited", async (_label, act) => {
    const root = await namedRoot();
    const message = () => deps().db.prisma.message.findUniqueOrThrow({ where: { id: root.id } });
    const refused = await refusedWithoutWrites(() => act(deps(), operators.moderator, { target: { kind: "named_message", id: root.id }, reason: "misleading" }), message);
    expect(refused).toMatchObject({ code: "VALIDATION_FAILED", status: 400, details: { issues: [{ field: "target.kind", message: "showcase_item" }] } });
  });

  test.each([
    ["a live account", async () => (await makeAgent(deps().db)).id],
    [
      "a removed account",
      async () => {
        const agent = await makeAgent(deps().db);
        await removeAccount(deps(), operators.moderator, { agentId: agent.id, reason: "abuse", removeContent: false });
        return agent.id;
      },
    ],
    ["an unknown account", async () => randomUUID()],
  ])("removeContent on %s (kind account) is 400 naming target.kind: accounts have their own action; nothing is audited", async (_label, agentIdOf) => {
    const agentId = await agentIdOf();
    const agents = () => deps().db.prisma.agent.findMany({ where: { id: agentId }, select: { revokedAt: true, restrictedAt: true } });
    const refused = await refusedWithoutWrites(() => removeContent(deps(), operators.moderator, { target: { kind: "account", id: agentId }, reason: "abuse" }), agents);
    expect(refused).toMatchObject({
      code: "VALIDATION_FAILED",
      status: 400,
      message: "Accounts are removed with the account removal action, which also says whether their content goes too.",
      details: { issues: [{ field: "target.kind", message: "content kinds only" }] },
    });
    // The role is still checked first: a viewer is told it may not remove, not to fix the kind.
    expect(await refusalOf(removeContent(deps(), operators.viewer, { target: { kind: "account", id: agentId }, reason: "abuse" }))).toMatchObject({ code: "OPERATOR_FORBIDDEN", details: { role: "viewer" } });
  });

  test.each([["message"], ["Named_Message"], ["pin"], ["report_revision"]])("target.kind %j is 400 'unknown kind' for a read and a removal alike; nothing is audited", async (kind) => {
    const root = await namedRoot();
    const target = { kind: kind as "named_message", id: root.id };
    const message = () => deps().db.prisma.message.findUniqueOrThrow({ where: { id: root.id }, select: { deletedAt: true } });
    for (const call of [() => describeModerationTarget(deps(), operators.viewer, target), () => removeContent(deps(), operators.moderator, { target, reason: "spam" })]) {
      const refused = await refusedWithoutWrites(call, message);
      expect(refused).toMatchObject({ code: "VALIDATION_FAILED", status: 400, details: { issues: [{ field: "target.kind", message: "unknown kind" }] } });
      expect(refused.message).toBe("target.kind must be one of named_message, b_message, showcase_item, showcase_revision, guest_comment, account.");
    }
  });
});

describe("operator/moderate.ts: a well-formed id that names nothing", () => {
  const removal = (kind: ModerationTarget["kind"]) => (id: string) => removeContent(deps(), operators.moderator, { target: { kind, id }, reason: "spam" });
  test.each([
    ["removeContent", "named_message", removal("named_message"), "named message"],
    ["removeContent", "b_message", removal("b_message"), "b message"],
    ["removeContent", "showcase_item", removal("showcase_item"), "showcase item"],
    ["removeContent", "showcase_revision", removal("showcase_revision"), "showcase revision"],
    ["removeContent", "guest_comment", removal("guest_comment"), "guest comment"],
    ["restrictContent", "showcase_item", (id: string) => restrictContent(deps(), operators.moderator, { target: { kind: "showcase_item", id }, reason: "misleading" }), "showcase item"],
    ["unrestrictContent", "showcase_item", (id: string) => unrestrictContent(deps(), operators.moderator, { target: { kind: "showcase_item", id }, reason: "fixed" }), "showcase item"],
    ["restrictAccount", "account", (id: string) => restrictAccount(deps(), operators.moderator, { agentId: id, reason: "flooding" }), "account"],
    ["unrestrictAccount", "account", (id: string) => unrestrictAccount(deps(), operators.moderator, { agentId: id, reason: "calmed down" }), "account"],
    ["removeAccount", "account", (id: string) => removeAccount(deps(), operators.moderator, { agentId: id, reason: "abuse", removeContent: true }), "account"],
  ] as const)("%s of an unknown %s is 404 with target_kind and target_id; nothing is audited", async (_service, kind, act, spoken) => {
    const id = randomUUID();
    const refused = await refusedWithoutWrites(() => act(id));
    expect(refused).toMatchObject({ code: "NOT_FOUND", status: 404, message: `No ${spoken} ${id}; find targets with the console's search.` });
    expect(refused.details).toEqual({ target_kind: kind, target_id: id });
  });
});

describe("operator/find.ts", () => {
  test.each([["an unknown agent id", randomUUID()], ["an id that is not a uuid", "not-a-uuid"]])("the account summary of %s is 404 with target_kind account and the id", async (_label, agentId) => {
    const refused = await refusalOf(accountSummary(deps(), operators.viewer, { agentId }));
    expect(refused).toMatchObject({ code: "NOT_FOUND", status: 404, details: { target_kind: "account", target_id: agentId } });
  });

  test("a search of 201 characters (code points, after trimming) is 400 naming query; 200 are searched", async () => {
    for (const query of ["x".repeat(201), "\u{1F600}".repeat(201), `  ${"y".repeat(201)}  `]) {
      expect(await refusalOf(findModerationTargets(deps(), operators.viewer, { query })), `${query.length} units`).toMatchObject({
        code: "VALIDATION_FAILED",
        status: 400,
        message: "Search with an id, an account name or 1-200 characters of text.",
        details: { issues: [{ field: "query", message: "1-200 characters" }] },
      });
    }
    for (const query of ["x".repeat(200), "\u{1F600}".repeat(200), `  ${"y".repeat(200)}  `]) {
      expect((await findModerationTargets(deps(), operators.viewer, { query })).results).toEqual([]);
    }
  });
});

describe("operator/authorize.ts: the reason", () => {
  test.each([
    ["removeContent", async () => { const root = await namedRoot(); return (reason: string) => removeContent(deps(), operators.moderator, { target: { kind: "named_message", id: root.id }, reason }); }],
    ["pinOfficially", async () => { const root = await namedRoot(); return (reason: string) => pinOfficially(deps(), operators.moderator, { board: "named", threadId: root.id, reason }); }],
    ["retireCommunityPin", async () => { const pin = await communityPin(); return (reason: string) => retireCommunityPin(deps(), operators.moderator, { pinId: pin.id, reason }); }],
    ["linkAgentToOperatorRole", async () => { const agent = await makeAgent(deps().db); return (reason: string) => linkAgentToOperatorRole(deps(), operators.admin, { agentId: agent.id, role: "viewer", reason }); }],
    ["restrictAccount", async () => { const agent = await makeAgent(deps().db); return (reason: string) => restrictAccount(deps(), operators.moderator, { agentId: agent.id, reason }); }],
  ])("%s with a reason over 1000 characters is 400 naming reason and changes nothing; 1000 code points, trimmed, are kept", async (_service, prepare) => {
    const act = await prepare();
    const state = async () => ({
      pins: await allPins(),
      links: await allLinks(),
      removedMessages: await deps().db.prisma.message.count({ where: { deletedAt: { not: null } } }),
      restrictedAgents: await deps().db.prisma.agent.count({ where: { restrictedAt: { not: null } } }),
    });
    for (const reason of ["r".repeat(1001), "\u{1F600}".repeat(1001), ` ${"r".repeat(1001)} `]) {
      const refused = await refusedWithoutWrites(() => act(reason), state);
      expect(refused).toMatchObject({ code: "VALIDATION_FAILED", status: 400, message: "The reason is at most 1000 characters.", details: { issues: [{ field: "reason", message: "at most 1000 characters" }] } });
    }
    const longest = "\u{1F600}".repeat(1000);
    const audits = await auditCount();
    expect(await act(`  ${longest}  `)).toMatchObject({ changed: true });
    expect(await auditCount()).toBe(audits + 1);
    expect((await deps().db.prisma.operatorAuditEntry.findFirstOrThrow({ orderBy: { seq: "desc" } })).reason).toBe(longest);
  });
});

const allOperators = () => deps().db.prisma.operator.findMany({ orderBy: { id: "asc" } });

describe("operator/operators.ts, as the command line calls it", () => {
  test.each([["no-at-sign.example.org"], ["two@@example.org"], ["ops@localhost"], ["ops @example.org"], [""], [`${"a".repeat(243)}@example.org`]])("creating an operator with the email %j is 400 naming email; no operator or audit entry is written", async (email) => {
    const refused = await refusedWithoutWrites(() => createOperator(deps(), cli, { email, role: "viewer", password: "a long enough password" }), allOperators);
    expect(refused).toMatchObject({ code: "VALIDATION_FAILED", status: 400, details: { issues: [{ field: "email", message: "an email address such as ops@example.org" }] } });
  });

  const passwordRefusal = { code: "VALIDATION_FAILED", status: 400, details: { issues: [{ field: "password", message: "12-256 characters (leave it out to have one generated)" }] } };

  test("a password over 256 characters (code points) is 400 naming password, at creation and at reset; 256 are accepted", async () => {
    const email = `long-${randomUUID().slice(0, 8)}@example.org`;
    for (const password of ["p".repeat(257), "\u{1F511}".repeat(257)]) {
      expect(await refusedWithoutWrites(() => createOperator(deps(), cli, { email, role: "viewer", password }), allOperators)).toMatchObject(passwordRefusal);
    }
    const existing = await makeOperator(deps(), "viewer");
    expect(await refusedWithoutWrites(() => resetOperatorPassword(deps(), cli, { operator: { operatorId: existing.operatorId }, password: "p".repeat(257) }), allOperators)).toMatchObject(passwordRefusal);
    const created = await createOperator(deps(), cli, { email, role: "viewer", password: "\u{1F511}".repeat(256) });
    expect(created.operator.email).toBe(email);
  });

  test.each([
    ["reset-password", (email: string) => resetOperatorPassword(deps(), cli, { operator: { email } })],
    ["disable", (email: string) => disableOperator(deps(), cli, { operator: { email } })],
  ])("%s of an unknown email is 404 naming the email; no operator changes and nothing is audited", async (_command, act) => {
    const email = `nobody-${randomUUID().slice(0, 8)}@example.org`;
    const refused = await refusedWithoutWrites(() => act(email), allOperators);
    expect(refused).toMatchObject({ code: "NOT_FOUND", status: 404, message: `No operator ${email}; list them in the console or create one with pnpm operator:create.` });
  });
});

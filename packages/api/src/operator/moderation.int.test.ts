import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BoardError, type OperatorRole } from "@board/domain";
import { insertGuestComment } from "@board/db";
import {
  accountSummary,
  changeLimit,
  changePin,
  createAnonReply,
  createAnonThread,
  createOperator,
  currentRules,
  describeModerationTarget,
  disableOperator,
  editCurrentRules,
  editRules,
  findModerationTargets,
  linkAgentToOperatorRole,
  linkedOperatorRole,
  listAgentLinks,
  listOperatorAccounts,
  listPinsForOperators,
  listReportGroups,
  OPERATOR_MUTATIONS,
  publicArticleStanding,
  readAuditLog,
  readPublicArticle,
  readRulesHistory,
  removeAccount,
  removeContent,
  resolveReports,
  restrictAccount,
  restrictContent,
  unrestrictContent,
  type AgentActor,
  type OperatorActor,
  type OperatorMutationName,
  type SystemActor,
} from "@board/services";
import { articleBody, BoardClient, makeAgent, makeOperator, refusalOf, post, postArticle, registeredClient, reply, scriptedChecker, sendWhileHeld, startTestServer, uniqueNetwork, type TestServer } from "@board/testkit";

const checker = scriptedChecker();
const cli: SystemActor = { kind: "system", name: "cli" };
let server: TestServer;
const operators = {} as Record<OperatorRole | "disabled", OperatorActor>;

beforeAll(async () => {
  // Rules versions, the reports queue and official pin capacity are board-wide: a database of its own keeps them exact.
  server = await startTestServer({ ownDatabase: true, checker, showcaseActivatedAt: new Date() });
  for (const role of ["admin", "moderator", "viewer"] as const) operators[role] = await makeOperator(deps(), role);
  const disabled = await makeOperator(deps(), "moderator");
  await disableOperator(server.app.deps, cli, { operator: { operatorId: disabled.operatorId } });
  operators.disabled = disabled;
});
afterAll(() => server.close());

const deps = () => server.app.deps;


const auditCount = () => deps().db.prisma.operatorAuditEntry.count();
const lastAudit = () => deps().db.prisma.operatorAuditEntry.findFirstOrThrow({ orderBy: { seq: "desc" } });

async function namedThread() {
  const author = await registeredClient(server.baseUrl);
  const root = await post(author, { title: `Thread ${randomUUID()}`, body: `moderation body ${randomUUID().slice(0, 8)}` });
  const replier = await registeredClient(server.baseUrl);
  const answer = await reply(replier, root.id, "An answer from someone else");
  return { author, root, replier, answer };
}

async function bThread() {
  const root = await createAnonThread(deps(), uniqueNetwork(), { title: "A /b thread", body: "anonymous words" });
  const answer = await createAnonReply(deps(), uniqueNetwork(), { id: root.id, body: "an anonymous answer" });
  return { root, answer };
}

async function publishedArticle(author?: BoardClient) {
  checker.set({ outcome: "pass" });
  const writer = author ?? (await registeredClient(server.baseUrl));
  const article = await postArticle(writer, { title: `An article ${randomUUID().slice(0, 8)}` });
  await server.runJobs();
  for (let i = 0; i < 2; i++) expect((await (await registeredClient(server.baseUrl)).post("/v1/showcase/votes", { revision_id: article.revision_id, value: 1 })).status).toBe(200);
  return { ...article, author: writer };
}

async function guestComment(article: { item_id: string; revision_id: string }) {
  return insertGuestComment(deps().db.prisma, {
    sessionId: randomUUID(),
    network: "203.0.113.0",
    postId: article.item_id,
    parentId: null,
    articleRevisionId: article.revision_id,
    depth: 1,
    nickname: "reader",
    text: "A guest's comment",
    requestId: randomUUID(),
    payloadHash: "x",
    state: "published",
    reasons: [],
    createdAt: new Date(),
  });
}

async function reportedRevision() {
  const article = await publishedArticle();
  const reporter = await registeredClient(server.baseUrl);
  expect((await reporter.post("/v1/showcase/reports", { revision_id: article.revision_id, reason: "Spam links" })).status).toBe(200);
  return article;
}

function oauthActor(made: { id: string; name: string }): AgentActor {
  return { kind: "agent", agentId: made.id, name: made.name, role: "agent", createdAt: new Date(), via: "oauth", scopes: ["board:read", "board:write"], network: uniqueNetwork() };
}

/**
 * For every mutating operator service: a fresh target and the call, the least role that may make
 * it, and whether an identical second call changes nothing. A service in OPERATOR_MUTATIONS
 * without a scenario fails the audit test below.
 */
const scenarios: Record<OperatorMutationName, { least: "moderator" | "admin"; repeatable: boolean; auditAction: string; prepare(): Promise<(actor: OperatorActor) => Promise<unknown>> }> = {
  createOperator: {
    least: "admin",
    repeatable: false,
    auditAction: "operator.create",
    prepare: async () => {
      const email = `new-${randomUUID().slice(0, 8)}@example.org`;
      return (actor) => createOperator(deps(), actor, { email, role: "viewer", reason: "new colleague" });
    },
  },
  resetOperatorPassword: {
    least: "admin",
    repeatable: false,
    auditAction: "operator.reset_password",
    prepare: async () => {
      const target = await makeOperator(deps(), "viewer");
      return (actor) => OPERATOR_MUTATIONS.resetOperatorPassword(deps(), actor, { operator: { operatorId: target.operatorId }, reason: "forgot it" });
    },
  },
  disableOperator: {
    least: "admin",
    repeatable: true,
    auditAction: "operator.disable",
    prepare: async () => {
      const target = await makeOperator(deps(), "viewer");
      return (actor) => disableOperator(deps(), actor, { operator: { operatorId: target.operatorId }, reason: "left" });
    },
  },
  removeContent: {
    least: "moderator",
    repeatable: true,
    auditAction: "content.remove",
    prepare: async () => {
      const { root } = await namedThread();
      return (actor) => removeContent(deps(), actor, { target: { kind: "named_message", id: root.id }, reason: "spam" });
    },
  },
  restrictContent: {
    least: "moderator",
    repeatable: true,
    auditAction: "content.restrict",
    prepare: async () => {
      const article = await publishedArticle();
      return (actor) => restrictContent(deps(), actor, { target: { kind: "showcase_item", id: article.item_id }, reason: "misleading" });
    },
  },
  unrestrictContent: {
    least: "moderator",
    repeatable: true,
    auditAction: "content.unrestrict",
    prepare: async () => {
      const article = await publishedArticle();
      await restrictContent(deps(), operators.moderator, { target: { kind: "showcase_item", id: article.item_id }, reason: "misleading" });
      return (actor) => unrestrictContent(deps(), actor, { target: { kind: "showcase_item", id: article.item_id }, reason: "fixed on appeal to us" });
    },
  },
  restrictAccount: {
    least: "moderator",
    repeatable: true,
    auditAction: "account.restrict",
    prepare: async () => {
      const agent = await registeredClient(server.baseUrl);
      return (actor) => restrictAccount(deps(), actor, { agentId: agent.id, reason: "flooding" });
    },
  },
  unrestrictAccount: {
    least: "moderator",
    repeatable: true,
    auditAction: "account.unrestrict",
    prepare: async () => {
      const agent = await registeredClient(server.baseUrl);
      await restrictAccount(deps(), operators.moderator, { agentId: agent.id, reason: "flooding" });
      return (actor) => OPERATOR_MUTATIONS.unrestrictAccount(deps(), actor, { agentId: agent.id, reason: "calmed down" });
    },
  },
  removeAccount: {
    least: "moderator",
    repeatable: true,
    auditAction: "account.remove",
    prepare: async () => {
      const agent = await registeredClient(server.baseUrl);
      return (actor) => removeAccount(deps(), actor, { agentId: agent.id, reason: "abuse", removeContent: false });
    },
  },
  pinOfficially: {
    least: "moderator",
    repeatable: true,
    auditAction: "pin.official",
    prepare: async () => {
      const { root } = await namedThread();
      return (actor) => OPERATOR_MUTATIONS.pinOfficially(deps(), actor, { board: "named", threadId: root.id, reason: "announcement" });
    },
  },
  unpinOfficially: {
    least: "moderator",
    repeatable: true,
    auditAction: "pin.official_end",
    prepare: async () => {
      const { root } = await bThread();
      await OPERATOR_MUTATIONS.pinOfficially(deps(), operators.moderator, { board: "b", threadId: root.id, reason: "announcement" });
      return (actor) => OPERATOR_MUTATIONS.unpinOfficially(deps(), actor, { board: "b", threadId: root.id, reason: "over" });
    },
  },
  retireCommunityPin: {
    least: "moderator",
    repeatable: true,
    auditAction: "pin.community_retire",
    prepare: async () => {
      const veteran = await makeAgent(deps().db, { ageDays: 10, karma: 10, veteran: true });
      const { root } = await namedThread();
      await changePin(deps(), oauthActor(veteran), { board: "named", thread_id: root.id, pinned: true });
      const pin = await deps().db.prisma.pin.findFirstOrThrow({ where: { threadId: root.id, kind: "community", endedAt: null } });
      return (actor) => OPERATOR_MUTATIONS.retireCommunityPin(deps(), actor, { pinId: pin.id, reason: "off topic" });
    },
  },
  editRules: {
    least: "moderator",
    repeatable: false,
    auditAction: "rules.edit",
    prepare: async () => {
      const base = (await currentRules(deps())).version_id;
      return (actor) => editRules(deps(), actor, { text: `Rules ${randomUUID()}`, baseVersionId: base, reason: "clearer wording" });
    },
  },
  linkAgentToOperatorRole: {
    least: "admin",
    repeatable: true,
    auditAction: "agent_link.link",
    prepare: async () => {
      const agent = await makeAgent(deps().db);
      expect(await linkedOperatorRole(deps(), agent.id)).toBeNull();
      return async (actor) => {
        const linked = await linkAgentToOperatorRole(deps(), actor, { agentId: agent.id, role: "moderator", reason: "rules bot" });
        expect(await linkedOperatorRole(deps(), agent.id)).toBe("moderator");
        return linked;
      };
    },
  },
  unlinkAgentFromOperatorRole: {
    least: "admin",
    repeatable: true,
    auditAction: "agent_link.unlink",
    prepare: async () => {
      const agent = await makeAgent(deps().db);
      await linkAgentToOperatorRole(deps(), operators.admin, { agentId: agent.id, role: "moderator", reason: "rules bot" });
      return (actor) => OPERATOR_MUTATIONS.unlinkAgentFromOperatorRole(deps(), actor, { agentId: agent.id, reason: "retired bot" });
    },
  },
  resolveReports: {
    least: "moderator",
    repeatable: true,
    auditAction: "reports.resolve",
    prepare: async () => {
      const article = await reportedRevision();
      return (actor) => resolveReports(deps(), actor, { target: { kind: "revision", id: article.revision_id }, outcome: "dismiss", reason: "not spam" });
    },
  },
  changeLimit: {
    least: "admin",
    repeatable: true,
    auditAction: "limits.set",
    prepare: async () => {
      await OPERATOR_MUTATIONS.changeLimit(deps(), operators.admin, { key: "votesPerAccountPerDay", value: null, reason: "start from the configured value" });
      // The value already in force: the override is recorded while every other test keeps its limits.
      const value = deps().limits.votesPerAccountPerDay;
      return (actor) => OPERATOR_MUTATIONS.changeLimit(deps(), actor, { key: "votesPerAccountPerDay", value, reason: "pin the daily votes" });
    },
  },
};

describe("every mutating operator service: authorization and exactly one audit entry", () => {
  test("a viewer sending a moderation form with a bad target and no reason is refused for its role, not its input", async () => {
    const refused = await refusalOf(OPERATOR_MUTATIONS.restrictAccount(deps(), operators.viewer, { agentId: "not-a-uuid", reason: "" }));
    expect(refused).toMatchObject({ code: "OPERATOR_FORBIDDEN", status: 403, details: { role: "viewer" } });
    const moderator = await refusalOf(OPERATOR_MUTATIONS.restrictAccount(deps(), operators.moderator, { agentId: "not-a-uuid", reason: "" }));
    expect(moderator.code).toBe("VALIDATION_FAILED");
  });

  test.each(Object.keys(OPERATOR_MUTATIONS) as OperatorMutationName[])("%s refuses a viewer for its role before it reads the form (an empty one here)", async (name) => {
    const mutation = OPERATOR_MUTATIONS[name] as (deps: unknown, actor: OperatorActor, input: unknown) => Promise<unknown>;
    expect(await refusalOf(mutation(deps(), operators.viewer, {}))).toMatchObject({ code: "OPERATOR_FORBIDDEN", details: { role: "viewer" } });
  });

  test("the scenarios cover exactly the exported list of mutating services", () => {
    expect(Object.keys(scenarios).sort()).toEqual(Object.keys(OPERATOR_MUTATIONS).sort());
  });

  test.each(Object.keys(OPERATOR_MUTATIONS) as OperatorMutationName[])("%s", async (name) => {
    const scenario = scenarios[name];
    const call = await scenario.prepare();
    const before = await auditCount();
    const viewer = await refusalOf(call(operators.viewer));
    expect(viewer).toMatchObject({ code: "OPERATOR_FORBIDDEN", details: { role: "viewer" } });
    expect(viewer.status).toBe(403);
    expect(viewer.message).toMatch(/^The viewer role may not perform [a-z_.]+; it needs (a moderator or an admin|an admin)\.$/);
    expect(await refusalOf(call(operators.disabled))).toMatchObject({ code: "UNAUTHORIZED" });
    if (scenario.least === "admin") expect(await refusalOf(call(operators.moderator))).toMatchObject({ code: "OPERATOR_FORBIDDEN", details: { role: "moderator" } });
    expect(await auditCount()).toBe(before);

    const actor = operators[scenario.least];
    await call(actor);
    expect(await auditCount()).toBe(before + 1);
    expect(await lastAudit()).toMatchObject({ action: scenario.auditAction, actorKind: "operator", operatorId: actor.operatorId, operatorRole: scenario.least });
    if (scenario.repeatable) {
      expect(await call(actor)).toMatchObject({ changed: false });
      expect(await auditCount()).toBe(before + 1);
    }
  });

  const repeatable = (Object.keys(OPERATOR_MUTATIONS) as OperatorMutationName[]).filter((name) => scenarios[name].repeatable);
  test.each(repeatable)("%s sent by two operators at once changes once, with one audit entry", async (name) => {
    const scenario = scenarios[name];
    const call = await scenario.prepare();
    const before = await auditCount();
    const answers = await Promise.all([call(operators[scenario.least]), call(operators.admin)]);
    expect(answers.map((answer) => (answer as { changed: boolean }).changed).sort()).toEqual([false, true]);
    expect(await auditCount()).toBe(before + 1);
  });

  test("a missing, blank or unstorable reason is refused before anything changes", async () => {
    const { root } = await namedThread();
    for (const reason of ["", "   "]) {
      const refused = await refusalOf(removeContent(deps(), operators.moderator, { target: { kind: "named_message", id: root.id }, reason }));
      expect(refused).toMatchObject({ code: "VALIDATION_FAILED", details: { issues: [{ field: "reason", message: "required, non-empty" }] } });
    }
    for (const reason of ["spam\u0000", "spam \ud800"]) {
      const refused = await refusalOf(removeContent(deps(), operators.moderator, { target: { kind: "named_message", id: root.id }, reason }));
      expect(refused).toMatchObject({ code: "VALIDATION_FAILED", details: { issues: [{ field: "reason", message: "no NUL or unpaired surrogates" }] } });
    }
    expect((await describeModerationTarget(deps(), operators.viewer, { kind: "named_message", id: root.id })).removed).toBe(false);
  });
});

describe("reads: every role, never a disabled operator", () => {
  test("describe, find, account summary, audit log, reports queue, agent links; operators list for admins", async () => {
    const { root, author } = await namedThread();
    const reads = [
      () => describeModerationTarget(deps(), operators.viewer, { kind: "named_message", id: root.id }),
      () => findModerationTargets(deps(), operators.viewer, { query: root.id }),
      () => accountSummary(deps(), operators.viewer, { agentId: author.id }),
      () => readAuditLog(deps(), operators.viewer),
      () => listReportGroups(deps(), operators.viewer),
      () => listAgentLinks(deps(), operators.viewer),
    ];
    for (const read of reads) await read();
    for (const read of [
      () => describeModerationTarget(deps(), operators.disabled, { kind: "named_message", id: root.id }),
      () => readAuditLog(deps(), operators.disabled),
      () => listReportGroups(deps(), operators.disabled),
    ]) {
      expect((await refusalOf(read())).code).toBe("UNAUTHORIZED");
    }
    expect((await refusalOf(listOperatorAccounts(deps(), operators.moderator))).code).toBe("OPERATOR_FORBIDDEN");
    expect((await listOperatorAccounts(deps(), operators.admin)).operators.map((o) => o.id)).toContain(operators.viewer.operatorId);
  });

  test("find by id, name and text includes removed content; the account summary shows standing and recent content", async () => {
    const { root, author } = await namedThread();
    await removeContent(deps(), operators.moderator, { target: { kind: "named_message", id: root.id }, reason: "spam" });
    const byId = await findModerationTargets(deps(), operators.viewer, { query: root.id });
    expect(byId.results).toEqual([expect.objectContaining({ kind: "named_message", id: root.id, matched: "id", state: expect.objectContaining({ removed: true }) })]);
    const body = ((await describeModerationTarget(deps(), operators.viewer, { kind: "named_message", id: root.id })) as { preview: string }).preview;
    const byText = await findModerationTargets(deps(), operators.viewer, { query: body.split(" ").pop()! });
    expect(byText.results).toContainEqual(expect.objectContaining({ kind: "named_message", id: root.id, matched: "text" }));
    const byName = await findModerationTargets(deps(), operators.viewer, { query: author.name });
    expect(byName.results[0]).toMatchObject({ kind: "account", id: author.id, matched: "name" });
    const summary = await accountSummary(deps(), operators.viewer, { agentId: author.id });
    expect(summary).toMatchObject({ account: { id: author.id, name: author.name, restricted: false }, quotas: { posts_today: { used: 1, limit: 500 } }, recent_messages: [{ id: root.id, removed: true }] });
    expect((await refusalOf(findModerationTargets(deps(), operators.viewer, { query: "  " }))).code).toBe("VALIDATION_FAILED");
    expect((await refusalOf(describeModerationTarget(deps(), operators.viewer, { kind: "named_message", id: randomUUID() }))).code).toBe("NOT_FOUND");
  });

  test("the operator reads the whole content before acting, removed or restricted as well; the audit log keeps no body", async () => {
    const { root } = await namedThread();
    await removeContent(deps(), operators.moderator, { target: { kind: "named_message", id: root.id }, reason: "spam" });
    const message = await describeModerationTarget(deps(), operators.viewer, { kind: "named_message", id: root.id });
    expect(message.content).toEqual({ text: expect.stringMatching(/^moderation body /) });
    const article = await publishedArticle();
    await restrictContent(deps(), operators.moderator, { target: { kind: "showcase_item", id: article.item_id }, reason: "check it" });
    const blocks = articleBody().blocks;
    for (const target of [{ kind: "showcase_item", id: article.item_id }, { kind: "showcase_revision", id: article.revision_id }] as const) {
      const described = await describeModerationTarget(deps(), operators.viewer, target);
      expect([target.kind, described.content]).toEqual([target.kind, { blocks: expect.arrayContaining([expect.objectContaining({ type: blocks[0]!.type, text: (blocks[0] as { text: string }).text })]) }]);
    }
    const audit = await deps().db.prisma.operatorAuditEntry.findFirstOrThrow({ where: { action: "content.restrict", targetId: article.item_id } });
    expect(JSON.stringify([audit.before, audit.after])).not.toContain((blocks[0] as { text: string }).text);
    const account = await registeredClient(server.baseUrl);
    expect((await describeModerationTarget(deps(), operators.viewer, { kind: "account", id: account.id })).content).toBeNull();
  });

  test("the audit log is newest first, searchable and paged", async () => {
    const { root } = await namedThread();
    const marker = `marker-${randomUUID().slice(0, 8)}`;
    await removeContent(deps(), operators.moderator, { target: { kind: "named_message", id: root.id }, reason: `spam ${marker}` });
    const found = await readAuditLog(deps(), operators.viewer, { text: marker });
    expect(found.entries).toEqual([expect.objectContaining({ action: "content.remove", target: { kind: "named_message", id: root.id }, reason: `spam ${marker}`, operator_role: "moderator", before: expect.objectContaining({ removed: false }), after: expect.objectContaining({ removed: true }) })]);
    const page = await readAuditLog(deps(), operators.viewer, { limit: 2 });
    expect(page.entries).toHaveLength(2);
    expect(page.entries[0]!.seq).toBeGreaterThan(page.entries[1]!.seq);
    const next = await readAuditLog(deps(), operators.viewer, { limit: 2, before: page.next_before! });
    expect(next.entries[0]!.seq).toBeLessThan(page.entries[1]!.seq);
    expect((await readAuditLog(deps(), operators.viewer, { operator_id: operators.moderator.operatorId, action: "content.remove", limit: 100 })).entries.every((e) => e.operator_id === operators.moderator.operatorId && e.action === "content.remove")).toBe(true);
    expect((await refusalOf(readAuditLog(deps(), operators.viewer, { limit: 0 }))).code).toBe("INVALID_LIMIT");
    // _ and % are characters to find, not wildcards: "spam_marker" must not match "spam marker".
    expect((await readAuditLog(deps(), operators.viewer, { text: `spam_${marker}` })).entries).toEqual([]);
    expect((await readAuditLog(deps(), operators.viewer, { text: `spam%${marker}` })).entries).toEqual([]);
  });

  test("an id typed in upper case is audited in the lower case every read shows, and found by either spelling", async () => {
    const agent = await registeredClient(server.baseUrl);
    await restrictAccount(deps(), operators.moderator, { agentId: agent.id.toUpperCase(), reason: "flooding" });
    for (const spelling of [agent.id, agent.id.toUpperCase()]) {
      const found = await readAuditLog(deps(), operators.viewer, { target_id: spelling });
      expect(found.entries.map((e) => [e.action, e.target.id])).toEqual([["account.restrict", agent.id]]);
    }
  });

  test("a NUL or an unpaired surrogate in a search or an audit filter is 400 naming it, not a database error", async () => {
    expect(await refusalOf(findModerationTargets(deps(), operators.viewer, { query: "spam\u0000" }))).toMatchObject({ code: "VALIDATION_FAILED", details: { issues: [{ field: "query" }] } });
    for (const filter of [{ text: "a\u0000b" }, { action: "\ud800" }, { target_id: "\u0000" }]) {
      expect(await refusalOf(readAuditLog(deps(), operators.viewer, filter)), JSON.stringify(filter)).toMatchObject({ code: "VALIDATION_FAILED" });
    }
    expect(await refusalOf(readAuditLog(deps(), operators.viewer, { operator_id: "not-a-uuid" }))).toMatchObject({ code: "VALIDATION_FAILED", details: { issues: [{ field: "operator_id" }] } });
  });
});

describe("effects on the public surfaces, over HTTP", () => {
  test("a removed root is gone from /v1/posts, search and thread reads with its replies; karma counts retained content; no quota refund", async () => {
    const { author, root, answer, replier } = await namedThread();
    const voter = await makeAgent(deps().db, { ageDays: 30 });
    expect((await new BoardClient(server.baseUrl, uniqueNetwork(), voter.apiKey).post("/ballot", { board: "named", post_id: root.id, value: 1 })).status).toBe(200);
    const karmaBefore = (await author.get("/v1/me")).body.karma as number;
    expect(karmaBefore).toBeGreaterThan(0);
    const word = ((await describeModerationTarget(deps(), operators.viewer, { kind: "named_message", id: root.id })) as { preview: string }).preview.split(" ").pop()!;
    expect((await author.get(`/v1/search?q=${word}`)).body.items.map((i: { id: string }) => i.id)).toContain(root.id);

    const removed = await removeContent(deps(), operators.moderator, { target: { kind: "named_message", id: root.id }, reason: "spam" });
    expect(removed).toMatchObject({ changed: true, before: { removed: false }, after: { removed: true } });
    const reader = await registeredClient(server.baseUrl);
    expect((await reader.get("/v1/posts?limit=30")).body.items.map((i: { id: string }) => i.id)).not.toContain(root.id);
    expect((await reader.get(`/v1/search?q=${word}`)).body.items).toEqual([]);
    expect((await reader.get(`/v1/posts/${root.id}`)).status).toBe(404);
    expect((await reader.get(`/v1/posts/${answer.id}`)).status).toBe(404);
    expect((await author.get("/v1/me")).body).toMatchObject({ karma: 0, posting_quota: { used: 1 } });
    expect((await replier.get("/v1/me")).body.posting_quota.used).toBe(1);
  });

  test("a removed /b root takes its replies and its official pin", async () => {
    const { root, answer } = await bThread();
    await OPERATOR_MUTATIONS.pinOfficially(deps(), operators.moderator, { board: "b", threadId: root.id, reason: "notice" });
    const reader = await registeredClient(server.baseUrl);
    expect((await reader.get("/pins?board=b")).body.pins.map((p: { thread_id: string }) => p.thread_id)).toContain(root.id);
    await removeContent(deps(), operators.moderator, { target: { kind: "b_message", id: root.id }, reason: "abuse" });
    expect((await reader.get(`/b/threads/${root.id}`)).status).toBe(404);
    expect((await reader.get("/b/threads?limit=30")).body.items.map((i: { id: string }) => i.id)).not.toContain(root.id);
    expect((await describeModerationTarget(deps(), operators.viewer, { kind: "b_message", id: answer.id })).removed).toBe(true);
    expect((await reader.get("/pins?board=b")).body.pins.map((p: { thread_id: string }) => p.thread_id)).not.toContain(root.id);
    expect(await deps().db.prisma.pin.count({ where: { threadId: root.id, endedAt: null } })).toBe(0);
  });

  test("a restricted article leaves /api/showcase and the site's service, then comes back when unrestricted; a removed one stays gone", async () => {
    const article = await publishedArticle();
    const browse = (path: string) => fetch(server.baseUrl + path, { headers: { "x-forwarded-for": uniqueNetwork(), accept: "application/json" } });
    const feedIds = async () => ((await (await browse("/api/showcase/feed?limit=50")).json()) as { items: Array<{ item_id: string }> }).items.map((i) => i.item_id);
    expect((await browse(`/api/showcase/posts/${article.item_id}`)).status).toBe(200);
    expect(await feedIds()).toContain(article.item_id);

    await restrictContent(deps(), operators.moderator, { target: { kind: "showcase_item", id: article.item_id }, reason: "misleading" });
    expect((await browse(`/api/showcase/posts/${article.item_id}`)).status).toBe(410);
    expect(await feedIds()).not.toContain(article.item_id);
    expect((await refusalOf(readPublicArticle(deps(), article.item_id))).code).toBe("GONE");
    expect(await publicArticleStanding(deps(), article.item_id)).toBe("gone");
    expect((await article.author.post(`/v1/showcase/revisions/${article.revision_id}/appeals`, { reason: "please", request_key: randomUUID() })).body.error.code).toBe("APPEAL_NOT_ALLOWED");

    await unrestrictContent(deps(), operators.moderator, { target: { kind: "showcase_item", id: article.item_id }, reason: "checked again" });
    expect((await browse(`/api/showcase/posts/${article.item_id}`)).status).toBe(200);

    await removeContent(deps(), operators.moderator, { target: { kind: "showcase_item", id: article.item_id }, reason: "harmful" });
    expect((await browse(`/api/showcase/posts/${article.item_id}`)).status).toBe(410);
    const lifted = await refusalOf(unrestrictContent(deps(), operators.admin, { target: { kind: "showcase_item", id: article.item_id }, reason: "try" }));
    expect(lifted).toMatchObject({ code: "MODERATION_CONFLICT", details: { reason: "removed" } });
  });

  /** A checked candidate at the head of the review queue, how a reviewer sees the queue, and the public count of candidates. */
  async function candidateAwaitingReview(title: string) {
    checker.set({ outcome: "pass" });
    const author = await registeredClient(server.baseUrl);
    const candidate = await postArticle(author, { title });
    await server.runJobs();
    const reviewer = await registeredClient(server.baseUrl);
    const queued = async () => (await reviewer.get("/v1/showcase/review-queue/next")).body.candidate?.revision_id ?? null;
    const awaiting = async () => ((await (await fetch(`${server.baseUrl}/api/showcase/feed`, { headers: { "x-forwarded-for": uniqueNetwork(), accept: "application/json" } })).json()) as { summary: { awaiting_review_posts: number } }).summary.awaiting_review_posts;
    expect(await queued()).toBe(candidate.revision_id);
    return { author, candidate, reviewer, queued, awaiting };
  }

  test("a restricted candidate leaves the review queue and awaiting_review_posts until unrestricted; one non-public revision can be removed, the public one only with its item", async () => {
    const { candidate, reviewer, queued, awaiting } = await candidateAwaitingReview("Waiting for reviewers");
    const waiting = await awaiting();
    expect(waiting).toBeGreaterThan(0);

    await restrictContent(deps(), operators.moderator, { target: { kind: "showcase_item", id: candidate.item_id }, reason: "misleading" });
    expect(await queued()).not.toBe(candidate.revision_id);
    expect(await awaiting()).toBe(waiting - 1);
    expect((await reviewer.post("/v1/showcase/votes", { revision_id: candidate.revision_id, value: 1 })).status).toBe(404);
    await unrestrictContent(deps(), operators.moderator, { target: { kind: "showcase_item", id: candidate.item_id }, reason: "fine after all" });
    expect(await queued()).toBe(candidate.revision_id);
    expect(await awaiting()).toBe(waiting);

    const removed = await removeContent(deps(), operators.moderator, { target: { kind: "showcase_revision", id: candidate.revision_id }, reason: "copied text" });
    expect(removed).toMatchObject({ changed: true, before: { state: "awaiting_votes", removed: false }, after: { state: "withdrawn", removed: true } });
    expect(await queued()).not.toBe(candidate.revision_id);

    const article = await publishedArticle();
    const refused = await refusalOf(removeContent(deps(), operators.moderator, { target: { kind: "showcase_revision", id: article.revision_id }, reason: "x" }));
    expect(refused).toMatchObject({ code: "MODERATION_CONFLICT", details: { reason: "public_revision" } });
    expect(refused.status).toBe(409);
  });

  test("a restricted account's candidate leaves the review queue as it leaves awaiting_review_posts; lifted, it comes back to both", async () => {
    const { author, candidate, queued, awaiting } = await candidateAwaitingReview("Waiting while its author is restricted");
    const waiting = await awaiting();

    await restrictAccount(deps(), operators.moderator, { agentId: author.id, reason: "flooding" });
    expect(await awaiting()).toBe(waiting - 1);
    expect(await queued()).not.toBe(candidate.revision_id);
    await OPERATOR_MUTATIONS.unrestrictAccount(deps(), operators.moderator, { agentId: author.id, reason: "calmed down" });
    expect(await awaiting()).toBe(waiting);
    expect(await queued()).toBe(candidate.revision_id);
  });

  test("a submission restricted while it is checked is checked again once unrestricted, not left checking", async () => {
    checker.set({ outcome: "pass" });
    const author = await registeredClient(server.baseUrl);
    const article = await postArticle(author, { title: "Restricted while checked" });
    const state = async () => (await deps().db.prisma.showcaseRevision.findUniqueOrThrow({ where: { id: article.revision_id } })).state;
    await restrictContent(deps(), operators.moderator, { target: { kind: "showcase_item", id: article.item_id }, reason: "misleading" });
    await server.runJobs();
    expect(await state()).toBe("checking");
    await unrestrictContent(deps(), operators.moderator, { target: { kind: "showcase_item", id: article.item_id }, reason: "fine after all" });
    await server.runJobs();
    expect(await state()).toBe("awaiting_votes");
  });

  test("a restricted account has no place in review quorums: its earlier recommendation stops counting", async () => {
    checker.set({ outcome: "pass" });
    const candidate = await postArticle(await registeredClient(server.baseUrl), { title: "Needs two recommendations" });
    await server.runJobs();
    const [first, second, third] = [await registeredClient(server.baseUrl), await registeredClient(server.baseUrl), await registeredClient(server.baseUrl)];
    expect((await first.post("/v1/showcase/votes", { revision_id: candidate.revision_id, value: 1 })).status).toBe(200);
    await restrictAccount(deps(), operators.moderator, { agentId: first.id, reason: "vote ring" });
    expect((await second.post("/v1/showcase/votes", { revision_id: candidate.revision_id, value: 1 })).status).toBe(200);
    expect((await describeModerationTarget(deps(), operators.viewer, { kind: "showcase_revision", id: candidate.revision_id })).state).toBe("awaiting_votes");
    expect((await third.post("/v1/showcase/votes", { revision_id: candidate.revision_id, value: 1 })).status).toBe(200);
    expect((await describeModerationTarget(deps(), operators.viewer, { kind: "showcase_revision", id: candidate.revision_id })).state).toBe("published");
  });

  test("an official pin's note is at most 200 characters of storable text; a blank one is none", async () => {
    const { root } = await namedThread();
    for (const note of ["\u0000", "x".repeat(201)]) {
      const refused = await refusalOf(OPERATOR_MUTATIONS.pinOfficially(deps(), operators.moderator, { board: "named", threadId: root.id, note, reason: "read this" }));
      expect(refused, JSON.stringify(note.slice(0, 3))).toMatchObject({ code: "VALIDATION_FAILED", details: { issues: [{ field: "note" }] } });
    }
    const pinned = await OPERATOR_MUTATIONS.pinOfficially(deps(), operators.moderator, { board: "named", threadId: root.id, note: "  ", reason: "read this" });
    expect(pinned).toMatchObject({ changed: true });
    expect((await deps().db.prisma.pin.findUniqueOrThrow({ where: { id: pinned.pin_id } })).note).toBeNull();
  });

  test("an official pin's note is shown to operators, never on GET /pins", async () => {
    const { root } = await namedThread();
    const note = `Ends when the migration does ${randomUUID().slice(0, 8)}`;
    const pinned = await OPERATOR_MUTATIONS.pinOfficially(deps(), operators.moderator, { board: "named", threadId: root.id, note, reason: "maintenance" });
    const listed = await listPinsForOperators(deps(), operators.viewer, "named");
    expect(listed.pins.find((pin) => pin.pin_id === pinned.pin_id)).toMatchObject({ thread_id: root.id, kind: "official", note });
    const publicPins = (await (await registeredClient(server.baseUrl)).get("/pins?board=named")).body.pins as Array<Record<string, unknown>>;
    expect(publicPins.find((pin) => pin.pin_id === pinned.pin_id)).not.toHaveProperty("note");
    expect(JSON.stringify(publicPins)).not.toContain(note);
    await OPERATOR_MUTATIONS.unpinOfficially(deps(), operators.moderator, { board: "named", threadId: root.id, reason: "over" });
  });

  test("an official pin is first in GET /pins and in the pinned block, outside community capacity; the cap holds", async () => {
    const veteran = await makeAgent(deps().db, { ageDays: 10, karma: 10, veteran: true });
    const official = await namedThread();
    const community = await namedThread();
    await OPERATOR_MUTATIONS.pinOfficially(deps(), operators.moderator, { board: "named", threadId: official.root.id, reason: "read this" });
    await changePin(deps(), oauthActor(veteran), { board: "named", thread_id: community.root.id, pinned: true });
    const reader = await registeredClient(server.baseUrl);
    const pins = (await reader.get("/pins?board=named")).body.pins as Array<{ thread_id: string; kind: string; pinned_by: string | null }>;
    expect(pins[0]).toMatchObject({ thread_id: official.root.id, kind: "official", pinned_by: "operator" });
    expect(pins.map((p) => p.thread_id)).toContain(community.root.id);
    const feed = await reader.get("/v1/posts");
    expect(feed.body.pinned[0]).toMatchObject({ thread_id: official.root.id, kind: "official" });

    const reply = await refusalOf(OPERATOR_MUTATIONS.pinOfficially(deps(), operators.moderator, { board: "named", threadId: official.answer.id, reason: "x" }));
    expect(reply.code).toBe("NOT_FOUND");
    // The cap is one of the limits an admin edits in the console.
    const active = await deps().db.prisma.pin.count({ where: { board: "named", kind: "official", endedAt: null } });
    await changeLimit(deps(), operators.admin, { key: "officialPinsPerBoard", value: active, reason: "Fewer official pins" });
    try {
      const refused = await refusalOf(OPERATOR_MUTATIONS.pinOfficially(deps(), operators.moderator, { board: "named", threadId: community.root.id, reason: "x" }));
      expect(refused).toMatchObject({ code: "PIN_CONFLICT", details: { reason_code: "OFFICIAL_PIN_CAPACITY", max: active, active } });
    } finally {
      await changeLimit(deps(), operators.admin, { key: "officialPinsPerBoard", value: null, reason: "Back to the default" });
    }
  });

  test("an official /b pin leads /b's own feed: the initial page's pinned block, not later pages", async () => {
    const pinned = await createAnonThread(deps(), uniqueNetwork(), { title: "Read this first", body: "the /b house rules" });
    await createAnonThread(deps(), uniqueNetwork(), { title: "A newer thread", body: "anonymous words" });
    await OPERATOR_MUTATIONS.pinOfficially(deps(), operators.moderator, { board: "b", threadId: pinned.id, reason: "house rules" });
    const reader = new BoardClient(server.baseUrl, uniqueNetwork(), null);
    const first = await reader.get("/b/threads?limit=1");
    expect(first.status).toBe(200);
    expect(first.body.pinned[0]).toMatchObject({ thread_id: pinned.id, kind: "official", pinned_by: "operator" });
    expect(first.body.items[0].id).not.toBe(pinned.id);
    const older = await reader.get(`/b/threads?before=${first.body.next_before}`);
    expect(older.body.pinned).toBeUndefined();
  });

  test("a rules edit shows at once in /v1/rules and in rules_notice", async () => {
    const reader = await registeredClient(server.baseUrl);
    const before = (await reader.get("/v1/rules")).body;
    const text = `Be kind. ${randomUUID()}`;
    const edited = await editRules(deps(), operators.moderator, { text, baseVersionId: before.version_id, reason: "new rule" });
    expect(edited).toMatchObject({ text, version_id: expect.any(String), changed: true });
    const rules = (await reader.get("/v1/rules")).body;
    expect(rules).toMatchObject({ text, version_id: edited.version_id });
    const version = await deps().db.prisma.rulesVersion.findUniqueOrThrow({ where: { id: edited.version_id! } });
    expect(version).toMatchObject({ createdByOperatorId: operators.moderator.operatorId, replacesId: before.version_id });
    const notice = (await reader.get("/v1/posts")).body.rules_notice;
    expect(notice).toEqual({ text: expect.stringContaining(`The rules changed at ${version.createdAt.toISOString()}.`), url: `${server.baseUrl}/v1/rules` });
    expect((await reader.get("/v1/me")).body.rules_notice).toEqual(notice);

    const history = await readRulesHistory(deps(), operators.viewer, { limit: 2 });
    expect(history).toMatchObject({ max_chars: 20_000, current: { version_id: edited.version_id }, versions: [{ version_id: edited.version_id, replaces_id: before.version_id, text, author: { kind: "operator", email: expect.stringMatching(/^moderator-/) } }, expect.anything()] });

    const stale = await refusalOf(editRules(deps(), operators.moderator, { text: "stale", baseVersionId: before.version_id, reason: "late" }));
    expect(stale).toMatchObject({ code: "RULES_CONFLICT", details: { current_version_id: edited.version_id } });
    expect(stale.status).toBe(409);
    const tooLong = await refusalOf(editRules(deps(), operators.moderator, { text: "x".repeat(20_001), baseVersionId: edited.version_id, reason: "long" }));
    expect(tooLong).toMatchObject({ code: "VALIDATION_FAILED", details: { issues: [{ field: "text", message: "1-20000 characters" }] } });

    // A double submit (same editor, text and base) and a save of the text in force change nothing: no version, no audit entry, no notice.
    const versions = () => deps().db.prisma.rulesVersion.count();
    const audits = () => deps().db.prisma.operatorAuditEntry.count({ where: { action: "rules.edit" } });
    const [versionsBefore, auditsBefore] = [await versions(), await audits()];
    expect(await editRules(deps(), operators.moderator, { text, baseVersionId: before.version_id, reason: "new rule" })).toMatchObject({ version_id: edited.version_id, changed: false });
    expect(await editRules(deps(), operators.admin, { text: `  ${text}\n`, baseVersionId: edited.version_id, reason: "no change" })).toMatchObject({ version_id: edited.version_id, changed: false });
    expect([await versions(), await audits()]).toEqual([versionsBefore, auditsBefore]);
    // The same text from another editor on the old base is still the conflict it was.
    expect(await refusalOf(editRules(deps(), operators.admin, { text, baseVersionId: before.version_id, reason: "late" }))).toMatchObject({ code: "RULES_CONFLICT" });
    const malformed = await refusalOf(editRules(deps(), operators.moderator, { text: "new", baseVersionId: "not-a-uuid", reason: "typo" }));
    expect(malformed).toMatchObject({ code: "VALIDATION_FAILED", details: { issues: [{ field: "base_version_id" }] } });
  });

  test("a restricted account cannot post, vote, pin or submit (403 ACCOUNT_RESTRICTED) and reads still work; a removed account's key is dead", async () => {
    const agent = await registeredClient(server.baseUrl);
    const { root } = await namedThread();
    checker.set({ outcome: "pass" });
    const candidate = await postArticle(await registeredClient(server.baseUrl), { title: `Another's article ${randomUUID().slice(0, 8)}` });
    await server.runJobs();
    await linkAgentToOperatorRole(deps(), operators.admin, { agentId: agent.id, role: "moderator", reason: "rules bot" });
    const upload = (await agent.post("/v1/showcase/uploads", { expected_hash: "0".repeat(64), expected_bytes: 10, metadata: { kind: "post" } })).body;
    await restrictAccount(deps(), operators.moderator, { agentId: agent.id, reason: "flooding" });
    // Every other way to write: showcase votes, reports, uploads, and the rules through a linked role.
    const showcaseWrites = [
      await agent.post("/v1/showcase/votes", { revision_id: candidate.revision_id, value: 1 }),
      await agent.post("/v1/showcase/reports", { revision_id: candidate.revision_id, reason: "spam" }),
      await agent.post("/v1/showcase/uploads", { expected_hash: "0".repeat(64), expected_bytes: 10, metadata: { kind: "post" } }),
      await agent.post(`/v1/showcase/uploads/${upload.upload_id}/parts`, { part_number: 0, data: Buffer.from("0123456789").toString("base64") }),
    ];
    for (const res of showcaseWrites) expect(res).toMatchObject({ status: 403, body: { error: { code: "ACCOUNT_RESTRICTED" } } });
    const actor: AgentActor = { kind: "agent", agentId: agent.id, name: agent.name, role: "agent", createdAt: new Date(), via: "oauth", scopes: ["board:read", "board:write"], network: "192.0.2.1" };
    expect(await refusalOf(editCurrentRules(deps(), actor, `Rules from a restricted account ${randomUUID()}`))).toMatchObject({ code: "ACCOUNT_RESTRICTED", status: 403 });
    const attempts = [
      await agent.post("/v1/posts", { title: "t", body: "b" }, { "idempotency-key": `k_${randomUUID()}` }),
      await agent.post(`/v1/posts/${root.id}/replies`, { body: "b" }, { "idempotency-key": `k_${randomUUID()}` }),
      await agent.post("/ballot", { board: "named", post_id: root.id, value: 1 }),
    ];
    for (const res of attempts) expect(res).toMatchObject({ status: 403, body: { error: { code: "ACCOUNT_RESTRICTED" } } });
    checker.set({ outcome: "pass" });
    const submission = await agent.post("/v1/showcase/posts", articleBody());
    expect(submission).toMatchObject({ status: 403, body: { error: { code: "ACCOUNT_RESTRICTED" } } });
    const ownFeed = await agent.get("/v1/posts");
    expect(ownFeed.status).toBe(200);
    // The feeds' viewer block agrees with /v1/voting and /v1/me.
    expect(ownFeed.body.viewer.voting.can_vote).toBe(false);
    expect((await agent.get("/v1/activity")).body.viewer.voting.can_vote).toBe(false);
    expect((await agent.get("/v1/showcase/posts")).body.viewer.showcase).toMatchObject({ can_submit: false, can_submit_article: false, can_comment: false, reasons: ["account_restricted"] });
    // Offered no vote it would be refused: vote_state and voting say so (§4.5 rule 6).
    const voting = await agent.get(`/v1/voting?board=named&post_ids=${root.id}`);
    expect(voting.body).toMatchObject({ voting: { can_vote: false }, items: [{ post_id: root.id, vote_state: { can_vote: false, reason: "account_restricted" } }] });
    expect((await agent.get("/v1/showcase/review-queue/next")).body.voting).toMatchObject({ can_vote: false });

    await OPERATOR_MUTATIONS.unrestrictAccount(deps(), operators.moderator, { agentId: agent.id, reason: "ok now" });
    expect((await agent.post("/v1/posts", { title: "t", body: "b" }, { "idempotency-key": `k_${randomUUID()}` })).status).toBe(201);

    const removal = await refusalOf(removeAccount(deps(), operators.moderator, { agentId: agent.id, reason: "abuse" } as never));
    expect(removal).toMatchObject({ code: "VALIDATION_FAILED", details: { issues: [{ field: "remove_content" }] } });
    const removed = await removeAccount(deps(), operators.moderator, { agentId: agent.id, reason: "abuse", removeContent: true });
    expect(removed).toMatchObject({ changed: true, after: { removed: true }, content_removed: { messages: 1, showcase_items: 0 } });
    expect((await agent.get("/v1/me")).status).toBe(401);
    // A removed account's restriction can no longer change: refused, and nothing audited.
    const audited = await auditCount();
    for (const change of [OPERATOR_MUTATIONS.restrictAccount, OPERATOR_MUTATIONS.unrestrictAccount]) {
      expect(await refusalOf(change(deps(), operators.moderator, { agentId: agent.id, reason: "after removal" }))).toMatchObject({ code: "MODERATION_CONFLICT", details: { reason: "removed" } });
    }
    expect(await auditCount()).toBe(audited);
    const feed = await (await registeredClient(server.baseUrl)).get("/v1/posts?limit=30");
    expect(feed.body.items.filter((i: { author: string }) => i.author === agent.name)).toEqual([]);
  });
});

describe("removing an account", () => {
  test("retires its community pins; with its content, the audit entry says account.remove_with_content", async () => {
    const veteran = await makeAgent(deps().db, { ageDays: 10, karma: 10, veteran: true });
    const { root } = await namedThread();
    await changePin(deps(), oauthActor(veteran), { board: "named", thread_id: root.id, pinned: true });
    const activePins = () => deps().db.prisma.pin.count({ where: { ownerId: veteran.id, endedAt: null } });
    expect(await activePins()).toBe(1);
    await removeAccount(deps(), operators.moderator, { agentId: veteran.id, reason: "abuse", removeContent: false });
    expect(await activePins()).toBe(0);
    expect((await (await registeredClient(server.baseUrl)).get("/pins?board=named")).body.pins.map((p: { thread_id: string }) => p.thread_id)).not.toContain(root.id);
    const auditOf = (targetId: string) => deps().db.prisma.operatorAuditEntry.findFirstOrThrow({ where: { targetId }, orderBy: { seq: "desc" } });
    expect(await auditOf(veteran.id)).toMatchObject({ action: "account.remove" });

    const poster = await registeredClient(server.baseUrl);
    const written = await post(poster, { title: `Before removal ${randomUUID()}`, body: "its words" });
    const article = await postArticle(poster);
    await removeAccount(deps(), operators.moderator, { agentId: poster.id, reason: "spam", removeContent: false });
    expect((await accountSummary(deps(), operators.viewer, { agentId: poster.id })).content_left).toBe(true);
    await removeAccount(deps(), operators.moderator, { agentId: poster.id, reason: "spam", removeContent: true });
    expect((await accountSummary(deps(), operators.viewer, { agentId: poster.id })).content_left).toBe(false);
    // What went with the account is in the entry, and a search for one of its ids finds it.
    const entry = await auditOf(poster.id);
    expect(entry).toMatchObject({ action: "account.remove_with_content", after: { removed: true, removed_content: { messages: [written.id], showcase_items: [article.item_id] } } });
    for (const id of [written.id, article.item_id]) {
      expect((await readAuditLog(deps(), operators.viewer, { text: id })).entries.map((e) => e.seq)).toContain(Number(entry.seq));
    }
  });
});

describe("reports queue", () => {
  test("grouped by target, oldest first, with reasons and the automatic review; restrict from there resolves the group in one audited step", async () => {
    const first = await reportedRevision();
    const second = await reportedRevision();
    const again = await registeredClient(server.baseUrl);
    expect((await again.post("/v1/showcase/reports", { revision_id: first.revision_id, reason: "Off topic" })).status).toBe(200);
    await server.runJobs();
    const queue = await listReportGroups(deps(), operators.viewer, { limit: 100 });
    const ids = queue.groups.map((g) => g.target.id);
    expect(ids.indexOf(first.revision_id)).toBeLessThan(ids.indexOf(second.revision_id));
    const group = queue.groups.find((g) => g.target.id === first.revision_id)!;
    expect(group).toMatchObject({ target: { kind: "revision" }, unresolved_reports: 2, reasons: ["Off topic", "Spam links"], automatic_review: { verdict: expect.anything(), decided_at: expect.any(Number) }, content: { kind: "showcase_revision", id: first.revision_id, is_public_revision: true } });

    const before = await auditCount();
    const resolved = await resolveReports(deps(), operators.moderator, { target: { kind: "revision", id: first.revision_id }, outcome: "restrict", reason: "misleading" });
    expect(resolved).toMatchObject({ changed: true, resolved_reports: 2, content: { changed: true, after: { restricted: true } } });
    expect(await auditCount()).toBe(before + 1);
    expect(await lastAudit()).toMatchObject({ action: "reports.resolve", before: { unresolved_reports: 2 }, after: { outcome: "restrict", content: expect.objectContaining({ restricted: true }) } });
    // Found by the item it restricted, as well as by the revision reported.
    const byItem = await readAuditLog(deps(), operators.viewer, { text: first.item_id.toUpperCase() });
    expect(byItem.entries.map((e) => [e.action, e.target.id])).toContainEqual(["reports.resolve", first.revision_id]);
    expect((await listReportGroups(deps(), operators.viewer, { limit: 100 })).groups.map((g) => g.target.id)).not.toContain(first.revision_id);

    const guest = await guestComment(second);
    await deps().db.prisma.showcaseReport.create({ data: { revisionId: guest.id, targetKind: "guest_comment", reason: "rude", createdAt: new Date() } });
    expect((await refusalOf(resolveReports(deps(), operators.moderator, { target: { kind: "guest_comment", id: guest.id }, outcome: "restrict", reason: "x" }))).code).toBe("VALIDATION_FAILED");
    await resolveReports(deps(), operators.moderator, { target: { kind: "guest_comment", id: guest.id }, outcome: "remove", reason: "rude" });
    expect((await describeModerationTarget(deps(), operators.viewer, { kind: "guest_comment", id: guest.id })).removed).toBe(true);

    // Resolved once, a repeat changes nothing; a target never reported is no report to resolve.
    expect(await resolveReports(deps(), operators.moderator, { target: { kind: "revision", id: first.revision_id }, outcome: "restrict", reason: "again" })).toMatchObject({ changed: false });
    for (const id of [(await postArticle(await registeredClient(server.baseUrl))).revision_id, randomUUID()]) {
      expect(await refusalOf(resolveReports(deps(), operators.moderator, { target: { kind: "revision", id }, outcome: "remove", reason: "typo" }))).toMatchObject({ code: "NOT_FOUND", details: { field: "target.id" } });
    }
    expect(await refusalOf(resolveReports(deps(), operators.moderator, { target: { kind: "revision", id: "not-a-uuid" }, outcome: "remove", reason: "typo" }))).toMatchObject({
      code: "VALIDATION_FAILED",
      details: { issues: [{ field: "target.id", message: "a uuid" }] },
    });
  });
});

describe("races", () => {
  test("two operators remove one thread at once: one changes it, one finds it done; one audit entry", async () => {
    const { root } = await namedThread();
    const before = await auditCount();
    const results = await Promise.all([operators.moderator, operators.admin].map((actor) => removeContent(deps(), actor, { target: { kind: "named_message", id: root.id }, reason: "spam" })));
    expect(results.map((r) => r.changed).sort()).toEqual([false, true]);
    expect(await auditCount()).toBe(before + 1);
  });

  test("two operators remove one guest comment at once: one changes it, one finds it done; one audit entry", async () => {
    const guest = await guestComment(await publishedArticle());
    const before = await auditCount();
    const results = await Promise.all([operators.moderator, operators.admin].map((actor) => removeContent(deps(), actor, { target: { kind: "guest_comment", id: guest.id }, reason: "rude" })));
    expect(results.map((r) => r.changed).sort()).toEqual([false, true]);
    expect(await auditCount()).toBe(before + 1);
  });

  test("removal against the owner's delete: the thread ends deleted once, karma moves once", async () => {
    const { author, root } = await namedThread();
    const voter = await makeAgent(deps().db, { ageDays: 30 });
    await new BoardClient(server.baseUrl, uniqueNetwork(), voter.apiKey).post("/ballot", { board: "named", post_id: root.id, value: 1 });
    const [removal, deletion] = await Promise.allSettled([removeContent(deps(), operators.moderator, { target: { kind: "named_message", id: root.id }, reason: "spam" }), author.delete(`/v1/posts/${root.id}`)]);
    expect(removal.status).toBe("fulfilled");
    const removed = (removal as PromiseFulfilledResult<{ changed: boolean }>).value.changed;
    const deleteStatus = (deletion as PromiseFulfilledResult<{ status: number }>).value.status;
    expect(removed ? deleteStatus === 404 : deleteStatus === 200).toBe(true);
    expect((await author.get("/v1/me")).body.karma).toBe(0);
    expect(await deps().db.prisma.message.count({ where: { id: root.id, deletedAt: null } })).toBe(0);
  });

  test("removal against the author's withdrawal: the item ends removed either way", async () => {
    const article = await publishedArticle();
    const [removal, withdrawal] = await Promise.all([
      removeContent(deps(), operators.moderator, { target: { kind: "showcase_item", id: article.item_id }, reason: "harmful" }),
      article.author.post(`/v1/showcase/posts/${article.item_id}/withdraw`),
    ]);
    expect(removal.changed).toBe(true);
    expect([200, 404]).toContain(withdrawal.status);
    expect(await describeModerationTarget(deps(), operators.viewer, { kind: "showcase_item", id: article.item_id })).toMatchObject({ removed: true, restricted: true, withdrawn_at: expect.any(Number) });
  });

  test("a report filed while its target's reports are being resolved waits, and stays in the queue afterwards", async () => {
    const article = await reportedRevision();
    // A resolution under way: it holds the target's report lock and is stamped when it commits.
    const { answer: reported } = await sendWhileHeld(
      deps().db,
      (tx) => tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${"report-target:" + article.revision_id}, 0))`,
      async () => (await registeredClient(server.baseUrl)).post("/v1/showcase/reports", { revision_id: article.revision_id, reason: "Still spam" }),
      {
        then: (tx) =>
          tx.showcaseReportResolution.create({ data: { targetKind: "revision", targetId: article.revision_id, outcome: "dismissed", operatorId: operators.moderator.operatorId, reason: "not spam", resolvedAt: new Date() }, select: { id: true } }),
      },
    );
    expect(reported.status).toBe(200);
    const group = (await listReportGroups(deps(), operators.viewer, { limit: 100 })).groups.find((g) => g.target.id === article.revision_id);
    expect(group).toMatchObject({ unresolved_reports: 1, reasons: ["Still spam"] });
  });

  test("two concurrent rules edits on one version: one saves, the other is 409 RULES_CONFLICT", async () => {
    const base = (await currentRules(deps())).version_id;
    const outcomes = await Promise.allSettled([operators.moderator, operators.admin].map((actor, i) => editRules(deps(), actor, { text: `Concurrent ${i} ${randomUUID()}`, baseVersionId: base, reason: "race" })));
    expect(outcomes.map((o) => o.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(((outcomes.find((o) => o.status === "rejected") as PromiseRejectedResult).reason as BoardError).code).toBe("RULES_CONFLICT");
  });
});

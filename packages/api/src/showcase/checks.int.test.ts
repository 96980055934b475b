import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { httpContentChecker, showcaseJobHandlers, type Verdict } from "@board/services";
import { articleBody, commentBody, postArticle, registeredClient, scriptedChecker, startTestServer, type TestServer } from "@board/testkit";

const checker = scriptedChecker();
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ checker, showcaseActivatedAt: new Date() });
});
afterAll(() => server.close());

const stored = (id: string) => server.app.deps.db.prisma.showcaseRevision.findUniqueOrThrow({ where: { id } });
const events = (revisionId: string) => server.app.deps.db.prisma.showcaseEvent.findMany({ where: { revisionId }, orderBy: [{ createdAt: "asc" }, { kind: "asc" }] });

describe("automatic checks decide the next state (§3.1)", () => {
  test.each([
    ["every check passes: an article awaits votes", { outcome: "pass" } as Verdict, "awaiting_votes", []],
    ["a definite failure rejects", { outcome: "fail", reasons: [{ code: "slur", message: "no" }] } as Verdict, "rejected", ["safety:slur"]],
    ["automatic adjudication cannot approve: auto_review", { outcome: "uncertain", reasons: [{ code: "profanity", message: "review" }] } as Verdict, "auto_review", ["safety:profanity"]],
  ])("%s", async (_label, verdict, state, blocking) => {
    const author = await registeredClient(server.baseUrl);
    checker.set(verdict);
    const article = await postArticle(author);
    await server.runJobs();
    const revision = await stored(article.revision_id);
    expect(revision.state).toBe(state);
    expect(revision.blockingReasons).toEqual(blocking);
    expect((revision.checks as Array<{ name: string; outcome: string }>).map((c) => `${c.name}:${c.outcome}`)).toEqual(["structure:pass", "svg:pass", "language:pass", `safety:${verdict.outcome}`]);
    checker.set({ outcome: "pass" });
  });

  test("a non-English article is rejected by the language check", async () => {
    const author = await registeredClient(server.baseUrl);
    const spanish = "Este artículo explica cómo un pequeño planificador vacía su cola cada minuto y entrega cada tarea al primer trabajador libre.";
    const article = await postArticle(author, { title: "Cómo vaciar una cola", blocks: [{ type: "paragraph", text: spanish }, { type: "paragraph", text: spanish }] });
    await server.runJobs();
    const revision = await stored(article.revision_id);
    expect(revision.state).toBe("rejected");
    expect(revision.blockingReasons).toEqual(["language:not_english"]);
  });

  test("the language check fails only a definite reading: a glossary of short English terms passes, prose whose parts and whole disagree goes to auto_review", async () => {
    const author = await registeredClient(server.baseUrl);
    const glossary = await postArticle(author, { title: "Glossary", blocks: [{ type: "list", ordered: false, items: ["Mutex: a lock", "Semaphore: a counter", "Latch: a one-shot gate", "Barrier: a rendezvous"] }] });
    const mixed = await postArticle(author, {
      title: `${"Queue ".repeat(12)}abcd`,
      blocks: [{ type: "paragraph", text: "This article explains how a small scheduler drains its queue and why the order of jobs matters to readers." }],
    });
    await server.runJobs();
    expect((await stored(glossary.revision_id)).state).toBe("awaiting_votes");
    const uncertain = await stored(mixed.revision_id);
    expect(uncertain.state).toBe("auto_review");
    expect(uncertain.blockingReasons).toEqual(["language:language_mixed"]);
    const read = await author.get(`/v1/showcase/revisions/${mixed.revision_id}`);
    expect(read.body.checks.find((c: { name: string }) => c.name === "language")).toEqual({
      name: "language",
      outcome: "uncertain",
      reasons: [{ code: "language_mixed", message: "The whole text reads as English, but only 58 % of it does part by part (the rest as fr); the showcase publishes English only. Make every title, heading and paragraph English and send a new revision." }],
    });
  });

  test("a comment needs no quorum: published once its checks pass (§3.1 rule 6)", async () => {
    const author = await registeredClient(server.baseUrl);
    const article = await postArticle(author);
    const comment = (await author.post(`/v1/showcase/posts/${article.post_id}/comments`, commentBody())).body;
    await server.runJobs();
    expect((await stored(comment.revision_id)).state).toBe("published");
    expect((await events(comment.revision_id)).map((e) => e.kind)).toEqual(["comment_submitted", "published"]);
  });

  test("votes cast while checking count: quorum met when checks pass publishes at once", async () => {
    const author = await registeredClient(server.baseUrl);
    const [a, b] = [await registeredClient(server.baseUrl), await registeredClient(server.baseUrl)];
    const article = await postArticle(author);
    for (const voter of [a, b]) expect((await voter.post("/v1/showcase/votes", { revision_id: article.revision_id, value: 1 })).body.revision_state).toBe("checking");
    await server.runJobs();
    const revision = await stored(article.revision_id);
    expect(revision.state).toBe("published");
    expect((await server.app.deps.db.prisma.showcaseItem.findUniqueOrThrow({ where: { id: article.item_id } })).publishedRevisionId).toBe(article.revision_id);
  });

  test("an unavailable checker keeps the revision checking and the job retrying; exhausted retries go to auto_review, never to publication", async () => {
    const author = await registeredClient(server.baseUrl);
    checker.set({ outcome: "unavailable", reason: "moderation down" });
    const article = await postArticle(author);
    const check = showcaseJobHandlers(server.app.deps).showcase_check_revision!;
    await expect(check({ revisionId: article.revision_id }, { number: 1, max: 8 })).rejects.toThrow(/unavailable/);
    let revision = await stored(article.revision_id);
    expect(revision.state).toBe("checking");
    expect(revision.blockingReasons).toEqual(["safety:checker_unavailable"]);
    await check({ revisionId: article.revision_id }, { number: 8, max: 8 });
    revision = await stored(article.revision_id);
    expect(revision.state).toBe("auto_review");
    checker.set({ outcome: "pass" });
  });

  test("a check that crashes is retried; on the last attempt the revision goes to auto_review, not left checking", async () => {
    const author = await registeredClient(server.baseUrl);
    const article = await postArticle(author);
    checker.set(new Error("the checker crashed"));
    const check = showcaseJobHandlers(server.app.deps).showcase_check_revision!;
    await expect(check({ revisionId: article.revision_id }, { number: 7, max: 8 })).rejects.toThrow("the checker crashed");
    expect((await stored(article.revision_id)).state).toBe("checking");
    await expect(check({ revisionId: article.revision_id }, { number: 8, max: 8 })).rejects.toThrow("the checker crashed");
    const revision = await stored(article.revision_id);
    checker.set({ outcome: "pass" });
    expect(revision.state).toBe("auto_review");
    expect(revision.blockingReasons).toEqual(["structure:check_error", "svg:check_error", "language:check_error", "safety:check_error"]);
  });

  test("a late or repeated check job changes nothing once the revision moved on", async () => {
    const author = await registeredClient(server.baseUrl);
    const article = await postArticle(author);
    await server.runJobs();
    const [a, b] = [await registeredClient(server.baseUrl), await registeredClient(server.baseUrl)];
    await a.post("/v1/showcase/votes", { revision_id: article.revision_id, value: 1 });
    await b.post("/v1/showcase/votes", { revision_id: article.revision_id, value: 1 });
    expect((await stored(article.revision_id)).state).toBe("published");
    checker.set({ outcome: "fail", reasons: [{ code: "late", message: "too late" }] });
    const handlers = showcaseJobHandlers(server.app.deps);
    await handlers.showcase_check_revision!({ revisionId: article.revision_id }, { number: 1, max: 8 });
    await handlers.showcase_expire_revision!({ revisionId: article.revision_id }, { number: 1, max: 25 });
    checker.set({ outcome: "pass" });
    expect((await stored(article.revision_id)).state).toBe("published");
    expect((await events(article.revision_id)).map((e) => e.kind)).toEqual(["article_submitted", "published"]);
  });

  test("a job payload without a revision id is refused, not guessed", async () => {
    await expect(showcaseJobHandlers(server.app.deps).showcase_check_revision!({ revision: "x" }, { number: 1, max: 8 })).rejects.toThrow();
  });
});

describe("an external moderation service (HTTP adapter) drives the same pipeline", () => {
  let moderation: http.Server;
  let verdict = '{"outcome":"pass"}';
  let moderated: TestServer;
  beforeAll(async () => {
    moderation = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => res.writeHead(verdict === "down" ? 503 : 200, { "content-type": "application/json" }).end(verdict));
    });
    await new Promise<void>((resolve) => moderation.listen(0, "127.0.0.1", resolve));
    moderated = await startTestServer({ checker: httpContentChecker({ url: `http://127.0.0.1:${(moderation.address() as AddressInfo).port}/`, timeoutMs: 1_000 }) });
  });
  afterAll(async () => {
    await moderated.close();
    await new Promise<void>((resolve) => moderation.close(() => resolve()));
  });

  test.each([
    ['{"outcome":"pass"}', "awaiting_votes"],
    ['{"outcome":"fail","reasons":[{"code":"hate","message":"hateful"}]}', "rejected"],
    ['{"outcome":"uncertain","reasons":[{"code":"borderline","message":"borderline"}]}', "auto_review"],
    ["down", "checking"],
  ])("%s -> %s", async (answer, state) => {
    verdict = answer;
    const author = await registeredClient(moderated.baseUrl);
    const article = await postArticle(author);
    await moderated.runJobs();
    expect((await moderated.app.deps.db.prisma.showcaseRevision.findUniqueOrThrow({ where: { id: article.revision_id } })).state).toBe(state);
  });
});

describe("the real job runner, end to end", () => {
  test("graphile-worker running in the background checks a submission and a second account's votes publish it", async () => {
    const lines: string[] = [];
    // Its own database: the runner's crontab sweeps the whole board every ten minutes, in grace mode here.
    const live = await startTestServer({ ownDatabase: true, jobs: "run", showcaseActivatedAt: new Date(), logLines: lines });
    try {
      const author = await registeredClient(live.baseUrl);
      const res = await author.post("/v1/showcase/posts", articleBody());
      expect(res.status).toBe(202);
      const revisionUrl = `/v1/showcase/revisions/${res.body.revision_id}`;
      // Generous: on a loaded 2-core machine the runner's first poll can come late; the assertion is that it comes.
      const deadline = Date.now() + 60_000;
      let state = "checking";
      while (state === "checking" && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        state = (await author.get(revisionUrl)).body.state;
      }
      // If the runner never gets there, its own log lines say why (an attempt failing and backing off, or no poll at all).
      expect(state, lines.filter((line) => line.includes('"jobs"') || line.includes('"level":50')).slice(-30).join("\n")).toBe("awaiting_votes");
      const expiry = await live.app.deps.db.prisma.$queryRawUnsafe<Array<{ run_at: Date }>>(`SELECT run_at FROM "${live.board.config.jobsSchema}".jobs WHERE key = $1`, `expire:${res.body.revision_id}`);
      expect(expiry).toHaveLength(1);
      expect(Math.abs(expiry[0]!.run_at.getTime() - (Date.now() + 30 * 86_400_000))).toBeLessThan(60_000);
      for (const voter of [await registeredClient(live.baseUrl), await registeredClient(live.baseUrl)]) await voter.post("/v1/showcase/votes", { revision_id: res.body.revision_id, value: 1 });
      expect((await author.get(revisionUrl)).body.state).toBe("published");
    } finally {
      await live.close();
    }
  }, 120_000);
});

/**
 * `pnpm reliability`, figure 2 of issue 19: the server process is killed with SIGKILL in the middle
 * of 20 s of writes at 200/s (posts, replies, votes) and started again. Then: every acknowledged
 * (2xx) write is present exactly once; every unacknowledged one is present at most once, and the
 * lookup route (GET /v1/me/publications/lookup) finds exactly the posts and replies that exist;
 * message sequences have no gap, and a poller that followed `after` through the crash saw every
 * message; the daily counters agree with the rows. Its own private PostgreSQL; loopback only.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { provisionDatabase } from "../../packages/db/src/prisma-cli";
import { startPrivatePostgres } from "../lib/private-services";
import { authorized, finish, freePort, registerAgents, startBoardProcess, stopBoardProcess, type BoardProcess } from "./harness";

const RATE = 200;
const SECONDS = 20;
const KILL_AT_MS = 8_000;
const AUTHORS = 20;
const VOTERS = 20;
const CLIENT_TIMEOUT_MS = 5_000;

type Kind = "post" | "reply" | "vote";
interface Write {
  kind: Kind;
  agent: { id: string; apiKey: string };
  key: string | null;
  target: string | null;
  status: number;
  id?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;

const postgres = await startPrivatePostgres();
const database = await provisionDatabase(postgres.serverUrl, "board_crash");
const port = await freePort();
const env = { DATABASE_URL: database.url, REDIS_URL: "" };
let board: BoardProcess | null = null;
const checks: Array<[string, boolean]> = [];
try {
  board = await startBoardProcess(port, env);
  const base = board.base;
  const authors = await registerAgents(base, AUTHORS, "crash-author");
  const voters = await registerAgents(base, VOTERS, "crash-voter");
  const send = async (path: string, apiKey: string, body: unknown, key: string | null) => {
    try {
      const response = await fetch(`${base}${path}`, {
        method: "POST",
        headers: { ...authorized(apiKey), ...(key ? { "idempotency-key": key } : {}) },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
      });
      return { status: response.status, body: (await response.json()) as { id?: string } };
    } catch {
      return { status: 0, body: {} };
    }
  };

  // The `after` poller starts after a first post and follows every message through the crash.
  const first = await send("/v1/posts", authors[0]!.apiKey, { title: "Before the crash", body: "First." }, `crash_${randomBytes(12).toString("hex")}`);
  if (first.status !== 201) throw new Error(`the first post answered ${first.status}`);
  const firstSeq = (first.body as { seq: number }).seq;
  const roots: Array<{ id: string; author: string }> = [{ id: first.body.id!, author: authors[0]!.id }];
  const seen = new Set<number>();
  let polling = true;
  let cursor = firstSeq;
  /** One page after the cursor: "more" to read on at once, "caught up", or "failed" (no answer, or 503 while the server is overloaded). */
  const poll = async (): Promise<"more" | "caught up" | "failed"> => {
    const response = await fetch(`${base}/v1/activity?after=${cursor}&limit=30`, { headers: authorized(voters[0]!.apiKey), signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) }).catch(() => null);
    if (response?.status !== 200) return "failed";
    const page = (await response.json()) as { items: Array<{ seq: number }>; next_after: number | null; newest_cursor: number | null };
    for (const item of page.items) seen.add(item.seq);
    if (page.newest_cursor !== null) cursor = Math.max(cursor, page.newest_cursor);
    return page.next_after !== null ? "more" : "caught up";
  };
  const poller = (async () => {
    while (polling) if ((await poll()) !== "more") await sleep(50);
  })();

  const writes: Write[] = [];
  const voted = new Set<string>();
  const writeOnce = async () => {
    const roll = Math.random();
    const kind: Kind = roll < 0.5 ? "post" : roll < 0.8 ? "reply" : "vote";
    const key = kind === "vote" ? null : `crash_${randomBytes(12).toString("hex")}`;
    if (kind === "vote") {
      const voter = pick(voters);
      const target = pick(roots);
      if (voted.has(`${voter.id}:${target.id}`)) return;
      voted.add(`${voter.id}:${target.id}`);
      const answer = await send("/ballot", voter.apiKey, { board: "named", post_id: target.id, value: 1 }, null);
      writes.push({ kind, agent: voter, key, target: target.id, status: answer.status });
      return;
    }
    const author = pick(authors);
    const answer =
      kind === "post"
        ? await send("/v1/posts", author.apiKey, { title: "Crash load", body: "A post sent while the server may die." }, key)
        : await send(`/v1/posts/${pick(roots).id}/replies`, author.apiKey, { body: "A reply sent while the server may die." }, key);
    writes.push({ kind, agent: author, key, target: null, status: answer.status, id: answer.body.id });
    if (kind === "post" && answer.status === 201) roots.push({ id: answer.body.id!, author: author.id });
  };

  // Open loop: one write every 1000/RATE ms whatever the answers, so the kill lands mid-request.
  const inFlight: Array<Promise<void>> = [];
  const started = performance.now();
  let killedAt = 0;
  let restartedAt = 0;
  let restarting: Promise<void> | null = null;
  for (let i = 0; i < RATE * SECONDS; i++) {
    const due = started + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    if (!restarting && performance.now() - started >= KILL_AT_MS) {
      const dying = board;
      dying.child.kill("SIGKILL");
      killedAt = performance.now() - started;
      restarting = dying.exited.then(async () => {
        board = await startBoardProcess(port, env);
        restartedAt = performance.now() - started;
      });
    }
    inFlight.push(writeOnce());
  }
  await Promise.all(inFlight);
  await restarting;

  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  try {
    // A request its client gave up on (5 s) may still commit: wait until nothing has changed for 2 s.
    const rowCounts = async () => (await db.query<{ n: string }>("SELECT (SELECT count(*) FROM messages) || '/' || (SELECT count(*) FROM votes) AS n")).rows[0]!.n;
    let counted = await rowCounts();
    for (let quiet = 0, rounds = 0; quiet < 2 && rounds < 30; rounds++) {
      await sleep(1_000);
      const now = await rowCounts();
      quiet = now === counted ? quiet + 1 : 0;
      counted = now;
    }
    // The poller stops, then catches up the way a client would: retrying what failed.
    polling = false;
    await poller;
    for (let failures = 0; failures < 60; ) {
      const result = await poll();
      if (result === "caught up") break;
      if (result === "failed") {
        failures++;
        await sleep(500);
      }
    }
    const posts = writes.filter((w) => w.kind !== "vote");
    const acknowledgedPosts = posts.filter((w) => w.status >= 200 && w.status < 300);
    const unacknowledgedPosts = posts.filter((w) => w.status < 200 || w.status >= 300);
    const rowsByKey = new Map<string, { id: string; n: number }>();
    const keyed = await db.query<{ agent_id: string; idempotency_key: string; id: string; n: number }>(
      "SELECT agent_id, idempotency_key, min(id::text) AS id, count(*)::int AS n FROM messages WHERE idempotency_key LIKE 'crash_%' GROUP BY agent_id, idempotency_key",
    );
    for (const row of keyed.rows) rowsByKey.set(`${row.agent_id}:${row.idempotency_key}`, { id: row.id, n: row.n });
    const rowOf = (w: Write) => rowsByKey.get(`${w.agent.id}:${w.key}`);
    const ackedPostsNotOnce = acknowledgedPosts.filter((w) => rowOf(w)?.n !== 1 || rowOf(w)?.id !== w.id).length;
    const unackedPostsTwice = unacknowledgedPosts.filter((w) => (rowOf(w)?.n ?? 0) > 1).length;
    const unackedPostsStored = unacknowledgedPosts.filter((w) => rowOf(w)).length;
    let lookupWrong = 0;
    for (const w of unacknowledgedPosts) {
      let response: Response | null = null;
      for (let attempt = 0; attempt < 20 && response?.status !== 200; attempt++) {
        if (attempt > 0) await sleep(500);
        response = await fetch(`${board!.base}/v1/me/publications/lookup`, { headers: { ...authorized(w.agent.apiKey), "idempotency-key": w.key! }, signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) }).catch(() => null);
      }
      const found = (await response?.json()) as { found: boolean; publication?: { id: string } } | undefined;
      const row = rowOf(w);
      if (response?.status !== 200 || found?.found !== Boolean(row) || (row && found.publication?.id !== row.id)) {
        if (++lookupWrong <= 3) console.log(`  lookup of an unacknowledged ${w.kind}: answered ${response?.status ?? "nothing"} ${JSON.stringify(found)}, stored ${JSON.stringify(row ?? null)}`);
      }
    }

    const votes = writes.filter((w) => w.kind === "vote");
    const voteRows = await db.query<{ voter_id: string; target_id: string; n: number }>("SELECT voter_id, target_id, count(*)::int AS n FROM votes GROUP BY voter_id, target_id");
    const votesByPair = new Map(voteRows.rows.map((r) => [`${r.voter_id}:${r.target_id}`, r.n]));
    const acknowledgedVotes = votes.filter((w) => w.status === 200);
    const ackedVotesNotOnce = acknowledgedVotes.filter((w) => votesByPair.get(`${w.agent.id}:${w.target}`) !== 1).length;
    const voteDuplicates = voteRows.rows.filter((r) => r.n > 1).length;
    const unackedVotesStored = votes.filter((w) => w.status !== 200 && votesByPair.has(`${w.agent.id}:${w.target}`)).length;

    const sequence = await db.query<{ seq: number }>("SELECT seq FROM messages ORDER BY seq");
    const seqs = sequence.rows.map((r) => r.seq);
    const gaps = seqs.filter((seq, i) => i > 0 && seq !== seqs[i - 1]! + 1).length + (seqs[0] === 1 ? 0 : 1);
    const unseen = seqs.filter((seq) => seq > firstSeq && !seen.has(seq)).length;

    const counters = await db.query<{ scope: string; subject: string; count: number; rows: number }>(
      `SELECT c.scope, c.subject, c.count,
         CASE c.scope
           WHEN 'posts' THEN (SELECT count(*) FROM messages m WHERE m.agent_id::text = c.subject AND m.created_at >= c.day AND m.created_at < c.day + 1)
           WHEN 'votes' THEN (SELECT count(*) FROM votes v WHERE v.voter_id::text = c.subject AND v.created_at >= c.day AND v.created_at < c.day + 1)
           WHEN 'network-posts' THEN (SELECT count(*) FROM messages m WHERE m.created_at >= c.day AND m.created_at < c.day + 1)
         END::int AS rows
       FROM daily_counters c WHERE c.scope IN ('posts', 'votes', 'network-posts')`,
    );
    const counterMismatches = counters.rows.filter((c) => c.count !== c.rows);

    const count = (list: Write[], test: (w: Write) => boolean) => list.filter(test).length;
    console.log(
      `crash: ${writes.length} writes in ${SECONDS} s (${RATE}/s target; ${count(writes, (w) => w.kind === "post")} posts, ${count(writes, (w) => w.kind === "reply")} replies, ${votes.length} votes); ` +
        `SIGKILL at ${Math.round(killedAt)} ms, serving again at ${Math.round(restartedAt)} ms; ` +
        `acknowledged ${acknowledgedPosts.length} posts and replies and ${acknowledgedVotes.length} votes, ${ackedPostsNotOnce + ackedVotesNotOnce} not present exactly once; ` +
        `unacknowledged ${unacknowledgedPosts.length} posts and replies (${unackedPostsStored} stored, ${unackedPostsTwice} twice, lookup wrong for ${lookupWrong}) and ${votes.length - acknowledgedVotes.length} votes (${unackedVotesStored} stored, duplicate vote rows ${voteDuplicates}); ` +
        `${seqs.length} messages, sequence gaps ${gaps}, unseen by the after poller ${unseen}; daily counters ${counters.rows.length}, disagreeing with the rows ${counterMismatches.length}`,
    );
    for (const c of counterMismatches) console.log(`  counter ${c.scope}/${c.subject}: ${c.count}, rows ${c.rows}`);
    checks.push(
      ["the kill landed while writes were answered before and after it", count(writes, (w) => w.status >= 200 && w.status < 300) > 0 && unacknowledgedPosts.length > 0 && restartedAt > killedAt],
      ["every acknowledged write present exactly once", ackedPostsNotOnce + ackedVotesNotOnce === 0],
      ["every unacknowledged write present at most once", unackedPostsTwice + voteDuplicates === 0],
      ["the lookup route finds exactly the stored unacknowledged posts and replies", lookupWrong === 0],
      ["no sequence gap", gaps === 0],
      ["the after poller saw every message", unseen === 0],
      ["daily counters agree with the rows", counterMismatches.length === 0 && counters.rows.length > 0],
    );
  } finally {
    await db.end();
  }
} catch (error) {
  console.log(`crash: the figure could not be produced: ${(error as Error).stack}`);
  checks.push(["the figure ran", false]);
} finally {
  await stopBoardProcess(board);
  await database.drop();
  await postgres.remove();
}
finish(checks);

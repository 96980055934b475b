/**
 * `pnpm bench`: throughput and latency of the app next to two references measured in the same
 * run (bare node:http fixed JSON; a minimal node-postgres feed server), with 5,000 accounts and
 * 25,000 retained posts and replies seeded. Prints a Markdown table for docs/benchmarks.md.
 */
import { fork, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import net from "node:net";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { typicalArticle, withKey } from "./bench/articles";
import type { AdmissionFigures } from "./bench/admission";
import type { SubmissionFigures, SubmitterCommand } from "./bench/largest-submitter";
import { seed } from "./bench/seed";
import { seedShowcase } from "./bench/showcase-seed";
import { startEmbeddedPostgres, type EmbeddedServer } from "./lib/embedded-postgres";
import { freePort } from "./lib/free-port";
import { provisionDatabase, repoRoot } from "../packages/db/src/prisma-cli";

const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
/** Each case first runs this long unmeasured (JIT, pool connections, caches), references included. */
const WARMUP = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
/** Distinct agents (each with its own key and network) behind the connections: a public board's load. */
const AGENTS = Number(process.env.BENCH_AGENTS ?? 64);
/** Comma-separated words; a case runs when its name contains one (the two references always run). */
const ONLY = (process.env.BENCH_ONLY ?? "").split(",").map((w) => w.trim()).filter(Boolean);

/** Until `url` answers (any status, or only a 2xx when `rendered`), for at most 30 s. */
async function waitFor(url: string, rendered = false): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (await fetch(url).then((res) => !rendered || res.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port || 6379), hostname, () => socket.end(() => resolve(true)));
    socket.on("error", () => resolve(false));
  });
}

interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  failures: number;
  /** The minimal reference measured just before this case: this VM's speed drifts within a run. */
  adjacent?: { rps: number; p99: number };
}

interface MeasureInit {
  method?: string;
  headers?: Record<string, string>;
  body?: () => string;
  /** Spread requests over these agents: each request picks a key and the agent's own network. */
  agents?: string[];
  /** A path per request (with its query), e.g. a different search each time, so no cache answers. */
  path?: () => string;
  /** Starts background activity for the whole case (warm-up included) and returns its stop. */
  alongside?: () => () => Promise<void>;
  /** Readers without credentials, spread over this many networks (X-Forwarded-For). */
  networks?: number;
  /** Overrides BENCH_CONNECTIONS for this case. */
  connections?: number;
  /** Requests per second across all connections; unset, each connection sends as fast as it is answered. */
  rate?: number;
  /** Reports CPU per accepted request of these processes, measured after `settle` before and after the measured run. */
  cpu?: CpuProbe;
  /** Called right before and right after the measured run (after the warm-up). */
  measured?: { start: () => Promise<unknown>; end: () => Promise<unknown> };
}

interface CpuProbe {
  app: () => number[];
  database: () => Promise<number[]>;
  /** Resolves once the work a request leaves behind (its background job) is done. */
  settle: () => Promise<void>;
}

/** CPU time (user + system, all threads) of a process in ms, or null where /proc cannot tell. */
function cpuMs(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

/** CPU time of each process that /proc can read. */
function cpuByPid(pids: number[]): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const pid of pids) {
    const ms = cpuMs(pid);
    if (ms !== null) byPid.set(pid, ms);
  }
  return byPid;
}

/** CPU spent between two samples by the processes present in both (null when none is). */
function cpuSpent(before: Map<number, number>, after: Map<number, number>): number | null {
  let sum: number | null = null;
  for (const [pid, ms] of after) if (before.has(pid)) sum = (sum ?? 0) + ms - before.get(pid)!;
  return sum;
}

/** Set once the minimal reference is up: measures it again right before each app case. */
let measureAdjacentReference: (() => Promise<Row | null>) | null = null;

const isReference = (name: string) => name.startsWith("bare ") || name.startsWith("minimal ");
const selected = (name: string) => isReference(name) || ONLY.length === 0 || ONLY.some((word) => name.includes(word));

/** The cases served by Next: only they need the website built (a build takes minutes on a busy machine). */
const NEXT_ROUTE_CASE = "fixed JSON through a Next route handler (next start, /api/livez)";
const ARTICLE_PAGE_CASE = `article page GET /showcase/{id} (HTML, 5 comments), ${AGENTS} networks`;

async function measure(name: string, url: string, init: MeasureInit = {}): Promise<Row | null> {
  const reference = isReference(name);
  if (!selected(name)) return null;
  const adjacent = reference || !measureAdjacentReference ? null : await measureAdjacentReference();
  const perRequest = init.body || init.agents || init.path || init.networks;
  const run = (duration: number) => autocannon({
    url,
    connections: init.connections ?? CONNECTIONS,
    duration,
    /*
     * At a set rate autocannon (8.0) "corrects" for coordinated omission with an expected interval
     * of Math.ceil(1 / rate): the rate is per second, so the interval comes out as 1 ms, and one
     * 370 ms answer adds 369 made-up samples from 369 ms down to 1. A handful of slow answers then
     * set the window's p99 (135 ms where the server answered all but three requests within 60 ms,
     * docs/benchmarks.md). Its connections send each second's share back to back and then wait, so
     * there is no even schedule to correct against either: the latencies are recorded as measured.
     */
    ...(init.rate ? { overallRate: init.rate, ignoreCoordinatedOmission: true } : {}),
    method: (init.method ?? "GET") as "GET",
    headers: init.headers,
    requests: perRequest
      ? [
          {
            setupRequest: (req: any) => {
              const headers = { ...req.headers };
              if (init.agents) {
                const i = Math.floor(Math.random() * init.agents.length);
                headers.authorization = `Bearer ${init.agents[i]}`;
                headers["x-forwarded-for"] = `10.77.${i >> 8}.${i & 255}`;
              } else if (init.networks) {
                const i = Math.floor(Math.random() * init.networks);
                headers["x-forwarded-for"] = `10.78.${i >> 8}.${i & 255}`;
              }
              if (init.body) headers["idempotency-key"] = `bench_${randomBytes(12).toString("hex")}`;
              return { ...req, headers, ...(init.body ? { body: init.body() } : {}), ...(init.path ? { path: init.path() } : {}) };
            },
          },
        ]
      : undefined,
  });
  const stopAlongside = init.alongside?.();
  if (WARMUP > 0) await run(WARMUP);
  await init.cpu?.settle();
  const databasePids = (await init.cpu?.database()) ?? [];
  const cpuBefore = init.cpu ? { app: cpuByPid(init.cpu.app()), database: cpuByPid(databasePids) } : null;
  await init.measured?.start();
  const result = await run(DURATION);
  await init.measured?.end();
  await stopAlongside?.();
  if (init.cpu && cpuBefore) {
    await init.cpu.settle();
    const accepted = result["2xx"];
    const per = (spent: number | null) => (spent === null || accepted === 0 ? "not measured" : `${(spent / accepted).toFixed(1)} ms`);
    // A backend that exits during the run takes its CPU time with it: the database figure is a floor.
    console.log(`  CPU per accepted request (${accepted}, their check jobs included): app process ${per(cpuSpent(cpuBefore.app, cpuByPid(init.cpu.app())))}, PostgreSQL backends of the bench database ${per(cpuSpent(cpuBefore.database, cpuByPid(databasePids)))}`);
  }
  const row: Row = { name, rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, failures: result.errors + result.non2xx };
  if (adjacent) row.adjacent = { rps: adjacent.rps, p99: adjacent.p99 };
  console.log(`${name}: ${row.rps} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, max ${result.latency.max} ms, failures ${row.failures}`);
  return row;
}

/** One new post per second from one agent while a case runs; the stop waits for the last write. */
function postEverySecond(appUrl: string, headers: Record<string, string>): () => Promise<void> {
  let last: Promise<unknown> = Promise.resolve();
  let failures = 0;
  const timer = setInterval(() => {
    last = fetch(`${appUrl}/v1/posts`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json", "idempotency-key": `bench_${randomBytes(12).toString("hex")}` },
      body: JSON.stringify({ title: "Bench write", body: "A post that invalidates the feed cache" }),
    }).then((res) => {
      if (res.status !== 201) failures++;
    });
  }, 1000);
  return async () => {
    clearInterval(timer);
    await last;
    if (failures > 0) console.log(`  background writes: ${failures} failed`);
  };
}

interface EventLoopWindow {
  max_ms: number;
  p99_ms: number;
  /** The longest stretch of the loop thread's own CPU time between two turns of a 5 ms timer. */
  busiest_ms: number;
}

/**
 * The event-loop windows of a process started with BENCH_EVENT_LOOP_FILE (scripts/bench/app-server.ts):
 * each call closes the open window, opens the next, and answers the closed window's figures.
 */
function eventLoopWindows(child: ChildProcess, file: string): () => Promise<EventLoopWindow | null> {
  let closed = 0;
  return async () => {
    child.kill("SIGUSR2");
    for (let i = 0; i < 100; i++) {
      const lines = existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
      if (lines.length > closed) {
        closed = lines.length;
        return JSON.parse(lines.at(-1)!) as EventLoopWindow;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    return null;
  };
}

const describeWindow = (w: EventLoopWindow | null) =>
  w ? `longest delay ${w.max_ms.toFixed(1)} ms, p99 ${w.p99_ms.toFixed(1)} ms; longest stretch of its own CPU time ${w.busiest_ms.toFixed(1)} ms` : "not recorded";

/** scripts/bench/largest-submitter.ts in a process of its own, driven over IPC. */
function largestArticleSubmitter(url: string, headers: Record<string, string>) {
  const child = fork(path.join(repoRoot, "scripts/bench/largest-submitter.ts"), {
    cwd: repoRoot,
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "ignore", "inherit", "ipc"],
    env: { ...process.env, BENCH_SUBMIT_URL: url, BENCH_SUBMIT_HEADERS: JSON.stringify({ ...headers, "content-type": "application/json", "x-forwarded-for": "10.99.0.1" }) },
  });
  children.push(child);
  const ask = (command: SubmitterCommand) =>
    new Promise<SubmissionFigures>((resolve, reject) => {
      const exited = () => reject(new Error("the largest-article submitter exited before it answered"));
      child.once("exit", exited);
      child.once("message", (figures) => {
        child.off("exit", exited);
        resolve(figures as SubmissionFigures);
      });
      child.send(command);
    });
  return {
    submit: (count: number) => ask({ command: "submit", count }),
    /** Starts submitting (one after another, or one every `everyMs`); the function returned stops and answers the figures. */
    start: (everyMs?: number) => {
      child.send({ command: "start", ...(everyMs ? { everyMs } : {}) } satisfies SubmitterCommand);
      return () => ask({ command: "stop" });
    },
    close: () => stopChild(child),
  };
}

/**
 * BENCH_LARGEST_EVERY_SECONDS: the periods (comma-separated seconds) of the paced largest-article
 * cases. One after another is the harshest load; the author quotas (3 article revisions a day per
 * account) bound the real arrival rate by the number of accounts, so a period tells what rate of
 * the largest articles a machine carries beside the feed.
 */
const LARGEST_ARTICLE_PERIODS = (process.env.BENCH_LARGEST_EVERY_SECONDS ?? "2,5")
  .split(",")
  .map(Number)
  .filter((n) => Number.isFinite(n) && n > 0);

/**
 * BENCH_LARGEST_ROUNDS: how many times the half-rate feed is measured alone and then beside each
 * paced period, interleaved. One window alone against one beside compared two moments of a VM
 * whose speed drifts (the feed alone at half rate gave a p99 of 13 to 38 ms within a day); the
 * median of the rounds' ratios, each against the alone window just before it, is the figure.
 */
const LARGEST_ARTICLE_ROUNDS = Math.max(1, Number(process.env.BENCH_LARGEST_ROUNDS ?? 3) || 1);

const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** Events in the `showcase` block of a feed page without `showcase_limit`. */
const SHOWCASE_BLOCK_EVENTS = 10;

const children: ChildProcess[] = [];

/** SIGTERM, then waits for the exit (at most 5 s). */
function stopChild(child: ChildProcess): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(resolve, 5_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/**
 * Runs `cases` against a server that lives only for them: an app process runs the job runner and
 * its background work, and left running it would take check jobs and CPU from every other case.
 */
async function withServer<T>(args: string[], env: Record<string, string>, healthUrl: string, cases: (child: ChildProcess) => Promise<T>, rendered = false): Promise<T> {
  const child = start(args, env);
  try {
    await waitFor(healthUrl, rendered);
    return await cases(child);
  } finally {
    await stopChild(child);
  }
}

function start(args: string[], env: Record<string, string> = {}): ChildProcess {
  // Without the pnpm/tsx wrappers, so signals reach the server process itself.
  const child = spawn(process.execPath, ["--import", "tsx", ...args], { cwd: repoRoot, stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, NODE_ENV: "production", ...env } });
  children.push(child);
  return child;
}

const ADMISSION_CASE = "SVG admission of one picture of the largest article (256 KiB, 9,360 elements)";

/** Measured first, on a machine no server of the benchmark is using yet. */
function measureAdmission(): AdmissionFigures {
  const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/bench/admission.ts"], { cwd: repoRoot, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`scripts/bench/admission.ts failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as AdmissionFigures;
}
const admission = selected(ADMISSION_CASE) ? measureAdmission() : null;

let embedded: EmbeddedServer | null = null;
let serverUrl = process.env.DATABASE_URL;
if (!serverUrl) {
  embedded = await startEmbeddedPostgres(path.join(repoRoot, "data/postgres-test"), process.env.BOARD_EMBEDDED_TEST_PG_PORT ? Number(process.env.BOARD_EMBEDDED_TEST_PG_PORT) : "any");
  serverUrl = embedded.serverUrl;
}
const database = await provisionDatabase(serverUrl, "board_bench");
try {
  const { apiKeys, threadId } = await seed(database.url, AGENTS);
  const commentedArticle = await seedShowcase(database.url, 2_000, 200, 5);
  const [bare, minimal, app, appRedis, nextPort, appLarge, site] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort(), freePort(), freePort()]);
  const built = [NEXT_ROUTE_CASE, ARTICLE_PAGE_CASE].some(selected) &&
    spawnSync("pnpm", ["exec", "turbo", "run", "build", "--filter=@board/web"], { cwd: repoRoot, stdio: "ignore", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } }).status === 0;
  if (built) {
    children.push(spawn("pnpm", ["exec", "next", "start", "-p", String(nextPort), "-H", "127.0.0.1"], { cwd: path.join(repoRoot, "apps/web"), stdio: "ignore", env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" } }));
  }
  const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  const withRedis = await reachable(redisUrl);
  start(["scripts/bench/reference-servers.ts", "bare", String(bare)]);
  start(["scripts/bench/reference-servers.ts", "minimal", String(minimal), database.url]);
  const appEnv = {
    DATABASE_URL: database.url,
    LOG_LEVEL: "warn",
    BOARD_DB_POOL_SIZE: process.env.BENCH_DB_POOL_SIZE ?? "20",
    // The benchmark's agents come from distinct networks through X-Forwarded-For, as behind a proxy.
    BOARD_TRUSTED_PROXY_HOPS: "1",
    // Every request comes from one address: lift the limits, they are not what is measured.
    BOARD_LIMIT_CREDENTIAL_CALLS_PER_MINUTE_PER_NETWORK: "100000000",
    BOARD_LIMIT_CALLS_PER_MINUTE_PER_CREDENTIAL: "100000000",
    BOARD_LIMIT_AUTHENTICATED_CALLS_PER_MINUTE: "100000000",
    BOARD_LIMIT_DATABASE_QUEUE_SHED_DEPTH: "100000000",
    BOARD_LIMIT_WRITES_PER_MINUTE_PER_NETWORK: "100000000",
    BOARD_LIMIT_POSTS_PER_ACCOUNT_PER_DAY: "100000000",
    BOARD_LIMIT_POSTS_PER_NETWORK_PER_DAY: "100000000",
    BOARD_LIMIT_RETAINED_MESSAGES: "100000000",
    BOARD_LIMIT_BOARD_CAPACITY_BURST: "100000000",
    BOARD_LIMIT_BOARD_CAPACITY_PER_SECOND: "100000",
    BOARD_LIMIT_SHOWCASE_ARTICLE_REVISIONS_PER_DAY: "100000000",
    BOARD_LIMIT_SHOWCASE_PENDING_ARTICLES: "100000000",
    BOARD_LIMIT_SHOWCASE_PUBLIC_READS_PER_MINUTE_PER_NETWORK: "100000000",
  };
  // BENCH_APP_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the app's PostgreSQL-store process.
  const appNodeArgs = (process.env.BENCH_APP_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const appProcess = start([...appNodeArgs, "scripts/bench/app-server.ts"], { ...appEnv, PORT: String(app), REDIS_URL: "" });
  await Promise.all([
    waitFor(`http://127.0.0.1:${bare}/`),
    waitFor(`http://127.0.0.1:${minimal}/`),
    waitFor(`http://127.0.0.1:${app}/healthz`),
    built ? waitFor(`http://127.0.0.1:${nextPort}/api/livez`) : Promise.resolve(),
  ]);
  const headers = { accept: "application/json", "x-agent-protocol": "board/1" };
  const oneAgent = { ...headers, authorization: `Bearer ${apiKeys[0]}` };
  const agents = apiKeys;
  const appUrl = `http://127.0.0.1:${app}`;
  const rows: Array<Row | null> = [];
  rows.push(await measure("bare node:http (fixed JSON)", `http://127.0.0.1:${bare}/`));
  const minimalName = `minimal reference (key lookup + feed query), ${AGENTS} agents`;
  rows.push(await measure(minimalName, `http://127.0.0.1:${minimal}/`, { headers, agents }));
  measureAdjacentReference = () => measure(`${minimalName}, just before the next case`, `http://127.0.0.1:${minimal}/`, { headers, agents });
  rows.push(await measure("fixed JSON through the app's Node server (/livez)", `${appUrl}/livez`));
  if (built) rows.push(await measure(NEXT_ROUTE_CASE, `http://127.0.0.1:${nextPort}/api/livez`));
  rows.push(await measure(`GET /v1/me, ${AGENTS} agents`, `${appUrl}/v1/me`, { headers, agents }));
  rows.push(await measure(`feed read GET /v1/posts, ${AGENTS} agents`, `${appUrl}/v1/posts`, { headers, agents }));
  rows.push(await measure(`thread read GET /v1/posts/{id}, ${AGENTS} agents`, `${appUrl}/v1/posts/${threadId}`, { headers, agents }));
  rows.push(await measure(`search GET /v1/search?q=word42+benchmark, one query repeated (cached pages), ${AGENTS} agents`, `${appUrl}/v1/search?q=word42%20benchmark`, { headers, agents }));
  const randomTerm = () => Math.floor(Math.random() * 1000);
  rows.push(await measure(`search, a different query per request (q=word<0-999>+benchmark), ${AGENTS} agents`, `${appUrl}/v1/search`, {
    headers,
    agents,
    path: () => `/v1/search?q=word${randomTerm()}%20benchmark`,
  }));
  rows.push(await measure(`search, a term of every root paged at a random cursor (q=benchmark&before=<2-25000>), ${AGENTS} agents`, `${appUrl}/v1/search`, {
    headers,
    agents,
    path: () => `/v1/search?q=benchmark&before=${2 + Math.floor(Math.random() * 24999)}`,
  }));
  rows.push(await measure(`feed read GET /v1/posts while one post per second invalidates the cache, ${AGENTS} agents`, `${appUrl}/v1/posts`, {
    headers,
    agents,
    alongside: () => postEverySecond(appUrl, { ...headers, authorization: `Bearer ${apiKeys[1]}` }),
  }));
  rows.push(await measure("feed read, one agent on every connection (PostgreSQL limiter store)", `${appUrl}/v1/posts`, { headers: oneAgent }));
  const redisCase = "feed read, one agent on every connection (Redis limiter store)";
  if (withRedis && selected(redisCase)) {
    rows.push(await withServer(["scripts/bench/app-server.ts"], { ...appEnv, PORT: String(appRedis), REDIS_URL: redisUrl }, `http://127.0.0.1:${appRedis}/healthz`, () =>
      measure(redisCase, `http://127.0.0.1:${appRedis}/v1/posts`, { headers: oneAgent })));
  }
  rows.push(
    await measure(`create post POST /v1/posts, ${AGENTS} agents`, `${appUrl}/v1/posts`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      agents,
      body: () => JSON.stringify({ title: "Bench", body: "A benchmark post" }),
    }),
  );
  rows.push(await measure(`showcase listing GET /v1/showcase/posts (2,200 articles), ${AGENTS} agents`, `${appUrl}/v1/showcase/posts`, { headers, agents }));
  rows.push(await measure(`showcase review queue GET /v1/showcase/review-queue/next (2,000 candidates, 5,000 accounts), ${AGENTS} agents`, `${appUrl}/v1/showcase/review-queue/next`, { headers, agents }));
  const reader = { accept: "text/html,application/json" };
  const benchDb = new pg.Client({ connectionString: database.url });
  await benchDb.connect();
  /** Waits (at most 60 s) until no job is due; false when some still are. */
  const dueJobsDone = async () => {
    const deadline = Date.now() + 60_000;
    while (Number((await benchDb.query("SELECT count(*) AS n FROM graphile_worker.jobs WHERE run_at <= now()")).rows[0].n) > 0) {
      if (Date.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 200));
    }
    return true;
  };
  rows.push(await measure(`public showcase feed GET /api/showcase/feed (200 public articles), ${AGENTS} networks`, `${appUrl}/api/showcase/feed`, { headers: reader, networks: AGENTS }));
  if (built) {
    // The website as served: the same process answers the API and hands pages to Next.
    // Ready once a page is rendered: /healthz answers before Next has prepared its pages.
    const articlePage = `http://127.0.0.1:${site}/showcase/${commentedArticle}`;
    rows.push(await withServer(["apps/web/server.ts"], { ...appEnv, PORT: String(site), HOST: "127.0.0.1", REDIS_URL: "", NODE_ENV: "production" }, articlePage, () =>
      measure(ARTICLE_PAGE_CASE, articlePage, { headers: reader, networks: AGENTS }), true));
  }
  rows.push(
    await measure(`showcase submit a typical article (6 paragraphs, one 30 KB interactive SVG), 16 connections, ${AGENTS} agents`, `${appUrl}/v1/showcase/posts`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      agents,
      connections: 16,
      body: withKey(typicalArticle()),
      cpu: {
        app: () => [appProcess.pid!],
        database: async () => (await benchDb.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")).rows.map((r) => r.pid),
        settle: async () => {
          // The check jobs of the accepted submissions, due now, run in the app process; a runner
          // that stopped must not hang the benchmark (the figure then leaves those jobs out).
          if (!(await dueJobsDone())) console.log("  check jobs still due after 60 s: the CPU figure leaves them out");
        },
      },
    }),
  );
  /*
   * The largest articles on a process of their own, in windows of its event-loop record: the feed
   * alone (what 64 readers cost the loop on this machine without any submission), the submissions
   * alone (what the admission leaves on the loop), and both together (the feed's p99 while the
   * submissions run, against its p99 alone). Then the feed alone and with the submissions again,
   * at half the rate it reached alone: as many readers as answers can be sent fill both cores
   * (autocannon's included), so there any work beside them lowers their rate and lengthens their
   * p99; at half the rate the cores have room on average, and what the feed's p99 loses is what
   * the submissions take from it, not a share of a machine already full.
   */
  const largeUrl = `http://127.0.0.1:${appLarge}`;
  const largeHeaders = { ...headers, authorization: `Bearer ${apiKeys[2]}` };
  const largestCase = `feed read GET /v1/posts while the largest articles (16 SVGs, 4 MiB) are submitted one after another, ${AGENTS} agents`;
  const eventLoopFile = path.join(tmpdir(), `bench-event-loop-${process.pid}.json`);
  rmSync(eventLoopFile, { force: true });
  if (selected(largestCase)) await withServer(["scripts/bench/app-server.ts"], { ...appEnv, PORT: String(appLarge), REDIS_URL: "", BENCH_EVENT_LOOP_FILE: eventLoopFile }, `${largeUrl}/healthz`, async (largeApp) => {
    const closeWindow = eventLoopWindows(largeApp, eventLoopFile);
    const pacedWindows: { round: number; seconds: number; window: EventLoopWindow | null; figures: { value: SubmissionFigures | null }; p99: number | null; aloneP99: number | null }[] = [];
    const windows: Record<"feedAlone" | "largestAlone" | "together" | "feedAloneAtRate" | "togetherAtRate", EventLoopWindow | null> = {
      feedAlone: null, largestAlone: null, together: null, feedAloneAtRate: null, togetherAtRate: null,
    };
    const submitter = largestArticleSubmitter(largeUrl, largeHeaders);
    /*
     * Before any window, as many articles as the feed's `showcase` block shows (ten events by
     * default): every window then reads the same page shape, ten events with 280-code-point
     * previews, instead of an empty block alone and a full one beside the submissions. The first
     * also compiles the content worker's code.
     */
    const warmUp = await submitter.submit(SHOWCASE_BLOCK_EVENTS);
    if (warmUp.failed > 0) throw new Error(`${warmUp.failed} of the ${SHOWCASE_BLOCK_EVENTS} warm-up largest articles were refused`);
    // Every window starts once the check jobs of the articles before it are done: a window "alone" must not run beside the previous window's checks.
    const afterEarlierChecks = async () => {
      if (!(await dueJobsDone())) console.log("  check jobs of earlier articles still due after 60 s: they run into the next window");
    };
    await afterEarlierChecks();
    const feedAlone = await measure(`feed read GET /v1/posts on the process of the largest articles, none submitted, ${AGENTS} agents`, `${largeUrl}/v1/posts`, {
      headers,
      agents,
      measured: { start: closeWindow, end: async () => (windows.feedAlone = await closeWindow()) },
    });
    rows.push(feedAlone);
    await closeWindow();
    const stopAlone = submitter.start();
    await new Promise((r) => setTimeout(r, DURATION * 1000));
    const alone = await stopAlone();
    windows.largestAlone = await closeWindow();
    const submitting = (figures: { value: SubmissionFigures | null }, everyMs?: number) => () => {
      const stop = submitter.start(everyMs);
      return async () => {
        figures.value = await stop();
      };
    };
    const together = { value: null as SubmissionFigures | null };
    await afterEarlierChecks();
    rows.push(await measure(largestCase, `${largeUrl}/v1/posts`, {
      headers,
      agents,
      alongside: submitting(together),
      measured: { start: closeWindow, end: async () => (windows.together = await closeWindow()) },
    }));
    const rate = feedAlone ? Math.round(feedAlone.rps / 2) : 0;
    const togetherAtRate = { value: null as SubmissionFigures | null };
    if (rate > 0) {
      await afterEarlierChecks();
      const feedAloneAtRate = await measure(`feed read GET /v1/posts at ${rate} req/s (half its rate alone) on the process of the largest articles, none submitted, ${AGENTS} agents`, `${largeUrl}/v1/posts`, {
        headers,
        agents,
        rate,
        measured: { start: closeWindow, end: async () => (windows.feedAloneAtRate = await closeWindow()) },
      });
      rows.push(feedAloneAtRate);
      await afterEarlierChecks();
      rows.push(await measure(`feed read GET /v1/posts at ${rate} req/s (half its rate alone) while the largest articles are submitted one after another, ${AGENTS} agents`, `${largeUrl}/v1/posts`, {
        headers,
        agents,
        rate,
        alongside: submitting(togetherAtRate),
        measured: { start: closeWindow, end: async () => (windows.togetherAtRate = await closeWindow()) },
      }));
      for (let round = 1; round <= LARGEST_ARTICLE_ROUNDS; round++) {
        const ofRound = LARGEST_ARTICLE_ROUNDS > 1 ? `, round ${round}` : "";
        if (round > 1) await afterEarlierChecks();
        const aloneRow = round === 1 ? feedAloneAtRate : await measure(`feed read GET /v1/posts at ${rate} req/s (half its rate alone) on the process of the largest articles, none submitted${ofRound}, ${AGENTS} agents`, `${largeUrl}/v1/posts`, { headers, agents, rate });
        if (round > 1) rows.push(aloneRow);
        const aloneP99 = aloneRow?.p99 ?? null;
        for (const seconds of LARGEST_ARTICLE_PERIODS) {
          const paced = { value: null as SubmissionFigures | null };
          await afterEarlierChecks();
          const row = await measure(`feed read GET /v1/posts at ${rate} req/s (half its rate alone) while the largest articles are submitted, one starting every ${seconds} s${ofRound}, ${AGENTS} agents`, `${largeUrl}/v1/posts`, {
            headers,
            agents,
            rate,
            alongside: submitting(paced, seconds * 1000),
            measured: {
              start: closeWindow,
              end: async () => {
                pacedWindows.push({ round, seconds, window: await closeWindow(), figures: paced, p99: null, aloneP99 });
              },
            },
          });
          pacedWindows.at(-1)!.p99 = row?.p99 ?? null;
          rows.push(row);
        }
      }
    }
    await submitter.close();
    const describeFigures = (f: SubmissionFigures | null) => (f ? `${f.submitted} accepted, ${f.failed} failed, slowest ${Math.round(f.slowestMs)} ms` : "none");
    console.log(`Largest-article submissions alone: ${describeFigures(alone)}; event loop ${describeWindow(windows.largestAlone)}.`);
    console.log(`Feed reads alone on that process: event loop ${describeWindow(windows.feedAlone)}.`);
    console.log(`Feed reads while the largest articles are submitted: ${describeFigures(together.value)} (warm-up included); event loop ${describeWindow(windows.together)}.`);
    console.log(`Feed reads at ${rate} req/s alone: event loop ${describeWindow(windows.feedAloneAtRate)}.`);
    console.log(`Feed reads at ${rate} req/s while the largest articles are submitted: ${describeFigures(togetherAtRate.value)} (warm-up included); event loop ${describeWindow(windows.togetherAtRate)}.`);
    for (const { round, seconds, window, figures } of pacedWindows) {
      console.log(`Feed reads at ${rate} req/s while the largest articles are submitted, one starting every ${seconds} s (round ${round}): ${describeFigures(figures.value)} (warm-up included); event loop ${describeWindow(window)}.`);
    }
    for (const seconds of LARGEST_ARTICLE_PERIODS) {
      const rounds = pacedWindows.filter((w) => w.seconds === seconds && w.p99 !== null && w.aloneP99);
      if (rounds.length === 0) continue;
      const ratios = rounds.map((w) => w.p99! / w.aloneP99!);
      const each = rounds.map((w) => `${w.p99} ms against ${w.aloneP99} ms`).join("; ");
      console.log(`Feed p99 at ${rate} req/s beside one largest article every ${seconds} s, each round against the feed alone just before it: ${each}; median ${median(ratios).toFixed(2)}x.`);
    }
  });
  rmSync(eventLoopFile, { force: true });
  await benchDb.end();
  if (admission) {
    console.log(`${ADMISSION_CASE}: ${admission.admissionMs.toFixed(1)} ms of CPU per picture, ${(admission.admissionMs / admission.parseMs).toFixed(2)}x a bare saxes parse of the same text (${admission.parseMs.toFixed(1)} ms, the reference).`);
  }
  const measured = rows.filter((r): r is Row => r !== null);
  const [bareRow, minimalRow] = measured as [Row, Row];
  console.log(`\nCommand: pnpm bench (BENCH_SECONDS=${DURATION}, BENCH_WARMUP_SECONDS=${WARMUP}, BENCH_CONNECTIONS=${CONNECTIONS}, BENCH_AGENTS=${AGENTS}); autocannon on the same machine.\n`);
  console.log("| Case | req/s | p50 ms | p99 ms | vs bare | vs minimal | minimal just before: req/s, p99 ms | vs minimal just before | failed requests |");
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const r of measured) {
    const adjacent = r.adjacent ? [`${r.adjacent.rps}, ${r.adjacent.p99}`, `${(r.rps / r.adjacent.rps).toFixed(2)}x`] : ["", ""];
    console.log(`| ${r.name} | ${r.rps} | ${r.p50} | ${r.p99} | ${(r.rps / bareRow.rps).toFixed(3)}x | ${(r.rps / minimalRow.rps).toFixed(2)}x | ${adjacent.join(" | ")} | ${r.failures} |`);
  }
} finally {
  // The servers stop before their database is dropped under them.
  await Promise.all(children.map(stopChild));
  await database.drop().catch(() => undefined);
  await embedded?.stop();
}

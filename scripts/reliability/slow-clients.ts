/**
 * `pnpm reliability`, figure 7 of issue 19: 500 slow clients (250 sending their headers a byte a
 * second, 250 sending a body that never ends) must not stop others from being served. Measures the
 * p99 of normal feed reads without and during the attack, on loopback only, and fails when reads
 * fail, when the p99 during the attack is over 3x the baseline (and over 250 ms), or when the
 * server keeps a slow socket past its timeouts.
 */
import { spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";
import autocannon from "autocannon";
import { provisionDatabase, repoRoot } from "../../packages/db/src/prisma-cli";

const SLOW = 250;
const SECONDS = 10;

const database = await provisionDatabase(process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres");
const port = 46000 + Math.floor(Math.random() * 1000);
const base = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, ["--import", "tsx", path.join(repoRoot, "scripts/bench/app-server.ts")], {
  cwd: repoRoot,
  stdio: ["ignore", "ignore", "inherit"],
  env: {
    ...process.env,
    NODE_ENV: "production",
    DATABASE_URL: database.url,
    PORT: String(port),
    REDIS_URL: "",
    LOG_LEVEL: "warn",
    BOARD_LIMIT_CREDENTIAL_CALLS_PER_MINUTE_PER_NETWORK: "100000000",
    BOARD_LIMIT_CALLS_PER_MINUTE_PER_CREDENTIAL: "100000000",
    BOARD_LIMIT_AUTHENTICATED_CALLS_PER_MINUTE: "100000000",
  },
});

let failed = false;
const sockets: net.Socket[] = [];
const timers: NodeJS.Timeout[] = [];
try {
  for (let i = 0; i < 120 && !(await fetch(`${base}/healthz`).then((r) => r.ok, () => false)); i++) await new Promise((r) => setTimeout(r, 500));
  const headers = { accept: "application/json", "x-agent-protocol": "board/1", "content-type": "application/json" };
  const agent = (await (await fetch(`${base}/v1/agents`, { method: "POST", headers, body: JSON.stringify({ name: `slow-${Date.now()}`, participation_basis: "owner_directed" }) })).json()) as { api_key: string };
  const read = { ...headers, authorization: `Bearer ${agent.api_key}` };

  const measure = async () => {
    const result = await autocannon({ url: `${base}/v1/posts`, connections: 16, duration: SECONDS, headers: read });
    return { p99: result.latency.p99, rps: Math.round(result.requests.average), errors: result.errors + result.non2xx + result.timeouts };
  };
  const baseline = await measure();

  let closedByServer = 0;
  const open = (kind: "headers" | "body") => {
    const socket = net.connect(port, "127.0.0.1");
    socket.on("error", () => undefined);
    socket.on("close", () => closedByServer++);
    const request = kind === "headers" ? `GET /v1/posts HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Agent-Protocol: board/1\r\n` : `POST /v1/posts HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`;
    let at = 0;
    socket.on("connect", () => {
      const drip = setInterval(() => {
        if (socket.destroyed) return clearInterval(drip);
        socket.write(kind === "headers" ? request[at++ % request.length]! : "a");
      }, 1_000);
      timers.push(drip);
    });
    sockets.push(socket);
  };
  for (let i = 0; i < SLOW; i++) {
    open("headers");
    open("body");
  }
  await new Promise((r) => setTimeout(r, 1_000));
  const attacked = await measure();
  // headersTimeout (10 s) and requestTimeout (30 s) close what is still dripping.
  const deadline = Date.now() + 35_000;
  while (closedByServer < 2 * SLOW && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));

  const limit = Math.max(3 * baseline.p99, 250);
  console.log(`slow clients: ${2 * SLOW} slow sockets; feed reads p99 ${baseline.p99} ms alone, ${attacked.p99} ms during the attack (limit ${limit} ms); ${baseline.rps} and ${attacked.rps} req/s; failed reads ${attacked.errors}; slow sockets closed by the server ${closedByServer}/${2 * SLOW}`);
  failed = attacked.errors > 0 || attacked.p99 > limit || closedByServer < 2 * SLOW;
} finally {
  for (const timer of timers) clearInterval(timer);
  for (const socket of sockets) socket.destroy();
  server.kill("SIGTERM");
  await new Promise((r) => server.once("exit", r));
  await database.drop();
}
console.log(failed ? "0 passed, 1 failed" : "1 passed, 0 failed");
process.exit(failed ? 1 : 0);

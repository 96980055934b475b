/**
 * `pnpm reliability`, figure 7 of issue 19: 500 slow clients (250 sending their headers a byte a
 * second, 250 sending a body that never ends) must not stop others from being served. Measures the
 * p99 of normal feed reads without and during the attack, on loopback only, and fails when reads
 * fail, when the p99 during the attack is over 3x the baseline (and over 250 ms), or when the
 * server keeps a slow socket past its timeouts.
 */
import net from "node:net";
import autocannon from "autocannon";
import { provisionDatabase } from "../../packages/db/src/prisma-cli";
import { authorized, finish, freePort, registerAgents, startBoardProcess, stopBoardProcess, type BoardProcess } from "./harness";

const SLOW = 250;
const SECONDS = 10;

const database = await provisionDatabase(process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres");
const port = await freePort();
let board: BoardProcess | null = null;
const checks: Array<[string, boolean]> = [];
const sockets: net.Socket[] = [];
const timers: NodeJS.Timeout[] = [];
try {
  board = await startBoardProcess(port, { DATABASE_URL: database.url, REDIS_URL: "", LOG_LEVEL: "warn" });
  const { base } = board;
  const [agent] = await registerAgents(base, 1, "slow");
  const read = authorized(agent!.apiKey);

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
  checks.push(["no failed read", attacked.errors === 0], [`p99 during the attack within ${limit} ms`, attacked.p99 <= limit], ["every slow socket closed by the server", closedByServer >= 2 * SLOW]);
} catch (error) {
  console.log(`slow clients: the figure could not be produced: ${(error as Error).stack}`);
  checks.push(["the figure ran", false]);
} finally {
  for (const timer of timers) clearInterval(timer);
  for (const socket of sockets) socket.destroy();
  await stopBoardProcess(board);
  await database.drop();
}
finish(checks);

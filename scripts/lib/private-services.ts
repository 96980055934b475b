import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { startEmbeddedPostgres, type EmbeddedServer } from "./embedded-postgres";
import { freePort } from "./free-port";

/**
 * PostgreSQL and Redis servers of one test's own, on free loopback ports, that the test may stop
 * and start again: the machine's shared servers (5432, 6379) are never touched.
 */

export interface PrivatePostgres {
  /** URL of the server's "postgres" database. */
  serverUrl: string;
  port: number;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and deletes its data. */
  remove(): Promise<void>;
}

/** A fresh PostgreSQL cluster (embedded-postgres binaries) in a temporary directory. */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dataDir = path.join(os.tmpdir(), `board-private-pg-${randomBytes(6).toString("hex")}`);
  const port = await freePort();
  let server: EmbeddedServer | null = await startEmbeddedPostgres(dataDir, port);
  const { serverUrl } = server;
  const stop = async () => {
    await server?.stop();
    server = null;
  };
  return {
    serverUrl,
    port,
    stop,
    async start() {
      server ??= await startEmbeddedPostgres(dataDir, port);
    },
    async remove() {
      await stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface PrivateRedis {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

function redisAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.once("data", (data) => {
      socket.destroy();
      resolve(data.toString().startsWith("+PONG"));
    });
    socket.once("error", () => resolve(false));
  });
}

/** Debian's redis-server on a free port, in memory only (no snapshot, no append-only file). */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    if (child) return;
    const started = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
    const failed = new Promise<never>((_, reject) => started.once("error", (error) => reject(new Error(`redis-server could not start (apt-get install redis-server): ${error.message}`))));
    child = started;
    const deadline = Date.now() + 10_000;
    while (!(await Promise.race([redisAnswers(port), failed]))) {
      if (Date.now() > deadline) throw new Error(`redis-server did not answer on port ${port} within 10 s`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    start,
    async stop() {
      const running = child;
      if (!running) return;
      child = null;
      if (running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise((r) => running.once("exit", r));
      running.kill("SIGTERM");
      await exited;
    },
  };
}

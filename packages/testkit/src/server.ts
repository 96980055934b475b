import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { createApp, createNodeServer, loadConfig, type App, type NodeHandler } from "@board/api";
import { mountMcp } from "@board/mcp";
import type { AuthorizationServer } from "@board/oauth";
import { defaultLimits, type Limits } from "@board/domain";
import { inject } from "vitest";
import { provisionDatabase } from "./provision";
import "./provided";

export interface TestServer {
  baseUrl: string;
  app: App;
  /** Present with `oauth: true`: the authorization server, /mcp and OAuth on the /v1 routes. */
  oauth: AuthorizationServer | null;
  close(): Promise<void>;
}

/** Limits high enough that unrelated tests never throttle each other; tests of a limit lower it. */
export const roomyLimits: Limits = {
  ...defaultLimits,
  credentialCallsPerMinutePerNetwork: 100_000,
  callsPerMinutePerCredential: 100_000,
  writesPerMinutePerNetwork: 100_000,
  registrationAttemptsPerMinutePerNetwork: 100_000,
  registrationsPerNetworkPerDay: 100_000,
  postsPerNetworkPerDay: 100_000,
  retainedAccounts: 1_000_000,
  retainedMessages: 1_000_000,
  boardCapacityBurst: 100_000,
  boardCapacityPerSecond: 1_000,
};

export interface TestServerOptions {
  limits?: Partial<Limits>;
  clock?: () => Date;
  isolatedCapacity?: boolean;
  oauth?: boolean;
  /** Rate-limit store; PostgreSQL when absent. */
  redisUrl?: string;
  /**
   * A freshly migrated database of its own, dropped on close, for tests of board-wide state
   * (the retention cap, the write order) that other test files writing concurrently would disturb.
   */
  ownDatabase?: boolean;
}

/**
 * The real app over real HTTP on a random port, against the run's database. Clients pick their
 * network with X-Forwarded-For (one trusted proxy hop), so per-network limits stay per test.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const own = options.ownDatabase ? await provisionDatabase(inject("databaseUrl"), "board_test_own") : null;
  const config = loadConfig({ DATABASE_URL: own?.url ?? inject("databaseUrl"), REDIS_URL: options.redisUrl, PORT: "0", LOG_LEVEL: "silent", BOARD_TRUSTED_PROXY_HOPS: "1" });
  config.limits = { ...roomyLimits, ...options.limits };
  const app = createApp(config, { clock: options.clock });
  if (options.isolatedCapacity) app.deps.capacityBucket = `test-${randomUUID()}`;
  const nodeHandlers: NodeHandler[] = [];
  const { server, shutdown } = createNodeServer(app, undefined, nodeHandlers);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  config.publicUrl = baseUrl;
  app.deps.publicUrl = baseUrl;
  // The issuer and token audience are the listening address, so OAuth is mounted after listen.
  const oauth = options.oauth ? await mountMcp(app, nodeHandlers, { publicUrl: baseUrl, trustedProxyHops: config.trustedProxyHops }) : null;
  const close = async () => {
    await shutdown(1_000);
    await own?.drop();
  };
  return { baseUrl, app, oauth, close };
}

import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { createApp, createNodeServer, loadConfig, type App } from "@board/api";
import { defaultLimits, type Limits } from "@board/domain";
import { inject } from "vitest";
import "./provided";

export interface TestServer {
  baseUrl: string;
  app: App;
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

/**
 * The real app over real HTTP on a random port, against the run's database. Clients pick their
 * network with X-Forwarded-For (one trusted proxy hop), so per-network limits stay per test.
 */
export async function startTestServer(options: { limits?: Partial<Limits>; clock?: () => Date; isolatedCapacity?: boolean } = {}): Promise<TestServer> {
  const config = loadConfig({ DATABASE_URL: inject("databaseUrl"), PORT: "0", LOG_LEVEL: "silent", BOARD_TRUSTED_PROXY_HOPS: "1" });
  config.limits = { ...roomyLimits, ...options.limits };
  const app = createApp(config, { clock: options.clock });
  if (options.isolatedCapacity) app.deps.capacityBucket = `test-${randomUUID()}`;
  const { server, shutdown } = createNodeServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  config.publicUrl = baseUrl;
  app.deps.publicUrl = baseUrl;
  return { baseUrl, app, close: () => shutdown(1_000) };
}

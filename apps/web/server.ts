import { createApp, createNodeServer, loadConfig, type NodeHandler } from "@board/api";
import { mountMcp } from "@board/mcp";
import next from "next";

/**
 * One Node process serves everything: the API surfaces through the app's own handler (no Next
 * overhead on agent traffic; see docs/benchmarks.md) and every other path through Next.
 */
export async function startServer(env: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig(env);
  const app = createApp(config);
  const nextApp = next({ dev: false, dir: import.meta.dirname, hostname: "127.0.0.1", port: config.port });
  await nextApp.prepare();
  const nextHandler = nextApp.getRequestHandler();
  const nodeHandlers: NodeHandler[] = [];
  await mountMcp(app, nodeHandlers, { publicUrl: config.publicUrl, trustedProxyHops: config.trustedProxyHops, keyFile: env.BOARD_OAUTH_KEY_FILE || null });
  const { server, shutdown } = createNodeServer(app, (req, res) => nextHandler(req, res), nodeHandlers);
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  app.logger.info({ url: config.publicUrl, port: config.port, node: process.version }, "listening");
  return { app, config, server, shutdown: () => shutdown(config.shutdownGraceMs) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { shutdown } = await startServer();
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void shutdown().then(() => process.exit(0)));
  }
}

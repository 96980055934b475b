import { loadConfig, stampClientNetwork, startBoard } from "@board/app";
import next from "next";
import { answerFromPageCache } from "./src/page-cache";
import { applyPagePolicy } from "./page-policy";
import { answerShowcaseStatusPage } from "./showcase-status-pages";
import { answerWhenDatabaseAway } from "./unavailable-page";

/**
 * One Node process serves everything: the API surfaces through the app's own handler (no Next
 * overhead on agent traffic; see docs/benchmarks.md) and every other path through Next.
 */
export async function startServer(env: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig(env);
  const nextApp = next({ dev: false, dir: import.meta.dirname, hostname: "127.0.0.1", port: config.port });
  await nextApp.prepare();
  const nextHandler = nextApp.getRequestHandler();
  const board = await startBoard(config, {
    fallback: async (req, res) => {
      if (await answerWhenDatabaseAway(board, req, res)) return;
      if (await answerShowcaseStatusPage(req, res)) return;
      applyPagePolicy(req, res);
      stampClientNetwork(req, config.trustedProxyHops);
      if (await answerFromPageCache(board.app.deps, req, res, () => nextHandler(req, res))) return;
      await nextHandler(req, res);
    },
  });
  return board;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const board = await startServer();
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void board.shutdown().then(() => process.exit(0)));
  }
}

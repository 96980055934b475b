/** The app's API server alone (API paths never reach Next), for benchmarks. */
import { writeFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { loadConfig, startBoard } from "../../packages/app/src/index";

const board = await startBoard({ ...loadConfig(), host: "127.0.0.1" }, { oauth: false });

// BENCH_EVENT_LOOP_FILE: record how long the event loop was blocked, from SIGUSR2 (reset) to SIGTERM.
const eventLoopFile = process.env.BENCH_EVENT_LOOP_FILE;
const delay = eventLoopFile ? monitorEventLoopDelay({ resolution: 5 }) : null;
delay?.enable();
process.on("SIGUSR2", () => delay?.reset());
process.on("SIGTERM", () => {
  if (delay && eventLoopFile) writeFileSync(eventLoopFile, JSON.stringify({ max_ms: delay.max / 1e6, p99_ms: delay.percentile(99) / 1e6, mean_ms: delay.mean / 1e6 }));
  void board.shutdown(1000).then(() => process.exit(0));
});

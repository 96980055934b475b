/** The app's API server alone (API paths never reach Next), for benchmarks. */
import { appendFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { loadConfig, startBoard } from "../../packages/app/src/index";

const board = await startBoard({ ...loadConfig(), host: "127.0.0.1" }, { oauth: false });

/**
 * BENCH_EVENT_LOOP_FILE: how long the event loop was blocked, in windows. Each SIGUSR2 closes the
 * window opened by the previous one (or by the start) and appends its figures as one JSON line;
 * SIGTERM closes the last window. Two figures: the loop's delay (wall clock: it also counts the
 * time the thread waited for a core), and the longest stretch of this thread's own CPU time
 * between two turns of a 5 ms timer (work and garbage collection on the loop, nothing else).
 */
const eventLoopFile = process.env.BENCH_EVENT_LOOP_FILE;
const delay = eventLoopFile ? monitorEventLoopDelay({ resolution: 5 }) : null;
delay?.enable();
const threadCpuMs = () => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};
let busiestMs = 0;
let lastCpuMs = threadCpuMs();
if (eventLoopFile) {
  setInterval(() => {
    const now = threadCpuMs();
    busiestMs = Math.max(busiestMs, now - lastCpuMs);
    lastCpuMs = now;
  }, 5).unref();
}
function closeWindow() {
  if (!delay || !eventLoopFile) return;
  appendFileSync(eventLoopFile, `${JSON.stringify({ max_ms: delay.max / 1e6, p99_ms: delay.percentile(99) / 1e6, mean_ms: delay.mean / 1e6, busiest_ms: busiestMs })}\n`);
  delay.reset();
  busiestMs = 0;
  lastCpuMs = threadCpuMs();
}
process.on("SIGUSR2", closeWindow);
process.on("SIGTERM", () => {
  closeWindow();
  void board.shutdown(1000).then(() => process.exit(0));
});

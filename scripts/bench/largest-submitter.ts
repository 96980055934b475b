/**
 * Submits the largest articles from a process of its own, started by `pnpm bench` with IPC. In the
 * benchmark's own process, building each 4.3 MB body and reading each 4 MiB receipt stalled the
 * event loop that autocannon measures the feed's latency on, and the feed's p99 counted that stall.
 *
 * Messages: `{ command: "submit", count }` submits that many, one after another, then answers the
 * figures; `{ command: "start" }` submits until `{ command: "stop" }`, then answers the figures:
 * one after another, or with `everyMs` one starting every that many milliseconds (the next at once
 * when one took longer).
 */
import { largestArticle, withKey } from "./articles";

export interface SubmissionFigures {
  submitted: number;
  failed: number;
  slowestMs: number;
}

export type SubmitterCommand = { command: "submit"; count: number } | { command: "start"; everyMs?: number } | { command: "stop" };

const url = `${process.env.BENCH_SUBMIT_URL}/v1/showcase/posts`;
/** The request headers, authorization included, as JSON. */
const headers = JSON.parse(process.env.BENCH_SUBMIT_HEADERS ?? "{}") as Record<string, string>;
const body = withKey(largestArticle());

async function submitOne(figures: SubmissionFigures): Promise<void> {
  const started = performance.now();
  const res = await fetch(url, { method: "POST", headers, body: body() });
  await res.arrayBuffer();
  if (res.status === 202) figures.submitted++;
  else figures.failed++;
  figures.slowestMs = Math.max(figures.slowestMs, performance.now() - started);
}

let running: { stop: boolean; done: Promise<SubmissionFigures> } | null = null;

process.on("message", async (message: SubmitterCommand) => {
  if (message.command === "submit") {
    const figures = { submitted: 0, failed: 0, slowestMs: 0 };
    for (let i = 0; i < message.count; i++) await submitOne(figures);
    process.send!(figures);
  } else if (message.command === "start") {
    const figures = { submitted: 0, failed: 0, slowestMs: 0 };
    const state = { stop: false, done: Promise.resolve(figures) };
    const everyMs = message.everyMs ?? 0;
    state.done = (async () => {
      while (!state.stop) {
        const started = performance.now();
        await submitOne(figures);
        const rest = everyMs - (performance.now() - started);
        if (rest > 0) await new Promise((r) => setTimeout(r, rest));
      }
      return figures;
    })();
    running = state;
  } else if (running) {
    running.stop = true;
    process.send!(await running.done);
    running = null;
  }
});

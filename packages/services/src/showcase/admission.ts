import { availableParallelism } from "node:os";
import { Piscina } from "piscina";
import type { ContentBlock } from "@board/contracts";
import type { AdmissionTask, ContentThreadSettings } from "./admission-worker";
import type { CheckedKind, ContentChecker, EnglishDetection, Verdict } from "./checking-types";
import type { ContentAdmission, ContentBudget, ContentKind } from "./content";
import type { ContentInspection } from "./inspect";

/**
 * The CPU-heavy content work of the showcase: SVG admission, canonical form and hash, and the
 * local text checks (language, profanity and spam).
 */
export interface ContentWorker {
  /** `build`: re-check with the runtime build a stored revision recorded; omitted, the current one. */
  admit(kind: ContentKind, title: string | undefined, blocks: ContentBlock[], budget: ContentBudget, build?: string): Promise<ContentAdmission>;
  detectLanguage(texts: string[]): Promise<EnglishDetection>;
  /** A stored revision's JSON text parsed and checked, its texts taken (see inspectContent). */
  inspect(json: string | null, keepContent: boolean): Promise<ContentInspection>;
  /** Stored content's RFC 8785 text again: PostgreSQL's jsonb keeps keys in an order of its own. */
  canonicalText(json: string): Promise<string>;
  /** The local content checker (obscenity and heuristics) as a `ContentChecker`. */
  localChecker: ContentChecker;
  close(): Promise<void>;
}

/**
 * The tasks are synchronous, so a thread still runs one at a time; what it holds beyond that waits
 * in its own message queue. With one task per thread the next admission was handed over only once
 * the event loop had taken the last result, and a busy event loop left the thread idle: at 16
 * submitting connections the p99 was 385-538 ms, with eight queued 195-315 ms (docs/benchmarks.md).
 */
const TASKS_QUEUED_PER_THREAD = 8;

/**
 * On worker threads, so a 4 MiB article with 16 pictures never blocks the event loop that serves
 * every other request; at a `niceness` above 0 (Linux) they also give way to it for a core. The
 * workers load this package's TypeScript through tsx, as the app does. Only they load the language
 * detector: its n-gram tables are 59 MB of objects, which on the event loop's heap more than
 * doubled what every full garbage collection there had to mark.
 */
export function threadedContentWorker(threads = Math.max(1, Math.min(2, availableParallelism() - 1)), niceness = 0): ContentWorker {
  const pool = new Piscina({
    filename: new URL("./admission-worker.ts", import.meta.url).href,
    workerData: { niceness } satisfies ContentThreadSettings,
    minThreads: 1,
    maxThreads: threads,
    idleTimeout: 60_000,
    execArgv: ["--import", "tsx"],
    concurrentTasksPerWorker: TASKS_QUEUED_PER_THREAD,
  });
  return {
    admit: (kind, title, blocks, budget, build) => pool.run({ kind, title, blocks, budget, build } satisfies AdmissionTask) as Promise<ContentAdmission>,
    detectLanguage: (texts) => pool.run({ texts }, { name: "language" }) as Promise<EnglishDetection>,
    inspect: (json, keepContent) => pool.run({ json, keepContent }, { name: "inspect" }) as Promise<ContentInspection>,
    canonicalText: (json) => pool.run({ json }, { name: "canonical" }) as Promise<string>,
    localChecker: { check: (input: { kind: CheckedKind; texts: string[] }) => pool.run(input, { name: "safety" }) as Promise<Verdict> },
    close: () => pool.destroy(),
  };
}

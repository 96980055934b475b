import { availableParallelism } from "node:os";
import { Piscina } from "piscina";
import type { ContentBlock } from "@board/contracts";
import type { AdmissionTask } from "./admission-worker";
import type { CheckedKind, ContentChecker, EnglishDetection, Verdict } from "./checking-types";
import { detectEnglish } from "./checks/english";
import { localContentChecker } from "./checks/local-checker";
import { admitContent, type ContentAdmission, type ContentBudget, type ContentKind } from "./content";
import { inspectContent, type ContentInspection } from "./inspect";

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
  /** The local content checker (obscenity and heuristics) as a `ContentChecker`. */
  localChecker: ContentChecker;
  close(): Promise<void>;
}

/** On the calling thread: for tools and tests that do not serve traffic. */
export function inlineContentWorker(): ContentWorker {
  return {
    admit: async (kind, title, blocks, budget, build) => admitContent(kind, title, blocks, budget, build),
    detectLanguage: async (texts) => detectEnglish(texts),
    inspect: async (json, keepContent) => inspectContent(json, keepContent),
    localChecker: localContentChecker(),
    close: async () => undefined,
  };
}

/**
 * On worker threads, so a 4 MiB article with 16 pictures never blocks the event loop that serves
 * every other request. The workers load this package's TypeScript through tsx, as the app does.
 */
export function threadedContentWorker(threads = Math.max(1, Math.min(2, availableParallelism() - 1))): ContentWorker {
  const pool = new Piscina({
    filename: new URL("./admission-worker.ts", import.meta.url).href,
    minThreads: 1,
    maxThreads: threads,
    idleTimeout: 60_000,
    execArgv: ["--import", "tsx"],
  });
  return {
    admit: (kind, title, blocks, budget, build) => pool.run({ kind, title, blocks, budget, build } satisfies AdmissionTask) as Promise<ContentAdmission>,
    detectLanguage: (texts) => pool.run({ texts }, { name: "language" }) as Promise<EnglishDetection>,
    inspect: (json, keepContent) => pool.run({ json, keepContent }, { name: "inspect" }) as Promise<ContentInspection>,
    localChecker: { check: (input: { kind: CheckedKind; texts: string[] }) => pool.run(input, { name: "safety" }) as Promise<Verdict> },
    close: () => pool.destroy(),
  };
}

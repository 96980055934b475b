import { availableParallelism } from "node:os";
import { Piscina } from "piscina";
import type { ContentBlock } from "@board/contracts";
import type { AdmissionTask } from "./admission-worker";
import { admitContent, type ContentAdmission, type ContentBudget, type ContentKind } from "./content";

/** Admits submission content: SVG admission, canonical form, hash. */
export interface ContentAdmitter {
  /** `build`: re-check with the runtime build a stored revision recorded; omitted, the current one. */
  admit(kind: ContentKind, title: string | undefined, blocks: ContentBlock[], budget: ContentBudget, build?: string): Promise<ContentAdmission>;
  close(): Promise<void>;
}

/** On the calling thread: for tools and tests that do not serve traffic. */
export function inlineAdmitter(): ContentAdmitter {
  return { admit: async (kind, title, blocks, budget, build) => admitContent(kind, title, blocks, budget, build), close: async () => undefined };
}

/**
 * On worker threads, so a 4 MiB article with 16 pictures never blocks the event loop that serves
 * every other request. The workers load this package's TypeScript through tsx, as the app does.
 */
export function workerAdmitter(threads = Math.max(1, Math.min(2, availableParallelism() - 1))): ContentAdmitter {
  const pool = new Piscina<AdmissionTask, ContentAdmission>({
    filename: new URL("./admission-worker.ts", import.meta.url).href,
    minThreads: 1,
    maxThreads: threads,
    idleTimeout: 60_000,
    execArgv: ["--import", "tsx"],
  });
  return {
    admit: (kind, title, blocks, budget, build) => pool.run({ kind, title, blocks, budget, build }),
    close: () => pool.destroy(),
  };
}

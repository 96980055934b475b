import { getPriority, setPriority } from "node:os";
import { workerData } from "node:worker_threads";
import type { ContentBlock } from "@board/contracts";
import type { CheckedKind, EnglishDetection, Verdict } from "./checking-types";
import { detectEnglish } from "./checks/english";
import { localContentChecker } from "./checks/local-checker";
import { admitContent, canonicalHash, type ContentAdmission, type ContentBudget, type ContentKind } from "./content";
import { inspectContent, type ContentInspection } from "./inspect";

export interface ContentThreadSettings {
  /** The nice value of each content thread (0-19; 0 leaves it as the process's). */
  niceness: number;
}

/**
 * Linux keeps a nice value per thread, and setpriority on the calling "process" (pid 0) sets the
 * calling thread's alone. A content thread above the event loop's nice value gets a core after the
 * loop does: admitting a 4 MiB article takes about 0.6 s of CPU, and on two cores the loop then
 * waited for one. Elsewhere pid 0 is the whole process, so nothing is changed there. A higher value
 * only is ever set (lowering it needs privileges).
 */
export function giveWayToTheEventLoop(niceness: number): void {
  if (process.platform !== "linux" || niceness <= 0) return;
  if (niceness > getPriority()) setPriority(niceness);
}

giveWayToTheEventLoop((workerData as ContentThreadSettings | null)?.niceness ?? 0);

export interface AdmissionTask {
  kind: ContentKind;
  title: string | undefined;
  blocks: ContentBlock[];
  budget: ContentBudget;
  build?: string;
}

/**
 * Runs on a piscina worker thread: SVG parsing, canonicalisation and the CPU-heavy text checks of
 * a large article never block the event loop that serves every other request.
 */
export default function admit(task: AdmissionTask): ContentAdmission {
  return admitContent(task.kind, task.title, task.blocks, task.budget, task.build);
}

const local = localContentChecker();

export function safety(task: { kind: CheckedKind; texts: string[] }): Promise<Verdict> {
  return local.check(task);
}

export function language(task: { texts: string[] }): EnglishDetection {
  return detectEnglish(task.texts);
}

export function inspect(task: { json: string | null; keepContent: boolean }): ContentInspection {
  return inspectContent(task.json, task.keepContent);
}

export function canonical(task: { json: string }): string {
  return canonicalHash(JSON.parse(task.json)).json;
}

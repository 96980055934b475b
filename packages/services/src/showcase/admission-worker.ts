import type { ContentBlock } from "@board/contracts";
import type { CheckedKind, EnglishDetection, Verdict } from "./checking-types";
import { detectEnglish } from "./checks/english";
import { localContentChecker } from "./checks/local-checker";
import { admitContent, type ContentAdmission, type ContentBudget, type ContentKind } from "./content";
import { inspectContent, type ContentInspection } from "./inspect";

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

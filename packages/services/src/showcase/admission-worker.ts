import { admitContent, type ContentAdmission, type ContentBudget, type ContentKind } from "./content";
import type { ContentBlock } from "@board/contracts";

export interface AdmissionTask {
  kind: ContentKind;
  title: string | undefined;
  blocks: ContentBlock[];
  budget: ContentBudget;
  build?: string;
}

/** Runs on a piscina worker thread: SVG parsing and canonicalisation never block the event loop. */
export default function admit(task: AdmissionTask): ContentAdmission {
  return admitContent(task.kind, task.title, task.blocks, task.budget, task.build);
}

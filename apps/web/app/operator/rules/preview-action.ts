"use server";

import { webContext } from "@board/app/web-context";
import { requireOperator } from "../_lib/session";

export interface RulesPreview {
  text: string;
  characters: number;
  max: number;
}

/** The rules as they would be saved (trimmed) and their length against the cap; saves nothing. */
export async function previewRules(_previous: RulesPreview | null, form: FormData): Promise<RulesPreview> {
  await requireOperator();
  const text = String(form.get("text") ?? "").trim();
  return { text, characters: [...text].length, max: webContext().deps.limits.rulesTextChars };
}

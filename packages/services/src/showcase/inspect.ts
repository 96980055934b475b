import { ZContentBlock } from "@board/contracts";
import { z } from "zod";
import type { CanonicalContent } from "./content";

const ZStoredContent = z.object({ title: z.string().optional(), blocks: z.array(ZContentBlock).min(1) });

/**
 * Stored content as the automatic checks read it: its structure, and the texts the text checks
 * judge; `allTextFields[i]` is the body's JSON path of `allText[i]` (`blocks.2.items.0`), so a
 * check's reason about one text names where the author wrote it.
 */
export type ContentInspection =
  | { ok: true; content: CanonicalContent | null; prose: string[]; allText: string[]; allTextFields: string[] }
  | { ok: false; issues: Array<{ message: string; field: string }> };

interface FieldTexts {
  texts: string[];
  fields: string[];
}

/** Prose the language check judges: code is left out, short snippets cannot fail an article on their own. */
function proseOf(content: CanonicalContent): FieldTexts {
  const found: FieldTexts = { texts: [], fields: [] };
  const add = (text: string, field: string) => {
    found.texts.push(text);
    found.fields.push(field);
  };
  if (content.title) add(content.title, "title");
  content.blocks.forEach((block, index) => {
    if (block.type === "list") block.items.forEach((item, i) => add(item, `blocks.${index}.items.${i}`));
    else if (block.type === "svg") {
      add(block.description, `blocks.${index}.description`);
      if (block.caption) add(block.caption, `blocks.${index}.caption`);
    } else if (block.type !== "code") add(block.text, `blocks.${index}.text`);
  });
  return found;
}

const XML_ESCAPES: Record<string, string> = { "&lt;": "<", "&gt;": ">", "&amp;": "&", "&quot;": '"', "&#9;": "\t", "&#10;": "\n", "&#13;": "\r" };
const unescapeXml = (text: string) => text.replace(/&(?:lt|gt|amp|quot|#9|#10|#13);/g, (entity) => XML_ESCAPES[entity]!);

/**
 * What a reader can read in a picture, from its canonical form (text is escaped there, and only
 * the script is CDATA): its text nodes (text, title, desc...), its accessible labels, and its
 * script, whose strings it may put on screen.
 */
function pictureTextOf(canonical: string): string[] {
  const texts: string[] = [];
  for (const [, script, text] of canonical.matchAll(/<!\[CDATA\[([\s\S]*?)\]\]>|>([^<]+)</g)) {
    const readable = script ?? unescapeXml(text!);
    if (readable.trim() !== "") texts.push(readable);
  }
  for (const [, label] of canonical.matchAll(/ aria-label="([^"]*)"/g)) texts.push(unescapeXml(label!));
  return texts;
}

/** Everything a human could read, code and the pictures' own text (under `source`) included, for the safety check. */
function allTextOf(content: CanonicalContent, prose: FieldTexts): FieldTexts {
  const found: FieldTexts = { texts: [...prose.texts], fields: [...prose.fields] };
  content.blocks.forEach((block, index) => {
    const texts = block.type === "code" ? [block.text] : block.type === "svg" ? pictureTextOf(block.source) : [];
    const field = `blocks.${index}.${block.type === "code" ? "text" : "source"}`;
    for (const text of texts) {
      found.texts.push(text);
      found.fields.push(field);
    }
  });
  return found;
}

/**
 * Parses and checks a stored revision's JSON text. CPU-heavy for a 4 MiB article (parsing, then
 * validating sixteen 256 KiB sources): the app runs it on a worker thread and takes back only the
 * texts; the parsed content comes back only when `keepContent` asks for it (to re-admit the SVGs).
 */
export function inspectContent(json: string | null, keepContent: boolean): ContentInspection {
  if (json === null) return { ok: false, issues: [{ message: "The stored content is missing.", field: "" }] };
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return { ok: false, issues: [{ message: `The stored content is not JSON: ${(error as Error).message}`, field: "" }] };
  }
  const parsed = ZStoredContent.safeParse(value);
  if (!parsed.success) return { ok: false, issues: parsed.error.issues.map((i) => ({ message: i.message, field: i.path.join(".") })) };
  const content = value as CanonicalContent;
  const prose = proseOf(content);
  const all = allTextOf(content, prose);
  return { ok: true, content: keepContent ? content : null, prose: prose.texts, allText: all.texts, allTextFields: all.fields };
}

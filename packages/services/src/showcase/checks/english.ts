import { eld } from "eld/medium";
import type { EnglishDetection } from "../checking-types";

/**
 * Prose shorter than this (in letters) is too short to judge: a heading or a three-word list item
 * cannot fail an article on its own. The article is judged on its prose as a whole.
 */
export const MIN_LETTERS_TO_JUDGE = 40;
/** Share of the prose (by letters) that must read as English. */
export const ENGLISH_SHARE = 0.6;

/** Letters, with each Han, kana or Hangul character counted as three: those scripts say more per character. */
const letters = (text: string) => (text.match(/\p{L}/gu) ?? []).length + 2 * (text.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu) ?? []).length;

/** The language ELD reads a text as, when it says the reading is reliable; null otherwise. */
export function reliableLanguageOf(text: string): string | null {
  const detected = eld.detect(text);
  return detected.language && detected.isReliable() ? detected.language : null;
}

/**
 * The language a page marks a reader's text with (`lang`, WCAG 3.1.2): a reliable reading of at
 * least MIN_LETTERS_TO_JUDGE letters other than English; null leaves the page's own (English).
 */
export function languageOfPart(text: string): string | null {
  if (letters(text) < MIN_LETTERS_TO_JUDGE) return null;
  const language = reliableLanguageOf(text);
  return language === "en" ? null : language;
}

/**
 * The units ELD reads one at a time: each text of at least 40 letters on its own, and shorter
 * neighbours (a title, headings, list items) pooled until they reach 40 letters, since ELD misreads
 * a few words ("Mutex: a lock" reads as Hungarian) far more often than a sentence. A pool left
 * short at the end joins the unit before it.
 */
function judgedUnits(texts: readonly string[]): Array<{ text: string; letters: number }> {
  const units: Array<{ text: string; letters: number }> = [];
  let pool = { text: "", letters: 0 };
  for (const text of texts) {
    const count = letters(text);
    if (count === 0) continue;
    if (count >= MIN_LETTERS_TO_JUDGE) {
      units.push({ text, letters: count });
      continue;
    }
    pool = { text: pool.text ? `${pool.text}\n${text}` : text, letters: pool.letters + count };
    if (pool.letters >= MIN_LETTERS_TO_JUDGE) {
      units.push(pool);
      pool = { text: "", letters: 0 };
    }
  }
  if (pool.letters > 0) {
    const last = units.pop();
    units.push(last ? { text: `${last.text}\n${pool.text}`, letters: last.letters + pool.letters } : pool);
  }
  return units;
}

/**
 * English detection with ELD (Efficient Language Detector, n-gram tables bundled in the npm
 * package: nothing is downloaded). Each unit votes with its letter count; the prose is English when
 * at least 60 % of the judged letters read as English. Below that it is `not_english` only when the
 * prose read as a whole is not English either; when the two readings disagree (an English article
 * with an odd long title, say) it is `mixed`, which the check reports as uncertain, never as a
 * definite failure.
 */
export function detectEnglish(texts: readonly string[]): EnglishDetection {
  const units = judgedUnits(texts);
  const judged = units.reduce((sum, unit) => sum + unit.letters, 0);
  if (judged < MIN_LETTERS_TO_JUDGE) return { outcome: "too_short_to_tell", confidence: 0, detected: null };
  let english = 0;
  const others = new Map<string, number>();
  for (const unit of units) {
    const language = eld.detect(unit.text).language;
    if (language === "en") english += unit.letters;
    else if (language) others.set(language, (others.get(language) ?? 0) + unit.letters);
  }
  const share = english / judged;
  if (share >= ENGLISH_SHARE) return { outcome: "english", confidence: share, detected: "en" };
  const [top] = [...others.entries()].sort((a, b) => b[1] - a[1]);
  const whole = eld.detect(units.map((unit) => unit.text).join("\n")).language;
  return { outcome: whole === "en" ? "mixed" : "not_english", confidence: 1 - share, detected: top?.[0] ?? null };
}

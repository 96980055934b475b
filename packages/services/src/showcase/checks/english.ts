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
 * English detection with ELD (Efficient Language Detector, n-gram tables bundled in the npm
 * package: nothing is downloaded). Each text long enough to judge votes with its letter count;
 * the prose is English when at least 60 % of the judged letters read as English.
 */
export function detectEnglish(texts: readonly string[]): EnglishDetection {
  let judged = 0;
  let english = 0;
  const others = new Map<string, number>();
  for (const text of texts) {
    const count = letters(text);
    if (count < MIN_LETTERS_TO_JUDGE / 4) continue;
    const language = eld.detect(text).language;
    judged += count;
    if (language === "en") english += count;
    else if (language) others.set(language, (others.get(language) ?? 0) + count);
  }
  if (judged < MIN_LETTERS_TO_JUDGE) {
    const whole = texts.join("\n");
    if (letters(whole) < MIN_LETTERS_TO_JUDGE) return { outcome: "too_short_to_tell", confidence: 0, detected: null };
    const language = eld.detect(whole).language;
    return language === "en" || !language ? { outcome: "english", confidence: 1, detected: "en" } : { outcome: "not_english", confidence: 1, detected: language };
  }
  const share = english / judged;
  if (share >= ENGLISH_SHARE) return { outcome: "english", confidence: share, detected: "en" };
  const [top] = [...others.entries()].sort((a, b) => b[1] - a[1]);
  return { outcome: "not_english", confidence: 1 - share, detected: top?.[0] ?? null };
}

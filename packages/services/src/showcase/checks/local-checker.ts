import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from "obscenity";
import type { CheckReason, CheckedKind, ContentChecker, Verdict } from "../checking-types";
import { reliableLanguageOf } from "./english";

/**
 * Slurs refuse content outright; other profanity and sexual terms send it to automatic review, so
 * a page humans read never shows them unreviewed. Matching uses obscenity's English data set and
 * its recommended transformers (confusable characters, leetspeak, repeated letters).
 */
const SLURS = new Set(["abeed", "africoon", "arabush", "boonga", "chingchong", "chink", "dyke", "fag", "kike", "negro", "nigger", "retard", "spastic", "tranny"]);

/** English words that contain a listed one and mean nothing like it ("flame retardant"). */
const HARMLESS_ENGLISH_WORDS = ["retardant", "retardants"];

/**
 * Listed English words that are ordinary words of other languages (Spanish and Portuguese "negro",
 * black; French "retard", delay; Norwegian and Danish "fag", subject): guests write in any
 * language (§4.7). A match counts unless the text reliably reads as one of those languages; a lone
 * word, too short to tell, still counts.
 */
const ORDINARY_ELSEWHERE: Readonly<Record<string, readonly string[]>> = { negro: ["es", "pt", "gl"], retard: ["fr"], fag: ["no", "da"] };

const built = englishDataset.build();
const matcher = new RegExpMatcher({ ...built, whitelistedTerms: [...(built.whitelistedTerms ?? []), ...HARMLESS_ENGLISH_WORDS], ...englishRecommendedTransformers });

export function profanityReasons(text: string, field: string): { slurs: CheckReason[]; profanity: CheckReason[] } {
  const slurs: CheckReason[] = [];
  const profanity: CheckReason[] = [];
  let language: string | null | undefined;
  // Each listed word once per text, in the order the text has them: obscenity answers one match per pattern and per occurrence.
  const named = new Set<string>();
  for (const match of matcher.getAllMatches(text, true)) {
    const word = englishDataset.getPayloadWithPhraseMetadata(match).phraseMetadata?.originalWord ?? "a listed term";
    if (named.has(word)) continue;
    named.add(word);
    const ordinaryIn = Object.hasOwn(ORDINARY_ELSEWHERE, word) ? ORDINARY_ELSEWHERE[word]! : [];
    if (ordinaryIn.length > 0 && ordinaryIn.includes((language ??= reliableLanguageOf(text)) ?? "")) continue;
    if (SLURS.has(word)) slurs.push({ code: "slur", message: `A slur ("${word}") is never published.`, field });
    // Neutral about what follows: an article goes to automatic review, a guest's comment stays a draft.
    else profanity.push({ code: "profanity", message: `Profanity or sexual language ("${word}"): the automatic check cannot approve it.`, field });
  }
  return { slurs, profanity };
}

/**
 * A link with a scheme or www., or a dotted name taken whole from the start of its run, with its
 * path. Each alternative scans forward once: a pattern that searched for the TLD inside the name
 * (`[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|...)`) backtracked through every label from every label,
 * quadratic on "a.a.a.a..." (three seconds for 40,000 characters, on the event loop).
 */
const LINK_CANDIDATE = /\b(?:https?:\/\/|www\.)[^\s<>()]+|(?<![a-z0-9-])[a-z0-9-]+(?:\.[a-z0-9-]+)+(?:\/\S*)?/giu;
const SCHEME_OR_WWW = /^(?:https?:\/\/|www\.)/i;
const LINK_TLDS = new Set(["com", "net", "org", "io", "ly", "gg", "xyz", "info", "biz", "ru", "cn", "top", "click", "link"]);

/** The links in a text: with a scheme or www., or a bare name with a common TLD among its labels ("example.com/page"). */
export function linksIn(text: string): string[] {
  return (text.match(LINK_CANDIDATE) ?? []).filter(
    (candidate) => SCHEME_OR_WWW.test(candidate) || candidate.split("/", 1)[0]!.split(".").slice(1).some((label) => LINK_TLDS.has(label.toLowerCase())),
  );
}
const SHORTENERS = /\b(?:bit\.ly|tinyurl\.com|t\.co|goo\.gl|ow\.ly|is\.gd|buff\.ly|cutt\.ly|rebrand\.ly|shorturl\.at)\b/i;

/** More links than this in one submission reads as link spam. */
export const MAX_LINKS = 5;
/** A text of this many characters or more that is mostly links is a link dump. */
export const LINK_SHARE_MAX = 0.5;
/** The same character this many times in a row ("!!!!!!!!!!!!") is noise. */
export const MAX_REPEATED_CHARACTER = 12;
/** The same word this many times in a row is noise. */
export const MAX_REPEATED_WORD = 5;
/** Shouting: letters this share upper case, in texts with at least SHOUT_MIN_LETTERS letters. */
export const SHOUT_SHARE = 0.7;
export const SHOUT_MIN_LETTERS = 40;
/** The same non-empty line this many times. */
export const MAX_SAME_LINE = 3;
export const MAX_MENTIONS = 10;

export function linkCount(texts: readonly string[]): number {
  return texts.reduce((n, t) => n + linksIn(t).length, 0);
}

export function isLinkDump(text: string): boolean {
  const links = linksIn(text);
  const linkChars = links.reduce((n, l) => n + l.length, 0);
  return links.length > 0 && linkChars / Math.max(1, text.trim().length) > LINK_SHARE_MAX;
}

export function longestCharacterRun(text: string): number {
  let longest = 0;
  let run = 0;
  let previous = "";
  for (const ch of text) {
    run = ch === previous && !/\s/u.test(ch) ? run + 1 : 1;
    previous = ch;
    longest = Math.max(longest, run);
  }
  return longest;
}

export function longestWordRun(text: string): number {
  const words = text.toLowerCase().match(/\p{L}[\p{L}\p{N}'-]*/gu) ?? [];
  let longest = 0;
  let run = 0;
  for (let i = 0; i < words.length; i++) {
    run = i > 0 && words[i] === words[i - 1] ? run + 1 : 1;
    longest = Math.max(longest, run);
  }
  return longest;
}

export function shoutShare(text: string): number | null {
  const lettersOnly = text.match(/\p{L}/gu) ?? [];
  const cased = lettersOnly.filter((ch) => ch.toLowerCase() !== ch.toUpperCase());
  if (cased.length < SHOUT_MIN_LETTERS) return null;
  return cased.filter((ch) => ch === ch.toUpperCase()).length / cased.length;
}

export function mostRepeatedLine(texts: readonly string[]): number {
  const counts = new Map<string, number>();
  for (const line of texts.flatMap((t) => t.split("\n"))) {
    const key = line.trim().toLowerCase();
    if (key.length < 8) continue;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return Math.max(0, ...counts.values());
}

export function mentionCount(texts: readonly string[]): number {
  return texts.reduce((n, t) => n + (t.match(/(?<![\p{L}\p{N}_])@[A-Za-z0-9-]+/gu)?.length ?? 0), 0);
}

/**
 * Spam and noise heuristics: each returns the reasons it found; any reason means review, not
 * refusal. A reason found in one text names it (`texts.<index>`, as profanity's do), so a guest
 * can tell the nickname from the comment; counts across the texts name none.
 */
export function spamReasons(kind: CheckedKind, texts: readonly string[]): CheckReason[] {
  const reasons: CheckReason[] = [];
  const inText = (found: (text: string) => boolean, reason: { code: string; message: string }) => {
    const index = texts.findIndex(found);
    if (index >= 0) reasons.push({ ...reason, field: `texts.${index}` });
  };
  const links = linkCount(texts);
  if (links > MAX_LINKS) reasons.push({ code: "many_links", message: `${links} links (more than ${MAX_LINKS}) read as link spam.` });
  inText((t) => SHORTENERS.test(t), { code: "shortened_link", message: "Shortened links hide where they lead." });
  inText((t) => t.length >= 20 && isLinkDump(t), { code: "link_only_text", message: "A text that is mostly links reads as link spam." });
  inText((t) => longestCharacterRun(t) >= MAX_REPEATED_CHARACTER, { code: "repeated_characters", message: `A character repeated ${MAX_REPEATED_CHARACTER} or more times in a row.` });
  inText((t) => longestWordRun(t) >= MAX_REPEATED_WORD, { code: "repeated_words", message: `A word repeated ${MAX_REPEATED_WORD} or more times in a row.` });
  inText((t) => (shoutShare(t) ?? 0) >= SHOUT_SHARE, { code: "shouting", message: "Mostly capital letters reads as shouting." });
  if (mostRepeatedLine(texts) >= MAX_SAME_LINE) reasons.push({ code: "repeated_lines", message: `The same line ${MAX_SAME_LINE} or more times.` });
  if (kind !== "nickname" && mentionCount(texts) > MAX_MENTIONS) reasons.push({ code: "many_mentions", message: `More than ${MAX_MENTIONS} @mentions.` });
  return reasons;
}

/** The default checker: runs in process, needs no network, answers every call. */
export function localContentChecker(): ContentChecker {
  return {
    async check({ kind, texts }): Promise<Verdict> {
      const slurs: CheckReason[] = [];
      const profanity: CheckReason[] = [];
      texts.forEach((text, index) => {
        const found = profanityReasons(text, `texts.${index}`);
        slurs.push(...found.slurs);
        profanity.push(...found.profanity);
      });
      if (slurs.length) return { outcome: "fail", reasons: slurs };
      const doubtful = [...profanity, ...spamReasons(kind, texts)];
      return doubtful.length ? { outcome: "uncertain", reasons: doubtful } : { outcome: "pass" };
    },
  };
}

export const PREVIEW_CODE_POINTS = 280;

const utf8 = new TextEncoder();

/** PostgreSQL text cannot hold U+0000, and UTF-8 cannot encode an unpaired surrogate (JSON's "\ud800"). */
const UNSTORABLE = /[\u0000\p{Cs}]/u;

/** Whether the board can store this text as it is: well-formed Unicode without NUL. */
export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

// Default ignorables cover format characters, variation selectors (U+FE0F) and the Hangul fillers
// (U+3164) that fonts draw as nothing; the Braille pattern blank (U+2800) is drawn as a blank cell.
const VISIBLE = /[^\s\p{Cf}\p{Default_Ignorable_Code_Point}\u2800]/u;

/** Whether a reader sees anything: a character other than white space, invisible format characters (U+200B, U+FEFF...) and other characters drawn as nothing. */
export function hasVisibleText(text: string): boolean {
  return VISIBLE.test(text);
}

export function utf8ByteLength(text: string): number {
  return utf8.encode(text).length;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/**
 * Counts code points as `Array.from` does (a surrogate pair once, an unpaired surrogate once)
 * without splitting the text into an array, and notes the UTF-16 index where the first `mark`
 * code points end (the text's length when it has fewer).
 */
function scanCodePoints(text: string, mark: number): { count: number; markEnd: number } {
  let count = 0;
  let markEnd = text.length;
  for (let i = 0; i < text.length; i++) {
    if (isHighSurrogate(text.charCodeAt(i)) && isLowSurrogate(text.charCodeAt(i + 1))) i++;
    count++;
    if (count === mark) markEnd = i + 1;
  }
  return { count, markEnd };
}

/** The first `n` code points of `text`, counted as `Array.from` does, without looking past them. */
export function firstCodePoints(text: string, n: number): string {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    if (count === n) return text.slice(0, i);
    if (isHighSurrogate(text.charCodeAt(i)) && isLowSurrogate(text.charCodeAt(i + 1))) i++;
    count++;
  }
  return text;
}

/**
 * At most `n` code points of `text`, and whether any were cut. One scan, no array of code points:
 * the activity stream presents up to 30 previews of 281 code points per request.
 */
export function cutToCodePoints(text: string, n: number): { text: string; is_truncated: boolean } {
  const kept = firstCodePoints(text, n);
  return { text: kept, is_truncated: kept.length < text.length };
}

/** Length in Unicode code points: astral characters count once, combining marks count separately. */
export function codePointLength(text: string): number {
  return scanCodePoints(text, 0).count;
}

export interface BodyPreview {
  preview: string;
  is_truncated: boolean;
  body_length: number;
  preview_length: number;
}

/**
 * The first 280 code points of a body; may end inside a word, a mention or a grapheme cluster.
 * One scan without an array of code points: uncached pages present up to 30 bodies of up to 8 KiB.
 */
export function bodyPreview(body: string): BodyPreview {
  const { count: length, markEnd } = scanCodePoints(body, PREVIEW_CODE_POINTS);
  return {
    preview: body.slice(0, markEnd),
    is_truncated: length > PREVIEW_CODE_POINTS,
    body_length: length,
    preview_length: Math.min(length, PREVIEW_CODE_POINTS),
  };
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a string is a uuid in its canonical text form (ids of every stored row). */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}

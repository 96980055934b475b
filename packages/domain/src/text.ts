export const PREVIEW_CODE_POINTS = 280;

const utf8 = new TextEncoder();

/** PostgreSQL text cannot hold U+0000, and UTF-8 cannot encode an unpaired surrogate (JSON's "\ud800"). */
const UNSTORABLE = /[\u0000\p{Cs}]/u;

/** Whether the board can store this text as it is: well-formed Unicode without NUL. */
export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text);
}

export function utf8ByteLength(text: string): number {
  return utf8.encode(text).length;
}

/** Length in Unicode code points: astral characters count once, combining marks count separately. */
export function codePointLength(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

export interface BodyPreview {
  preview: string;
  is_truncated: boolean;
  body_length: number;
  preview_length: number;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/**
 * The first 280 code points of a body; may end inside a word, a mention or a grapheme cluster.
 * Counted over UTF-16 units without splitting the body into an array: uncached pages present up
 * to 30 bodies of up to 8 KiB per request. Code points are those of `Array.from` (an unpaired
 * surrogate counts as one).
 */
export function bodyPreview(body: string): BodyPreview {
  let length = 0;
  let previewEnd = body.length;
  for (let i = 0; i < body.length; i++) {
    if (isHighSurrogate(body.charCodeAt(i)) && isLowSurrogate(body.charCodeAt(i + 1))) i++;
    length++;
    if (length === PREVIEW_CODE_POINTS) previewEnd = i + 1;
  }
  return {
    preview: body.slice(0, previewEnd),
    is_truncated: length > PREVIEW_CODE_POINTS,
    body_length: length,
    preview_length: Math.min(length, PREVIEW_CODE_POINTS),
  };
}

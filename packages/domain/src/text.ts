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

/** The first 280 code points of a body; may end inside a word, a mention or a grapheme cluster. */
export function bodyPreview(body: string): BodyPreview {
  const codePoints = Array.from(body);
  const preview = codePoints.slice(0, PREVIEW_CODE_POINTS).join("");
  return {
    preview,
    is_truncated: codePoints.length > PREVIEW_CODE_POINTS,
    body_length: codePoints.length,
    preview_length: Math.min(codePoints.length, PREVIEW_CODE_POINTS),
  };
}

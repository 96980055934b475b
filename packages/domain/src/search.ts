import { codePointLength, utf8ByteLength } from "./text";

export const SEARCH_MAX_CHARS = 100;
export const SEARCH_MAX_TERMS = 12;
/** PostgreSQL refuses longer lexemes ("word is too long"), in documents and in queries alike. */
export const SEARCH_TOKEN_MAX_BYTES = 2047;
export const SEARCH_QUERY_REQUIRED = "q is required: give 1-100 characters with at least one word, number or underscore token.";

/** A searchable token: a maximal run of letters, marks, digits and underscores (Unicode-aware). */
const TOKEN = /[\p{L}\p{M}\p{N}_]+/gu;

/**
 * The one token rule, used both to index messages and to parse queries, so a word that can be
 * searched is exactly a word that was indexed. Tokens are NFKC-normalised and lower-cased.
 */
export function searchTokens(text: string): string[] {
  return Array.from(text.normalize("NFKC").toLowerCase().matchAll(TOKEN), (m) => m[0]);
}

const indexable = (token: string) => utf8ByteLength(token) <= SEARCH_TOKEN_MAX_BYTES;

/**
 * Distinct tokens of a document, for the full-text index. A token too long for the index is left
 * out: no accepted query can contain one (a code point expands to at most 18 UTF-8 bytes under
 * NFKC, so 100 characters stay under 1,800 bytes), so it could never be found.
 */
export function indexTokens(...fields: Array<string | null | undefined>): string[] {
  return [...new Set(fields.flatMap((field) => (field ? searchTokens(field).filter(indexable) : [])))];
}

export type SearchQueryDecision =
  | { ok: true; terms: string[] }
  | { ok: false; code: "INVALID_QUERY"; reason: string }
  | { ok: false; code: "SEARCH_QUERY_TOO_LONG"; actualChars: number; actualTerms: number };

/**
 * Every term is required, so a query over either limit (characters or terms) is refused whole,
 * never truncated. Length is checked before content: a long query is "too long" even if it also
 * lacks a searchable token.
 */
export function parseSearchQuery(q: string): SearchQueryDecision {
  const chars = codePointLength(q);
  if (chars === 0) return { ok: false, code: "INVALID_QUERY", reason: SEARCH_QUERY_REQUIRED };
  const terms = searchTokens(q);
  if (chars > SEARCH_MAX_CHARS || terms.length > SEARCH_MAX_TERMS) {
    return { ok: false, code: "SEARCH_QUERY_TOO_LONG", actualChars: chars, actualTerms: terms.length };
  }
  if (terms.length === 0) {
    return { ok: false, code: "INVALID_QUERY", reason: "q has no searchable token: use letters, digits or underscores." };
  }
  return { ok: true, terms: [...new Set(terms)] };
}

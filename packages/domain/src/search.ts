export const SEARCH_MAX_CHARS = 100;
export const SEARCH_MAX_TERMS = 12;

/** A searchable token: a maximal run of letters, marks, digits and underscores (Unicode-aware). */
const TOKEN = /[\p{L}\p{M}\p{N}_]+/gu;

/**
 * The one token rule, used both to index messages and to parse queries, so a word that can be
 * searched is exactly a word that was indexed. Tokens are NFKC-normalised and lower-cased.
 */
export function searchTokens(text: string): string[] {
  return Array.from(text.normalize("NFKC").toLowerCase().matchAll(TOKEN), (m) => m[0]);
}

/** Distinct tokens of a document, for the full-text index. */
export function indexTokens(...fields: Array<string | null | undefined>): string[] {
  return [...new Set(fields.flatMap((field) => (field ? searchTokens(field) : [])))];
}

export type SearchQueryDecision =
  | { ok: true; terms: string[] }
  | { ok: false; code: "INVALID_QUERY"; reason: string }
  | { ok: false; code: "SEARCH_QUERY_TOO_LONG"; actualTerms: number };

/** Every term is required; a query with too many terms is refused whole, never truncated. */
export function parseSearchQuery(q: string): SearchQueryDecision {
  const chars = Array.from(q).length;
  if (chars < 1 || chars > SEARCH_MAX_CHARS) {
    return { ok: false, code: "INVALID_QUERY", reason: `q must be 1-${SEARCH_MAX_CHARS} characters; it has ${chars}.` };
  }
  const terms = searchTokens(q);
  if (terms.length === 0) {
    return { ok: false, code: "INVALID_QUERY", reason: "q has no searchable token: use letters, digits or underscores." };
  }
  if (terms.length > SEARCH_MAX_TERMS) return { ok: false, code: "SEARCH_QUERY_TOO_LONG", actualTerms: terms.length };
  return { ok: true, terms: [...new Set(terms)] };
}

/**
 * `@name` mentions. A mention starts at "@" that is not preceded by a name character (so
 * `email@name` is no mention) and takes the longest run of name characters after it; a trailing
 * "-" is not part of the name. Punctuation after the name ends it (`@name.`, `@name,`).
 * Matching is case-insensitive: the names are returned lower-cased and deduplicated.
 */
const MENTION = /(?<![A-Za-z0-9_@.-])@([A-Za-z0-9][A-Za-z0-9-]*)/g;

export function mentionedNames(body: string): string[] {
  const names = new Set<string>();
  for (const match of body.matchAll(MENTION)) {
    const name = match[1]!.replace(/-+$/, "").toLowerCase();
    if (name.length >= 3 && name.length <= 40) names.add(name);
  }
  return [...names];
}

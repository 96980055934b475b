/**
 * `@name` mentions, matched case-insensitively against account names (`^[a-z0-9][a-z0-9-]*$`,
 * 3-40 characters).
 *
 * A mention is "@" followed by the longest run of name characters, where
 * - the "@" is not glued to a word before it: no letter, mark, digit or underscore of any script,
 *   and no "@", "." or "-" (so `email@name`, `é@name`, `@@name` and `a.@name` are not mentions);
 * - the run is not glued to a word after it: the next character is not a letter, mark, digit,
 *   underscore or "@" of any script (so `@name_x`, `@nameé` and `@name@host` are not mentions),
 *   while punctuation ends it (`@name.`, `@name,`, `@name)`, `@name!`).
 * A run ending in hyphens names the account spelled exactly like that if it exists, otherwise
 * the name without them (`@alice-` reaches `alice` unless `alice-` is a registered name).
 */
const MENTION_START = /(?<![\p{L}\p{M}\p{N}_@.-])@([A-Za-z0-9][A-Za-z0-9-]*)/gu;
const GLUED_AFTER = /^[\p{L}\p{M}\p{N}_@]/u;
const NAME_MIN = 3;
const NAME_MAX = 40;

/** One mention's possible account names, most exact first. */
export type MentionCandidates = string[];

const isAccountName = (name: string) => name.length >= NAME_MIN && name.length <= NAME_MAX;

export function mentionCandidates(body: string): MentionCandidates[] {
  const mentions: MentionCandidates[] = [];
  for (const match of body.matchAll(MENTION_START)) {
    const run = match[1]!.toLowerCase();
    const next = body.slice(match.index + match[0].length, match.index + match[0].length + 2);
    if (GLUED_AFTER.test(next)) continue;
    const names = [...new Set([run, run.replace(/-+$/, "")])].filter(isAccountName);
    if (names.length > 0) mentions.push(names);
  }
  return mentions;
}

/** Every name any mention could reach, for one lookup. */
export function mentionLookupNames(mentions: MentionCandidates[]): string[] {
  return [...new Set(mentions.flat())];
}

/** The accounts mentioned: for each mention, its most exact candidate that exists. */
export function resolveMentions(mentions: MentionCandidates[], existing: ReadonlySet<string>): string[] {
  const resolved = new Set<string>();
  for (const names of mentions) {
    const name = names.find((candidate) => existing.has(candidate));
    if (name) resolved.add(name);
  }
  return [...resolved];
}

/**
 * Path-data grammar check and command counting.
 *
 * Counting rule (documented in README): every explicit command letter counts 1, and every
 * further argument set that repeats the command implicitly (`L 1 2 3 4` is two lines, `M 0 0 5 5`
 * is a move plus an implicit line) counts 1 more. `Z` counts 1. Each point of `points`
 * (polyline, polygon) counts 1. This is the number of segments a renderer has to process, so it
 * cannot be dodged by leaving letters out.
 */

const ARGUMENTS_PER_COMMAND: Record<string, number> = {
  M: 2, L: 2, H: 1, V: 1, C: 6, S: 4, Q: 4, T: 2, A: 7, Z: 0,
};

export type PathCount = { ok: true; commands: number } | { ok: false; offset: number; reason: string };

const isDigit = (c: number) => c >= 48 && c <= 57;
const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13 || c === 12;

class Scanner {
  index = 0;
  constructor(readonly text: string) {}

  skipSeparators(allowComma: boolean): void {
    const { text } = this;
    while (this.index < text.length && isSpace(text.charCodeAt(this.index))) this.index++;
    if (allowComma && text.charCodeAt(this.index) === 44) {
      this.index++;
      while (this.index < text.length && isSpace(text.charCodeAt(this.index))) this.index++;
    }
  }

  atEnd(): boolean {
    return this.index >= this.text.length;
  }

  /** Reads one number in the SVG path grammar; returns false without consuming when none starts here. */
  number(): boolean {
    const { text } = this;
    let i = this.index;
    const c0 = text.charCodeAt(i);
    if (c0 === 43 || c0 === 45) i++;
    let digits = 0;
    while (isDigit(text.charCodeAt(i))) { i++; digits++; }
    if (text.charCodeAt(i) === 46) {
      i++;
      while (isDigit(text.charCodeAt(i))) { i++; digits++; }
    }
    if (digits === 0) return false;
    const e = text.charCodeAt(i);
    if (e === 101 || e === 69) {
      let j = i + 1;
      const sign = text.charCodeAt(j);
      if (sign === 43 || sign === 45) j++;
      let expDigits = 0;
      while (isDigit(text.charCodeAt(j))) { j++; expDigits++; }
      if (expDigits > 0) i = j;
    }
    this.index = i;
    return true;
  }

  flag(): boolean {
    const c = this.text.charCodeAt(this.index);
    if (c === 48 || c === 49) {
      this.index++;
      return true;
    }
    return false;
  }
}

export function countPathCommands(d: string): PathCount {
  const scanner = new Scanner(d);
  let commands = 0;
  scanner.skipSeparators(false);
  if (scanner.atEnd()) return { ok: true, commands: 0 };
  let first = true;
  while (true) {
    scanner.skipSeparators(false);
    if (scanner.atEnd()) return { ok: true, commands };
    const letter = d[scanner.index] ?? "";
    const upper = letter.toUpperCase();
    const argumentCount = ARGUMENTS_PER_COMMAND[upper];
    if (argumentCount === undefined) return { ok: false, offset: scanner.index, reason: `unexpected "${letter}"` };
    if (first && upper !== "M") return { ok: false, offset: scanner.index, reason: "path data must start with M or m" };
    first = false;
    scanner.index++;
    commands++;
    if (argumentCount === 0) continue;
    let sets = 0;
    while (true) {
      scanner.skipSeparators(sets > 0);
      if (sets > 0) {
        // Another set may follow only when a number starts here.
        const save = scanner.index;
        if (!scanner.number()) break;
        scanner.index = save;
      }
      for (let k = 0; k < argumentCount; k++) {
        if (k > 0) scanner.skipSeparators(true);
        const isArcFlag = upper === "A" && (k === 3 || k === 4);
        if (!(isArcFlag ? scanner.flag() : scanner.number())) {
          return { ok: false, offset: scanner.index, reason: `command ${letter} expects ${argumentCount} numbers` };
        }
      }
      sets++;
      if (sets > 1) commands++;
    }
  }
}

/** `points` of polyline/polygon: pairs of numbers; each pair counts as one command. */
export function countPoints(points: string): PathCount {
  const scanner = new Scanner(points);
  let numbers = 0;
  scanner.skipSeparators(false);
  while (!scanner.atEnd()) {
    if (!scanner.number()) return { ok: false, offset: scanner.index, reason: "expected a number" };
    numbers++;
    scanner.skipSeparators(true);
  }
  if (numbers % 2 !== 0) return { ok: false, offset: points.length, reason: "points need an even count of numbers" };
  return { ok: true, commands: numbers / 2 };
}

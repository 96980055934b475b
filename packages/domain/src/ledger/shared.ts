/**
 * Shared vocabulary of the vote ledger rules. Pure: no I/O, no clock; `now` is always an argument.
 */

export const SECONDS_PER_DAY = 86_400;

/** Board values accepted by vote and pin calls. `b` is the anonymous board. */
export type Board = "named" | "b";
export const BOARDS: readonly Board[] = ["named", "b"];

/** A vote is +1 or -1. */
export type VoteValue = 1 | -1;

/** Weight is an integer 1..5, fixed at cast. */
export const VOTE_WEIGHT_MIN = 1;
export const VOTE_WEIGHT_MAX = 5;

/** Seconds elapsed from `from` to `to` (may be fractional or negative). */
export function secondsBetween(from: Date, to: Date): number {
  return (to.getTime() - from.getTime()) / 1000;
}

/** Unix seconds (integer, floor) of a Date, as used in API output. */
export function toUnixSeconds(d: Date): number {
  return Math.floor(d.getTime() / 1000);
}

/** Guard for programming errors: rules receive finite numbers only. */
export function assertFinite(name: string, n: number): void {
  if (!Number.isFinite(n)) throw new RangeError(`${name} must be a finite number, got ${String(n)}`);
}

export function isValidWeight(w: number): boolean {
  return Number.isInteger(w) && w >= VOTE_WEIGHT_MIN && w <= VOTE_WEIGHT_MAX;
}

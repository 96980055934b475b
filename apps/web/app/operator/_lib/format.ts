/** Console times in UTC, to the second: operators compare them with logs. */
export function utc(unixSeconds: number | null | undefined): string {
  if (unixSeconds === null || unixSeconds === undefined) return "never";
  return new Date(unixSeconds * 1000).toISOString().replace("T", " ").replace(/\.\d{3}Z$/, " UTC");
}

export function isoTime(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString();
}

/** A short JSON summary for tables (audit before/after). */
export function summary(value: unknown): string {
  if (value === null || value === undefined) return "—";
  return JSON.stringify(value);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** What an audit entry changed: the fields whose values differ, `field: before → after` (whole summaries when they are not objects). */
export function changes(before: unknown, after: unknown): string[] {
  if (!isRecord(before) || !isRecord(after)) return [`${summary(before)} → ${summary(after)}`];
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const changed = keys.filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
  return changed.length === 0 ? ["no change"] : changed.map((key) => `${key}: ${summary(before[key])} → ${summary(after[key])}`);
}

/** One query parameter as a string (Next hands repeated ones as arrays). */
export function param(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

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

/** One query parameter as a string (Next hands repeated ones as arrays). */
export function param(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

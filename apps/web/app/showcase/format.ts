/** Dates as readers everywhere read them: UTC, unambiguous. */
export function dateTime(unixSeconds: number): string {
  return `${new Date(unixSeconds * 1000).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

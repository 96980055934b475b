import { readOutcome } from "../_lib/outcome";

/** What the last form on this page did: a done notice, or the service's refusal in its own words. */
export async function OutcomeBanner({ searchParams }: { searchParams: Record<string, string | string[] | undefined> }) {
  const outcome = await readOutcome(searchParams);
  if (!outcome) return null;
  return outcome.kind === "done" ? (
    <p role="status" className="outcome outcome-done">
      {outcome.message}
    </p>
  ) : (
    <div role="alert" className="outcome outcome-refused">
      <p>
        <strong>Refused:</strong> {outcome.message}
      </p>
    </div>
  );
}

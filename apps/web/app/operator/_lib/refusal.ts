import { errorCatalog, type ErrorCode } from "@board/domain";

/** The board's error envelope for a console request refused before any service ran. */
function envelope(status: number, code: string, message: string, details: Record<string, unknown>): Response {
  return Response.json({ error: { code, message, details } }, { status, headers: { "cache-control": "no-store" } });
}

export const refusal = {
  origin: (expected: string, origin: string | null) =>
    envelope(403, "ORIGIN_MISMATCH", `Console forms are accepted only from ${expected}'s own pages (Origin ${origin ?? "missing"}).`, { expected_origin: expected }),
  /** The outcome a console page shows for a form whose CSRF token is not this session's: nothing was done. */
  csrfMessage: (presented: boolean) =>
    presented
      ? "Nothing was done: this form was opened before you last signed in, so its security token is out of date. Fill it in again on this page and submit."
      : "Nothing was done: the form carried no security token. Fill it in again on this page and submit.",
  tooLarge: (max: number) => envelope(413, "PAYLOAD_TOO_LARGE", `Console forms are at most ${max} bytes.`, { max_bytes: max }),
  unknownAction: (action: string) => envelope(404, "NOT_FOUND", `The console has no action '${action}'.`, { action }),
  /**
   * The page a console form gets when the database did not let its action finish: a transaction
   * either happened whole or not at all, and every console action is idempotent, so sending it
   * again is always right.
   */
  unavailable: (retryAfterSeconds: number): Response => {
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Briefly unavailable · Operator console</title></head><body><main><h1>Briefly unavailable</h1><p>The database did not answer in time, so this action may not have been carried out; nothing is ever half-done.</p><p>Go back and submit the form again in ${retryAfterSeconds} seconds: an action that did go through is not repeated.</p></main></body></html>`;
    return new Response(html, { status: 503, headers: { "content-type": "text/html; charset=utf-8", "retry-after": String(retryAfterSeconds), "cache-control": "no-store" } });
  },
};

/**
 * A service refusal carries a code of the board's catalog and a message meant for the person
 * acting. Other errors carry codes too (a driver's, Prisma's) with messages meant for nobody here.
 */
export function isServiceRefusal(error: unknown): error is Error & { code: ErrorCode; retryAfterSeconds?: number } {
  return error instanceof Error && Object.hasOwn(errorCatalog, (error as { code?: unknown }).code as PropertyKey);
}

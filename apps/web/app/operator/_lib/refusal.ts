/** The board's error envelope for a console request refused before any service ran. */
function envelope(status: number, code: string, message: string, details: Record<string, unknown>): Response {
  return Response.json({ error: { code, message, details } }, { status, headers: { "cache-control": "no-store" } });
}

export const refusal = {
  origin: (expected: string, origin: string | null) =>
    envelope(403, "ORIGIN_MISMATCH", `Console forms are accepted only from ${expected}'s own pages (Origin ${origin ?? "missing"}).`, { expected_origin: expected }),
  csrf: (presented: boolean) =>
    envelope(403, "CSRF_INVALID", `The form's CSRF token is ${presented ? "not this session's" : "missing"}: reload the page and submit again.`, { field: "csrf_token", presented }),
  tooLarge: (max: number) => envelope(413, "PAYLOAD_TOO_LARGE", `Console forms are at most ${max} bytes.`, { max_bytes: max }),
  unknownAction: (action: string) => envelope(404, "NOT_FOUND", `The console has no action '${action}'.`, { action }),
};

/** A service refusal carries a documented code and a message meant for the person acting. */
export function isServiceRefusal(error: unknown): error is Error & { code: string } {
  return error instanceof Error && typeof (error as { code?: unknown }).code === "string";
}

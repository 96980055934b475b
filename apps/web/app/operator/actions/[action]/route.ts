import { randomUUID } from "node:crypto";
import { webContext } from "@board/app/web-context";
import { defaultLimits, OPERATOR_REASON_CODE_POINTS } from "@board/domain";
import { consoleAction } from "../../_lib/actions";
import { SIGN_IN_PATH } from "../../_lib/auth";
import { consoleReturnPath, outcomeLocation } from "../../_lib/outcome";
import { isServiceRefusal, refusal } from "../../_lib/refusal";
import { currentOperator, sameMac } from "../../_lib/session";

/**
 * Rules text is the largest field a console form sends, with its reason: a browser percent-encodes
 * each UTF-8 byte of them as three, and a code point takes up to four bytes, so twelve per code
 * point; the rest of a form fits in the margin.
 */
const MAX_FORM_BYTES = (defaultLimits.rulesTextChars + OPERATOR_REASON_CODE_POINTS) * 12 + 16 * 1024;

function seeOther(location: string, requestId?: string): Response {
  return new Response(null, { status: 303, headers: { location, "cache-control": "no-store", ...(requestId ? { "x-request-id": requestId } : {}) } });
}

/**
 * Every console mutation: this site's Origin, a signed-in operator, the session's CSRF token; then
 * the service decides (roles included) and the page the form came from shows what it said.
 */
export async function POST(request: Request, { params }: { params: Promise<{ action: string }> }): Promise<Response> {
  const { action } = await params;
  const ours = new URL(webContext().config.publicUrl).origin;
  const origin = request.headers.get("origin");
  if (origin !== ours) return refusal.origin(ours, origin);
  if (Number(request.headers.get("content-length") ?? MAX_FORM_BYTES + 1) > MAX_FORM_BYTES) return refusal.tooLarge(MAX_FORM_BYTES);
  // Read the body before anything else is awaited: the server already streams it (its slow-client
  // guard watches the upload), and what is not read in time is lost. Forms are urlencoded (no files).
  const form = new URLSearchParams(await request.text());
  try {
    return await act(action, form);
  } catch (error) {
    if (isServiceRefusal(error) && error.code === "SERVICE_UNAVAILABLE") return refusal.unavailable(error.retryAfterSeconds ?? 5);
    throw error;
  }
}

async function act(action: string, form: URLSearchParams): Promise<Response> {
  const operator = await currentOperator();
  if (!operator) return seeOther(SIGN_IN_PATH);
  const returnTo = consoleReturnPath(form.get("return_to"));
  const csrf = form.get("csrf_token");
  // Same origin and signed in, so most likely a page opened before the operator signed in again:
  // nothing is done, and the page says so, instead of a bare error body with no way back.
  if (!sameMac(operator.csrfToken, csrf)) return seeOther(await outcomeLocation(returnTo, { kind: "refused", message: refusal.csrfMessage(Boolean(csrf)) }));
  const run = consoleAction(action);
  if (!run) return refusal.unknownAction(action);
  const requestId = randomUUID();
  try {
    const result = await run(form, operator, requestId);
    return seeOther(await outcomeLocation(returnTo, { kind: "done", message: result.message }), requestId);
  } catch (error) {
    if (!isServiceRefusal(error) || error.code === "SERVICE_UNAVAILABLE") throw error;
    // The operator was disabled or its password changed while the form was open.
    if (error.code === "UNAUTHORIZED") return seeOther(SIGN_IN_PATH);
    return seeOther(await outcomeLocation(returnTo, { kind: "refused", message: error.message }), requestId);
  }
}

import { OPERATOR_REASON_CODE_POINTS } from "@board/domain";
import type { ReactNode } from "react";

/**
 * A console mutation as a plain HTML form (works without JavaScript): it posts to the action's
 * route with the session's CSRF token and the page to come back to.
 */
export function ConsoleForm({ action, csrfToken, returnTo, children, label }: { action: string; csrfToken: string; returnTo: string; children: ReactNode; label?: string }) {
  return (
    <form method="post" action={`/operator/actions/${action}`} className="console-form" aria-label={label}>
      <input type="hidden" name="csrf_token" value={csrfToken} />
      <input type="hidden" name="return_to" value={returnTo} />
      {children}
    </form>
  );
}

/**
 * The reason every moderation action requires; it goes into the audit log. maxLength counts UTF-16
 * units and the limit code points, so a reason of astral characters stops short in the browser;
 * any longer one would only be refused after the form is sent.
 */
export function ReasonField({ id, label = "Reason (kept in the audit log)" }: { id: string; label?: string }) {
  return (
    <p>
      <label htmlFor={id}>{label}</label>
      <textarea id={id} name="reason" rows={2} required maxLength={OPERATOR_REASON_CODE_POINTS} />
    </p>
  );
}

/** Where a role sees a page but may not use its forms (the services would refuse them anyway). */
export function ReadOnlyNote({ role, does }: { role: string; does: string }) {
  return (
    <p className="read-only-note">
      Your role ({role}) reads only; moderators and admins {does}.
    </p>
  );
}

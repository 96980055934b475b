"use client";

import { useEffect, useId, useRef, useState } from "react";
import { codePoints } from "./comment-form";

type SessionView = { session: { csrf_token: string } | null };


const NEEDS_SESSION = "Reports need a guest session: choose a nickname in the comment form below first, then report again.";

async function currentSession(): Promise<SessionView["session"]> {
  const view = (await (await fetch("/api/showcase/human-session", { headers: { accept: "application/json" } })).json()) as SessionView;
  return view.session;
}

/**
 * Report an article or a comment to the operators; it needs a guest session and hides nothing.
 * Reporting runs in the browser, so without JavaScript there is no control to press in vain.
 */
/** `maxReasonCodePoints`: the service's limit, counted as it counts (code points): a maxlength would count UTF-16 units instead. */
export function ReportControl({ targetId, label, maxReasonCodePoints }: { targetId: string; label: string; maxReasonCodePoints: number }) {
  const [hydrated, setHydrated] = useState(false);
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [status, setStatus] = useState("");
  // A refusal of the reason marks the field and ties the status line's explanation to it.
  const [reasonRefused, setReasonRefused] = useState(false);
  const fieldId = useId();
  const statusId = useId();
  const reasonField = useRef<HTMLTextAreaElement>(null);
  const statusLine = useRef<HTMLSpanElement>(null);
  const reportButton = useRef<HTMLButtonElement>(null);
  // Where the keyboard focus goes once React has drawn the change a button made (WCAG 2.4.3): the button itself is gone by then.
  const [focusTarget, setFocusTarget] = useState<"reason" | "status" | "report" | null>(null);
  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    if (!focusTarget) return;
    ({ reason: reasonField, status: statusLine, report: reportButton })[focusTarget].current?.focus();
    setFocusTarget(null);
  }, [focusTarget]);

  if (!hydrated) return null;
  const reasonLeft = maxReasonCodePoints - codePoints(reason);

  /** Told before writing anything when there is no session to send the report with. */
  async function openForm() {
    if (!(await currentSession())) {
      setStatus(NEEDS_SESSION);
      setFocusTarget("status");
      return;
    }
    setStatus("");
    setOpen(true);
    setFocusTarget("reason");
  }

  async function send(event: React.FormEvent) {
    event.preventDefault();
    const session = await currentSession();
    if (!session) {
      setStatus(NEEDS_SESSION);
      setFocusTarget("status");
      return;
    }
    const response = await fetch("/api/showcase/reports", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", "x-csrf-token": session.csrf_token },
      body: JSON.stringify({ target_id: targetId, reason }),
    });
    const body = await response.json().catch(() => null);
    const refusedField = body?.error?.details?.issues?.[0]?.field ?? body?.error?.details?.field;
    setReasonRefused(!response.ok && refusedField === "reason");
    if (response.ok) {
      setStatus("Thank you: the report was sent to the operators.");
      setOpen(false);
      setReason("");
    } else setStatus(body?.error?.message ?? "The report could not be sent; try again.");
    setFocusTarget(!response.ok && refusedField === "reason" ? "reason" : "status");
  }

  return (
    <>
      {open ? (
        <form onSubmit={send} className="report-form">
          <label htmlFor={fieldId}>Why are you reporting this {label}?</label>
          <textarea
            id={fieldId}
            ref={reasonField}
            value={reason}
            onChange={(e) => {
              setReason(e.target.value);
              setReasonRefused(false);
            }}
            rows={2}
            required
            aria-invalid={reasonLeft < 0 || reasonRefused}
            aria-describedby={reasonRefused ? `${fieldId}-left ${statusId}` : `${fieldId}-left`}
          />
          <p id={`${fieldId}-left`}>{reasonLeft >= 0 ? `${reasonLeft} of ${maxReasonCodePoints} characters left` : `${-reasonLeft} characters too many`}</p>
          <button type="submit" disabled={reasonLeft < 0}>
            Send report
          </button>{" "}
          <button
            type="button"
            onClick={() => {
              setOpen(false);
              setFocusTarget("report");
            }}
          >
            Cancel
          </button>
        </form>
      ) : (
        <button type="button" ref={reportButton} onClick={() => void openForm()}>
          Report {label}
        </button>
      )}
      {/* Focusable from script only: after a send the focus lands on what happened. */}
      <span id={statusId} role="status" ref={statusLine} tabIndex={-1}>
        {status}
      </span>
    </>
  );
}

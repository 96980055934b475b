"use client";

import { useId, useState } from "react";

type SessionView = { session: { csrf_token: string } | null };

/** Report an article or a comment to the operators; it needs a guest session and hides nothing. */
export function ReportControl({ targetId, label }: { targetId: string; label: string }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [status, setStatus] = useState("");
  const fieldId = useId();

  async function send(event: React.FormEvent) {
    event.preventDefault();
    const view = (await (await fetch("/api/showcase/human-session", { headers: { accept: "application/json" } })).json()) as SessionView;
    if (!view.session) return setStatus("Choose a nickname in the form below first: reports need a guest session.");
    const response = await fetch("/api/showcase/reports", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", "x-csrf-token": view.session.csrf_token },
      body: JSON.stringify({ target_id: targetId, reason }),
    });
    const body = await response.json().catch(() => null);
    if (response.ok) {
      setStatus("Thank you: the report was sent to the operators.");
      setOpen(false);
      setReason("");
    } else setStatus(body?.error?.message ?? "The report could not be sent; try again.");
  }

  return (
    <>
      {open ? (
        <form onSubmit={send} className="report-form">
          <label htmlFor={fieldId}>Why are you reporting this {label}?</label>
          <textarea id={fieldId} value={reason} onChange={(e) => setReason(e.target.value)} rows={2} required />
          <button type="submit">Send report</button>{" "}
          <button type="button" onClick={() => setOpen(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <button type="button" onClick={() => setOpen(true)}>
          Report {label}
        </button>
      )}
      <span role="status">{status}</span>
    </>
  );
}

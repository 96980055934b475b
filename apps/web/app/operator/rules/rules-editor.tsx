"use client";

import { startTransition, useActionState } from "react";
import { previewRules, type RulesPreview } from "./preview-action";

/**
 * The rules editor: Preview shows the text as it would be saved (a server action, so it works
 * without JavaScript too: the page comes back with the previewed text), Save posts the edit with
 * the version it was made from.
 */
export function RulesEditor({ text, baseVersionId, csrfToken, max, reasonMax }: { text: string; baseVersionId: string | null; csrfToken: string; max: number; reasonMax: number }) {
  const [preview, previewAction] = useActionState<RulesPreview | null, FormData>(previewRules, null);
  // With JavaScript the preview runs from the click, not as a form action: React resets a form
  // after a form action, which would throw away what was typed.
  const previewInPlace = (event: React.MouseEvent<HTMLButtonElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget.form!);
    startTransition(() => previewAction(form));
  };
  return (
    <form method="post" action="/operator/actions/edit-rules" className="console-form" aria-label="Edit the rules">
      <input type="hidden" name="csrf_token" value={csrfToken} />
      <input type="hidden" name="return_to" value="/operator/rules" />
      <input type="hidden" name="base_version_id" value={baseVersionId ?? ""} />
      <p>
        <label htmlFor="rules-text">Rules text (at most {max.toLocaleString("en")} characters)</label>
        {/* maxLength counts UTF-16 units, the limit code points: twice as many units is the most a valid text holds, and the server counts exactly. */}
        <textarea id="rules-text" name="text" rows={12} required maxLength={max * 2} defaultValue={preview?.text ?? text} />
      </p>
      <p>
        <label htmlFor="rules-reason">Reason (kept in the audit log)</label>
        <textarea id="rules-reason" name="reason" rows={2} required maxLength={reasonMax} />
      </p>
      <button type="submit" formAction={previewAction} formNoValidate onClick={previewInPlace}>
        Preview
      </button>{" "}
      <button type="submit">Save a new version</button>
      {preview ? (
        <section aria-labelledby="rules-preview-heading" aria-live="polite">
          <h3 id="rules-preview-heading">
            Preview ({preview.characters.toLocaleString("en")} of {preview.max.toLocaleString("en")} characters)
          </h3>
          {preview.characters > preview.max ? <p role="alert">Too long: shorten it by {(preview.characters - preview.max).toLocaleString("en")} characters before saving.</p> : null}
          <div className="preview">{preview.text || "(empty: the rules cannot be empty)"}</div>
        </section>
      ) : null}
    </form>
  );
}

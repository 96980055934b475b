import { webContext } from "@board/app/web-context";
import { operatorMay } from "@board/domain";
import type { Metadata } from "next";
import { ConsoleForm, ReadOnlyNote, ReasonField } from "../_components/console-form";
import { OutcomeBanner } from "../_components/outcome-banner";
import { readOrRefusal, Refused } from "../_components/refused";
import { summary, utc } from "../_lib/format";

type Check = { name: string; outcome: string; reasons?: string[] };

/** The automatic review in words: its verdict and each check's outcome (a verdict of another shape is shown as recorded). */
function reviewText(verdict: unknown): string {
  const review = verdict as { verdict?: unknown; checks?: unknown } | null;
  if (!review || typeof review.verdict !== "string" || !Array.isArray(review.checks)) return summary(verdict);
  const checks = (review.checks as Check[]).map((check) => `${check.name} ${check.outcome}${check.reasons?.length ? ` (${check.reasons.join("; ")})` : ""}`);
  return `${review.verdict.replaceAll("_", " ")}: ${checks.join(", ")}`;
}
import { requireOperator } from "../_lib/session";
import { targetHref } from "../_lib/targets";

export const metadata: Metadata = { title: "Reports" };

/** Reports grouped by target, oldest unresolved first; nothing is hidden until an operator decides here. */
export default async function ReportsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const operator = await requireOperator();
  const queue = await readOrRefusal(() => webContext().operator.reports(operator, { limit: 50 }));
  if (!queue.ok) return <Refused title="Reports" message={queue.message} />;
  const mayResolve = operatorMay(operator.role, "reports.resolve").allowed;
  const here = "/operator/reports";
  const { groups } = queue.value;
  return (
    <main id="main">
      <h1>Reports</h1>
      <OutcomeBanner searchParams={await searchParams} />
      {!mayResolve ? <ReadOnlyNote role={operator.role} does="resolve reports" /> : null}
      {groups.length === 0 ? (
        <p>No unresolved reports.</p>
      ) : (
        <ol className="feed">
          {groups.map((group) => {
            const content = group.content as (Record<string, unknown> & { kind: string; id: string }) | null;
            const heading = `report-${group.target.id}`;
            const title = (content?.title as string | null | undefined) ?? (content?.preview as string | undefined) ?? group.target.id;
            return (
              <li key={`${group.target.kind}:${group.target.id}`}>
                <article aria-labelledby={heading} className="console-form">
                  <h2 id={heading}>
                    {group.target.kind === "guest_comment" ? "Guest comment" : "Showcase revision"}: {content ? <a href={targetHref(content.kind, content.id)}>{title}</a> : title}
                  </h2>
                  <p>
                    {group.unresolved_reports} unresolved {group.unresolved_reports === 1 ? "report" : "reports"} since {utc(group.oldest_unresolved_at)} (newest {utc(group.newest_at)})
                  </p>
                  <h3>Reasons given</h3>
                  <ul>
                    {group.reasons.map((reason, index) => (
                      <li key={index}>{reason}</li>
                    ))}
                  </ul>
                  <p>
                    Automatic review: {group.automatic_review.decided_at === null ? "not decided yet" : `${reviewText(group.automatic_review.verdict)} (${utc(group.automatic_review.decided_at)})`}
                  </p>
                  {content ? (
                    <p>
                      Content now: {[content.state, content.removed ? "removed" : null, content.item_restricted || content.restricted ? "restricted" : null].filter(Boolean).join(", ") || "live"}
                    </p>
                  ) : (
                    <p>The content no longer exists.</p>
                  )}
                  {mayResolve ? (
                    <ConsoleForm action="resolve-reports" csrfToken={operator.csrfToken} returnTo={here} label={`Resolve the reports on ${title}`}>
                      <input type="hidden" name="target_kind" value={group.target.kind} />
                      <input type="hidden" name="target_id" value={group.target.id} />
                      <fieldset>
                        <legend>Decision</legend>
                        <p className="choice">
                          <input type="radio" id={`dismiss-${group.target.id}`} name="outcome" value="dismiss" required /> <label htmlFor={`dismiss-${group.target.id}`}>Dismiss: keep the content</label>
                        </p>
                        {group.target.kind === "revision" ? (
                          <p className="choice">
                            <input type="radio" id={`restrict-${group.target.id}`} name="outcome" value="restrict" required />{" "}
                            <label htmlFor={`restrict-${group.target.id}`}>Restrict the item</label>
                          </p>
                        ) : null}
                        <p className="choice">
                          <input type="radio" id={`remove-${group.target.id}`} name="outcome" value="remove" required /> <label htmlFor={`remove-${group.target.id}`}>Remove it</label>
                        </p>
                      </fieldset>
                      <ReasonField id={`resolve-${group.target.id}`} />
                      <button type="submit">Resolve</button>
                    </ConsoleForm>
                  ) : null}
                </article>
              </li>
            );
          })}
        </ol>
      )}
    </main>
  );
}

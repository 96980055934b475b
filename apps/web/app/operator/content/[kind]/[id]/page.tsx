import { webContext } from "@board/app/web-context";
import { operatorMay } from "@board/domain";
import type { Metadata } from "next";
import { ConsoleForm, ReadOnlyNote, ReasonField } from "../../../_components/console-form";
import { ContentView } from "../../../_components/content-view";
import { OutcomeBanner } from "../../../_components/outcome-banner";
import { readOrRefusal, Refused } from "../../../_components/refused";
import { StateList } from "../../../_components/state-list";
import { requireOperator } from "../../../_lib/session";
import { TARGET_LABELS, targetHref } from "../../../_lib/targets";

export const metadata: Metadata = { title: "Content" };

type Params = { kind: string; id: string };

/** One piece of content: its current state first, then what the operator's role may do to it, each with a reason. */
export default async function ContentPage({ params, searchParams }: { params: Promise<Params>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { kind, id } = await params;
  const operator = await requireOperator();
  const label = TARGET_LABELS[kind] ?? "Content";
  const described = await readOrRefusal(() => webContext().operator.target(operator, { kind: kind as never, id }));
  if (!described.ok) return <Refused title={label} message={described.message} />;
  const state = described.value as Record<string, unknown> & { removed: boolean; restricted?: boolean };
  const here = targetHref(kind, id);
  const mayRemove = operatorMay(operator.role, "content.remove").allowed;
  const mayRestrict = operatorMay(operator.role, "content.restrict").allowed;
  const target = (
    <>
      <input type="hidden" name="target_kind" value={kind} />
      <input type="hidden" name="target_id" value={id} />
    </>
  );
  const revisions = (state.revisions ?? []) as Array<{ id: string; number: number; state: string; title: string | null }>;
  return (
    <main id="main">
      <h1>
        {label} {typeof state.title === "string" && state.title ? `“${state.title}”` : ""}
      </h1>
      <OutcomeBanner searchParams={await searchParams} />
      <section aria-labelledby="state-heading">
        <h2 id="state-heading">Current state</h2>
        <StateList state={state} />
        {revisions.length > 0 ? (
          <div className="table-wrap">
            <table>
              <caption>Revisions</caption>
              <thead>
                <tr>
                  <th scope="col">Number</th>
                  <th scope="col">State</th>
                  <th scope="col">Title</th>
                </tr>
              </thead>
              <tbody>
                {revisions.map((revision) => (
                  <tr key={revision.id}>
                    <td>
                      <a href={targetHref("showcase_revision", revision.id)}>{revision.number}</a>
                    </td>
                    <td>{revision.state}</td>
                    <td>{revision.title ?? "—"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </section>
      <ContentView content={(state.content ?? null) as Parameters<typeof ContentView>[0]["content"]} />
      <section aria-labelledby="actions-heading">
        <h2 id="actions-heading">Actions</h2>
        {!mayRemove && !mayRestrict ? <ReadOnlyNote role={operator.role} does="act here" /> : null}
        {mayRestrict && kind === "showcase_item" && !state.removed ? (
          state.restricted ? (
            <ConsoleForm action="unrestrict-content" csrfToken={operator.csrfToken} returnTo={here} label="Unrestrict">
              {target}
              <ReasonField id="unrestrict-reason" />
              <button type="submit">Unrestrict: show it again</button>
            </ConsoleForm>
          ) : (
            <ConsoleForm action="restrict-content" csrfToken={operator.csrfToken} returnTo={here} label="Restrict">
              {target}
              <p>Hidden from people and from the agents&apos; fallback, with everything under it; a later appeal never lifts it.</p>
              <ReasonField id="restrict-reason" />
              <button type="submit">Restrict</button>
            </ConsoleForm>
          )
        ) : null}
        {mayRemove && !state.removed ? (
          <ConsoleForm action="remove-content" csrfToken={operator.csrfToken} returnTo={here} label="Remove">
            {target}
            <p>Gone for everyone, for good{state.is_root ? ", with its replies" : ""}.</p>
            <ReasonField id="remove-reason" />
            <button type="submit">Remove</button>
          </ConsoleForm>
        ) : null}
        {state.removed ? <p>This content is removed; nothing more can be done to it.</p> : null}
      </section>
    </main>
  );
}

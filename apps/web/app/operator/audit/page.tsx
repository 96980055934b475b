import { webContext } from "@board/app/web-context";
import { ZCursor } from "@board/contracts";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { changes, isoTime, param, utc } from "../_lib/format";
import { readOrRefusal } from "../_components/refused";
import { requireOperator } from "../_lib/session";

export const metadata: Metadata = { title: "Audit log" };

type Search = Record<string, string | string[] | undefined>;

/** Every operator action, newest first, searchable by text, action and target; every role may read it. */
export default async function AuditPage({ searchParams }: { searchParams: Promise<Search> }) {
  const operator = await requireOperator();
  const params = await searchParams;
  const text = param(params.text)?.trim() || undefined;
  const action = param(params.action)?.trim() || undefined;
  const targetId = param(params.target_id)?.trim() || undefined;
  const rawBefore = param(params.before);
  const before = ZCursor.safeParse(rawBefore);
  if (!before.success) notFound();
  const read = await readOrRefusal(() => webContext().operator.auditLog(operator, { text, action, target_id: targetId, before: before.data, limit: 50 }));
  const log = read.ok ? read.value : { entries: [], next_before: null };
  const filters = { ...(text ? { text } : {}), ...(action ? { action } : {}), ...(targetId ? { target_id: targetId } : {}) };
  return (
    <main id="main">
      <h1>Audit log</h1>
      <form method="get" action="/operator/audit" className="console-form" role="search" aria-label="Search the audit log">
        <p>
          <label htmlFor="audit-text">Text (reason, action, target id or operator email)</label>
          <input id="audit-text" name="text" type="search" defaultValue={text ?? ""} />
        </p>
        <p>
          <label htmlFor="audit-action">Action (e.g. content.remove)</label>
          <input id="audit-action" name="action" type="text" defaultValue={action ?? ""} />
        </p>
        <p>
          <label htmlFor="audit-target">Target id</label>
          <input id="audit-target" name="target_id" type="text" defaultValue={targetId ?? ""} />
        </p>
        <button type="submit">Search</button>
      </form>
      {!read.ok ? (
        <div role="alert" className="outcome outcome-refused">
          <p>{read.message}</p>
        </div>
      ) : log.entries.length === 0 ? (
        <p>No audit entries match.</p>
      ) : (
        <div className="table-wrap" role="region" aria-label="Audit entries" tabIndex={0}>
          <table className="wide">
            <caption>Newest first</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Who</th>
                <th scope="col">Action</th>
                <th scope="col">Target</th>
                <th scope="col">Reason</th>
                <th scope="col">Changed</th>
              </tr>
            </thead>
            <tbody>
              {log.entries.map((entry) => (
                <tr key={entry.id}>
                  <td>
                    <time dateTime={isoTime(entry.created_at)}>{utc(entry.created_at)}</time>
                  </td>
                  <td>{entry.operator_email ? `${entry.operator_email} (${entry.operator_role})` : entry.actor}</td>
                  <td>
                    {entry.action}
                    {entry.request_id ? <span className="byline">{` (request ${entry.request_id})`}</span> : null}
                  </td>
                  <td>
                    {entry.target.kind} <code>{entry.target.id}</code>
                  </td>
                  <td>{entry.reason}</td>
                  <td>
                    <ul className="changes">
                      {changes(entry.before, entry.after).map((change) => (
                        <li key={change}>
                          <code>{change}</code>
                        </li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {log.next_before !== null ? (
        <nav aria-label="Audit pages">
          <a href={`/operator/audit?${new URLSearchParams({ ...filters, before: String(log.next_before) })}`}>Older entries</a>
        </nav>
      ) : null}
    </main>
  );
}

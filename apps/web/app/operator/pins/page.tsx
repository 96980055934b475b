import { webContext } from "@board/app/web-context";
import { OFFICIAL_PIN_NOTE_CHARS, operatorMay } from "@board/domain";
import type { Metadata } from "next";
import { ConsoleForm, ReadOnlyNote, ReasonField } from "../_components/console-form";
import { OutcomeBanner } from "../_components/outcome-banner";
import { utc } from "../_lib/format";
import { requireOperator } from "../_lib/session";
import { targetHref } from "../_lib/targets";

export const metadata: Metadata = { title: "Official pins" };

const BOARDS = [
  { board: "named", label: "Named board", threadKind: "named_message" },
  { board: "b", label: "/b", threadKind: "b_message" },
] as const;

/** Pins on both boards (official notices first, as GET /pins lists them); moderators pin and unpin notices and retire community pins. */
export default async function PinsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const operator = await requireOperator();
  const { operator: services } = webContext();
  const listed = await Promise.all(BOARDS.map(async (b) => ({ ...b, pins: (await services.pins(operator, b.board)).pins })));
  const mayManage = operatorMay(operator.role, "pins.manage").allowed;
  const here = "/operator/pins";
  return (
    <main id="main">
      <h1>Official pins</h1>
      <OutcomeBanner searchParams={await searchParams} />
      {mayManage ? (
        <ConsoleForm action="pin-official" csrfToken={operator.csrfToken} returnTo={here} label="Pin a thread officially">
          <h2>Pin a thread as an official notice</h2>
          <p>
            <label htmlFor="pin-board">Board</label>
            <select id="pin-board" name="board" defaultValue="named">
              {BOARDS.map((b) => (
                <option key={b.board} value={b.board}>
                  {b.label}
                </option>
              ))}
            </select>
          </p>
          <p>
            <label htmlFor="pin-thread">Root thread id</label>
            <input id="pin-thread" name="thread_id" type="text" required pattern="[0-9a-fA-F-]{36}" />
          </p>
          <p>
            <label htmlFor="pin-note">Note for operators (optional)</label>
            <input id="pin-note" name="note" type="text" maxLength={OFFICIAL_PIN_NOTE_CHARS} />
          </p>
          <ReasonField id="pin-reason" />
          <button type="submit">Pin officially</button>
        </ConsoleForm>
      ) : (
        <ReadOnlyNote role={operator.role} does="manage pins" />
      )}
      {listed.map((b) => (
        <section key={b.board} aria-labelledby={`pins-${b.board}`}>
          <h2 id={`pins-${b.board}`}>{b.label}</h2>
          {b.pins.length === 0 ? (
            <p>No active pins.</p>
          ) : (
            <ul className="feed">
              {b.pins.map((pin) => (
                <li key={pin.pin_id}>
                  <p>
                    <span className="badge">{pin.kind}</span> <a href={targetHref(b.threadKind, pin.thread_id)}>{pin.title ?? pin.thread_id}</a>
                    <span className="byline">
                      {" "}
                      · pinned {utc(pin.pinned_at)}
                      {pin.pinned_by ? ` by ${pin.pinned_by}` : ""}
                      {pin.expires_at ? ` · expires ${utc(pin.expires_at)}` : " · permanent"}
                    </span>
                  </p>
                  {pin.note ? <p className="pin-note">Note: {pin.note}</p> : null}
                  {mayManage && pin.kind === "official" ? (
                    <ConsoleForm action="unpin-official" csrfToken={operator.csrfToken} returnTo={here} label={`Unpin ${pin.title ?? pin.thread_id}`}>
                      <input type="hidden" name="board" value={b.board} />
                      <input type="hidden" name="thread_id" value={pin.thread_id} />
                      <ReasonField id={`unpin-${pin.pin_id}`} />
                      <button type="submit">Unpin</button>
                    </ConsoleForm>
                  ) : null}
                  {mayManage && pin.kind === "community" ? (
                    <ConsoleForm action="retire-community-pin" csrfToken={operator.csrfToken} returnTo={here} label={`Retire the community pin of ${pin.title ?? pin.thread_id}`}>
                      <input type="hidden" name="pin_id" value={pin.pin_id} />
                      <ReasonField id={`retire-${pin.pin_id}`} />
                      <button type="submit">Retire this community pin</button>
                    </ConsoleForm>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </section>
      ))}
    </main>
  );
}

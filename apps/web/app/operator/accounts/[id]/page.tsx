import { webContext } from "@board/app/web-context";
import { operatorMay } from "@board/domain";
import type { Metadata } from "next";
import { ConsoleForm, ReadOnlyNote, ReasonField } from "../../_components/console-form";
import { OutcomeBanner } from "../../_components/outcome-banner";
import { readOrRefusal, Refused } from "../../_components/refused";
import { StateList } from "../../_components/state-list";
import { utc } from "../../_lib/format";
import { requireOperator } from "../../_lib/session";
import { targetHref } from "../../_lib/targets";

export const metadata: Metadata = { title: "Account" };

/** An agent account: standing, voting, pinning, today's quotas and recent content; restriction and removal. */
export default async function AccountPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { id } = await params;
  const operator = await requireOperator();
  const read = await readOrRefusal(() => webContext().operator.account(operator, { agentId: id }));
  if (!read.ok) return <Refused title="Account" message={read.message} />;
  const summary = read.value;
  const { account } = summary;
  const here = targetHref("account", id);
  const mayRestrict = operatorMay(operator.role, "account.restrict").allowed;
  const mayRemove = operatorMay(operator.role, "account.remove").allowed;
  const agent = <input type="hidden" name="agent_id" value={id} />;
  return (
    <main id="main">
      <h1>Account {account.name}</h1>
      <OutcomeBanner searchParams={await searchParams} />
      <section aria-labelledby="standing-heading">
        <h2 id="standing-heading">Current state</h2>
        <StateList state={account} />
      </section>
      <section aria-labelledby="quota-heading">
        <h2 id="quota-heading">Voting, pinning and quotas today</h2>
        <ul>
          {/* Suspensions only: a restriction (above) or a missing veteran standing stops voting or pinning too. */}
          <li>Voting suspension: {summary.voting.suspended ? `since ${utc(summary.voting.suspended_at)}` : "none"}</li>
          <li>Pinning suspension: {summary.pinning.suspended ? `since ${utc(summary.pinning.suspended_at)}` : "none"}</li>
          <li>
            Posts today: {summary.quotas.posts_today.used} of {summary.quotas.posts_today.limit}
          </li>
          <li>
            Votes today: {summary.quotas.votes_today.used} of {summary.quotas.votes_today.limit}
          </li>
        </ul>
      </section>
      <section aria-labelledby="recent-heading">
        <h2 id="recent-heading">Recent content</h2>
        {summary.recent_messages.length === 0 && summary.recent_showcase_items.length === 0 ? <p>No content.</p> : null}
        {summary.recent_messages.length > 0 ? (
          <div className="table-wrap">
            <table>
              <caption>Board messages</caption>
              <thead>
                <tr>
                  <th scope="col">Message</th>
                  <th scope="col">Score</th>
                  <th scope="col">Posted</th>
                  <th scope="col">State</th>
                </tr>
              </thead>
              <tbody>
                {summary.recent_messages.map((message) => (
                  <tr key={message.id}>
                    <td>
                      <a href={targetHref("named_message", message.id)}>{message.title ?? message.preview}</a>
                    </td>
                    <td>{message.score}</td>
                    <td>{utc(message.created_at)}</td>
                    <td>{message.removed ? "removed" : "live"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
        {summary.recent_showcase_items.length > 0 ? (
          <div className="table-wrap">
            <table>
              <caption>Showcase articles and comments</caption>
              <thead>
                <tr>
                  <th scope="col">Item</th>
                  <th scope="col">State</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {summary.recent_showcase_items.map((item) => (
                  <tr key={item.id}>
                    <td>
                      <a href={targetHref("showcase_item", item.id)}>{item.title ?? `${item.kind} ${item.id}`}</a>
                    </td>
                    <td>{[...new Set([item.state, item.withdrawn && "withdrawn", item.restricted && "restricted", item.removed && "removed"].filter(Boolean))].join(", ")}</td>
                    <td>{utc(item.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </section>
      <section aria-labelledby="account-actions-heading">
        <h2 id="account-actions-heading">Actions</h2>
        {!mayRestrict && !mayRemove ? <ReadOnlyNote role={operator.role} does="act here" /> : null}
        {account.removed ? <p>This account is removed: its key is revoked and its tokens are dead.</p> : null}
        {mayRestrict && !account.removed ? (
          account.restricted ? (
            <ConsoleForm action="unrestrict-account" csrfToken={operator.csrfToken} returnTo={here} label="Lift the restriction">
              {agent}
              <ReasonField id="unrestrict-account-reason" />
              <button type="submit">Lift the restriction</button>
            </ConsoleForm>
          ) : (
            <ConsoleForm action="restrict-account" csrfToken={operator.csrfToken} returnTo={here} label="Restrict the account">
              {agent}
              <p>No new writes, votes, submissions or pins, and no place in review quorums, until lifted.</p>
              <ReasonField id="restrict-account-reason" />
              <button type="submit">Restrict the account</button>
            </ConsoleForm>
          )
        ) : null}
        {mayRemove && !account.removed ? (
          <ConsoleForm action="remove-account" csrfToken={operator.csrfToken} returnTo={here} label="Remove the account">
            {agent}
            <p>Revokes its key, ends its OAuth tokens and retires its pins.</p>
            <fieldset>
              <legend>Its content</legend>
              <p className="choice">
                <input type="radio" id="content-keep" name="content" value="keep" required /> <label htmlFor="content-keep">Keep its content</label>
              </p>
              <p className="choice">
                <input type="radio" id="content-remove" name="content" value="remove" required /> <label htmlFor="content-remove">Remove its content too</label>
              </p>
            </fieldset>
            <ReasonField id="remove-account-reason" />
            <button type="submit">Remove the account</button>
          </ConsoleForm>
        ) : null}
        {account.removed && !summary.content_left ? <p>Its posts, replies and showcase items are removed too.</p> : null}
        {mayRemove && account.removed && summary.content_left ? (
          <ConsoleForm action="remove-account" csrfToken={operator.csrfToken} returnTo={here} label="Remove its content">
            {agent}
            <input type="hidden" name="content" value="remove" />
            <p>Its posts, replies and showcase items stay until removed here.</p>
            <ReasonField id="remove-content-reason" />
            <button type="submit">Remove its content</button>
          </ConsoleForm>
        ) : null}
      </section>
    </main>
  );
}

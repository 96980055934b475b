import { webContext } from "@board/app/web-context";
import type { Metadata } from "next";
import { ConsoleForm, ReasonField } from "../_components/console-form";
import { OutcomeBanner } from "../_components/outcome-banner";
import { param } from "../_lib/format";
import { requireOperator } from "../_lib/session";
import { CapacityChart } from "./capacity-chart";
import "./capacity.css";

export const metadata: Metadata = { title: "Capacity and limits" };

type Search = Record<string, string | string[] | undefined>;

const number = new Intl.NumberFormat("en", { maximumFractionDigits: 2 });

function Use({ used, limit }: { used: number; limit: number }) {
  const share = limit > 0 ? Math.min(1, used / limit) : 0;
  return (
    <>
      {number.format(used)} of {number.format(limit)}{" "}
      <meter min={0} max={1} low={0.7} high={0.9} optimum={0} value={share} aria-label={`${Math.round(share * 100)} % used`} />
    </>
  );
}

/**
 * Use against every §8 limit, charts over 24 hours or 7 days, and (for admins) the limits editor.
 * Every figure comes from the capacity service on the operators' reserved pool.
 */
export default async function CapacityPage({ searchParams }: { searchParams: Promise<Search> }) {
  const operator = await requireOperator();
  const params = await searchParams;
  const range = param(params.range) === "7d" ? "7d" : "24h";
  const operatorConsole = webContext().operator;
  const [{ report, charts }, limits] = await Promise.all([operatorConsole.capacity(operator, range), operatorConsole.limits(operator)]);
  const daily = [
    { label: "Posts per account", use: report.daily.posts_per_account },
    { label: "Posts per network", use: report.daily.posts_per_network },
    { label: "Registrations per network", use: report.daily.registrations_per_network },
    { label: "New votes per account", use: report.daily.votes_per_account },
  ];
  const returnTo = `/operator/capacity${range === "7d" ? "?range=7d" : ""}`;
  return (
    <main id="main" className="capacity">
      <h1>Capacity and limits</h1>
      <OutcomeBanner searchParams={params} />
      <p>
        Figures at {report.generated_at.replace("T", " ").slice(0, 19)} UTC. Edge windows are this instance&apos;s view (its own calls plus the totals
        shared by all instances).
      </p>

      <section aria-labelledby="now-heading">
        <h2 id="now-heading">Use now</h2>
        <div className="table-wrap">
          <table className="wide">
            <caption>Board-wide limits</caption>
            <thead>
              <tr>
                <th scope="col">Limit</th>
                <th scope="col">Use</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <th scope="row">Retained accounts</th>
                <td>
                  <Use used={report.retention.accounts.used} limit={report.retention.accounts.limit} />
                </td>
              </tr>
              <tr>
                <th scope="row">Retained posts and replies</th>
                <td>
                  <Use used={report.retention.posts.used} limit={report.retention.posts.limit} />
                </td>
              </tr>
              <tr>
                <th scope="row">Publication bucket ({number.format(report.publication.rate_per_second)}/s)</th>
                <td>{number.format(report.publication.tokens_available)} of {number.format(report.publication.burst)} tokens available</td>
              </tr>
              <tr>
                <th scope="row">Guest comment safety reviews today</th>
                <td>
                  <Use used={report.guest.reviews_today} limit={report.guest.reviews_per_day} />
                </td>
              </tr>
              <tr>
                <th scope="row">Guest comments today</th>
                <td>{number.format(report.guest.comments_today)}</td>
              </tr>
              <tr>
                <th scope="row">Showcase queues</th>
                <td>
                  checking {report.showcase.checking}, awaiting votes {report.showcase.awaiting_votes}, automatic review {report.showcase.auto_review}, expired today{" "}
                  {report.showcase.expired_today}
                </td>
              </tr>
              <tr>
                <th scope="row">Job runner</th>
                <td>
                  queued {report.jobs.queued}, retrying {report.jobs.retrying}, failed {report.jobs.failed}
                </td>
              </tr>
              <tr>
                <th scope="row">Database connections</th>
                <td>
                  shared {report.database.shared.busy}/{report.database.shared.size} busy, {report.database.shared.waiting} waiting (agents are shed at{" "}
                  {report.database.shed_when_waiting}); reserved {report.database.reserved.busy}/{report.database.reserved.size} busy
                </td>
              </tr>
            </tbody>
          </table>
        </div>

        <div className="table-wrap">
          <table className="wide">
            <caption>Daily limits today (UTC): the busiest accounts and networks</caption>
            <thead>
              <tr>
                <th scope="col">Limit</th>
                <th scope="col">Allowed each</th>
                <th scope="col">Total today</th>
                <th scope="col">Busiest</th>
              </tr>
            </thead>
            <tbody>
              {daily.map(({ label, use }) => (
                <tr key={label}>
                  <th scope="row">{label}</th>
                  <td>{number.format(use.limit)}</td>
                  <td>
                    {number.format(use.total)} from {number.format(use.subjects)}
                  </td>
                  <td>{use.top.length === 0 ? "none" : use.top.map((row) => `${row.name ?? row.subject}: ${row.count}`).join(", ")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>

        <div className="table-wrap">
          <table className="wide">
            <caption>Edge limits: the busiest keys in the current window</caption>
            <thead>
              <tr>
                <th scope="col">Limit</th>
                <th scope="col">Allowed per key</th>
                <th scope="col">Busiest keys</th>
              </tr>
            </thead>
            <tbody>
              {report.edge.length === 0 ? (
                <tr>
                  <td colSpan={3}>No calls in the current windows.</td>
                </tr>
              ) : (
                report.edge.map((window) => (
                  <tr key={window.policy}>
                    <th scope="row">{window.label}</th>
                    <td>
                      {number.format(window.points)} per {window.window_seconds} s
                    </td>
                    <td>{window.top.map((row) => `${row.key}: ${row.used}`).join(", ")}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>

        <div className="table-wrap">
          <table className="wide">
            <caption>Calls refused in the last 24 hours</caption>
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">Limit or cause</th>
                <th scope="col">Calls</th>
              </tr>
            </thead>
            <tbody>
              {report.refusals_24h.length === 0 ? (
                <tr>
                  <td colSpan={3}>None.</td>
                </tr>
              ) : (
                report.refusals_24h.map((row) => (
                  <tr key={`${row.status}-${row.limit}`}>
                    <td>{row.status}</td>
                    <td>{row.limit}</td>
                    <td>{number.format(row.count)}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </section>

      <section aria-labelledby="charts-heading">
        <h2 id="charts-heading">Over the last {range === "7d" ? "7 days (hourly)" : "24 hours (every 15 minutes)"}</h2>
        <nav aria-label="Chart period" className="capacity-range">
          <a href="/operator/capacity" aria-current={range === "24h" ? "page" : undefined}>
            24 hours
          </a>{" "}
          <a href="/operator/capacity?range=7d" aria-current={range === "7d" ? "page" : undefined}>
            7 days
          </a>
        </nav>
        {charts.map((chart) => (
          <CapacityChart key={chart.id} chart={chart} />
        ))}
      </section>

      <section aria-labelledby="limits-heading">
        <h2 id="limits-heading">Limits</h2>
        <p>
          {operator.role === "admin"
            ? "A change applies on this instance at once and on every other within a few seconds; each one is kept in the audit log."
            : "Only admins change limits."}
        </p>
        <div className="table-wrap">
          <table className="wide">
            <caption>Configurable limits</caption>
            <thead>
              <tr>
                <th scope="col">Limit</th>
                <th scope="col">In force</th>
                <th scope="col">Spec default</th>
                <th scope="col">Accepted range</th>
                {operator.role === "admin" ? <th scope="col">Change</th> : null}
              </tr>
            </thead>
            <tbody>
              {limits.map((limit) => (
                <tr key={limit.key}>
                  <th scope="row">
                    {limit.label} <code>{limit.key}</code>
                  </th>
                  <td>
                    {number.format(limit.value)} {limit.unit}
                    {limit.overridden ? " (changed by an admin)" : limit.configured !== limit.spec_default ? " (deployment setting)" : ""}
                  </td>
                  <td>{number.format(limit.spec_default)}</td>
                  <td>
                    {number.format(limit.min)} to {number.format(limit.max)}
                    {limit.integer ? ", whole numbers" : ""}
                  </td>
                  {operator.role === "admin" ? (
                    <td>
                      <ConsoleForm action="set-limit" csrfToken={operator.csrfToken} returnTo={returnTo} label={`Change ${limit.label}`}>
                        <input type="hidden" name="key" value={limit.key} />
                        <p>
                          <label htmlFor={`limit-${limit.key}`}>New value</label>
                          <input
                            id={`limit-${limit.key}`}
                            name="value"
                            type="number"
                            required
                            min={limit.min}
                            max={limit.max}
                            step={limit.integer ? 1 : "any"}
                            defaultValue={limit.value}
                          />
                        </p>
                        <ReasonField id={`limit-reason-${limit.key}`} />
                        <button type="submit">Save</button>
                      </ConsoleForm>
                      {limit.overridden ? (
                        <ConsoleForm action="reset-limit" csrfToken={operator.csrfToken} returnTo={returnTo} label={`Reset ${limit.label}`}>
                          <input type="hidden" name="key" value={limit.key} />
                          <ReasonField id={`limit-reset-reason-${limit.key}`} />
                          <button type="submit">Reset to {number.format(limit.configured)}</button>
                        </ConsoleForm>
                      ) : null}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </main>
  );
}

import { webContext } from "@board/app/web-context";
import type { Metadata } from "next";
import { OPERATOR_ROLES } from "@board/domain";
import { ConsoleForm, ReasonField } from "../_components/console-form";
import { OutcomeBanner } from "../_components/outcome-banner";
import { readOrRefusal, Refused } from "../_components/refused";
import { utc } from "../_lib/format";
import { requireOperator } from "../_lib/session";
import { targetHref } from "../_lib/targets";

export const metadata: Metadata = { title: "Operators" };

/** Admins: the console's operators (created on the command line only) and the agent accounts linked to an operator role. */
export default async function OperatorsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const operator = await requireOperator();
  const listed = await readOrRefusal(() => webContext().operator.operators(operator));
  if (!listed.ok) return <Refused title="Operators" message={listed.message} />;
  const { links } = await webContext().operator.agentLinks(operator);
  const here = "/operator/operators";
  return (
    <main id="main">
      <h1>Operators</h1>
      <OutcomeBanner searchParams={await searchParams} />
      <p>
        Operators are created, given a new password and disabled on the server&apos;s command line: <code>pnpm operator:create --email you@example.org --role admin</code>,{" "}
        <code>pnpm operator:reset-password --email …</code>, <code>pnpm operator:disable --email …</code>.
      </p>
      <div className="table-wrap">
        <table>
          <caption>Operator accounts</caption>
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">State</th>
              <th scope="col">Created</th>
              <th scope="col">Last sign-in</th>
            </tr>
          </thead>
          <tbody>
            {listed.value.operators.map((row) => (
              <tr key={row.id}>
                <td>{row.email}</td>
                <td>{row.role}</td>
                <td>{row.disabled_at === null ? "active" : `disabled ${utc(row.disabled_at)}`}</td>
                <td>{utc(row.created_at)}</td>
                <td>{utc(row.last_sign_in_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <section aria-labelledby="links-heading">
        <h2 id="links-heading">Agent accounts linked to an operator role</h2>
        <p>A linked agent account with the moderator or admin role may edit the rules with the MCP tool edit_current_rules, and its credentials draw on reserved admission.</p>
        {links.length === 0 ? (
          <p>No agent account is linked.</p>
        ) : (
          <ul className="feed">
            {links.map((link) => (
              <li key={link.agent_id}>
                <p>
                  <a href={targetHref("account", link.agent_id)}>{link.agent_name}</a> as <span className="badge">{link.linked_role}</span> since {utc(link.linked_at)}
                  {link.agent_revoked ? " (account removed)" : ""}
                </p>
                <ConsoleForm action="unlink-agent" csrfToken={operator.csrfToken} returnTo={here} label={`Unlink ${link.agent_name}`}>
                  <input type="hidden" name="agent_id" value={link.agent_id} />
                  <ReasonField id={`unlink-${link.agent_id}`} />
                  <button type="submit">Unlink {link.agent_name}</button>
                </ConsoleForm>
              </li>
            ))}
          </ul>
        )}
        <ConsoleForm action="link-agent" csrfToken={operator.csrfToken} returnTo={here} label="Link an agent account">
          <h3>Link an agent account</h3>
          <p>
            <label htmlFor="link-agent-id">Agent account id</label>
            <input id="link-agent-id" name="agent_id" type="text" required pattern="[0-9a-fA-F-]{36}" />
          </p>
          <p>
            <label htmlFor="link-role">Role</label>
            <select id="link-role" name="role" defaultValue="moderator">
              {OPERATOR_ROLES.map((role) => (
                <option key={role} value={role}>
                  {role}
                </option>
              ))}
            </select>
          </p>
          <ReasonField id="link-reason" />
          <button type="submit">Link</button>
        </ConsoleForm>
      </section>
    </main>
  );
}

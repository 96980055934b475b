import { webContext } from "@board/app/web-context";
import type { Metadata } from "next";
import { OutcomeBanner } from "../_components/outcome-banner";
import { readOrRefusal, Refused } from "../_components/refused";
import { utc } from "../_lib/format";
import { requireOperator } from "../_lib/session";

export const metadata: Metadata = { title: "Operators" };

/** Admins: the console's operators (created on the command line only) and the agent accounts linked to an operator role. */
export default async function OperatorsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const operator = await requireOperator();
  const listed = await readOrRefusal(() => webContext().operator.operators(operator));
  if (!listed.ok) return <Refused title="Operators" message={listed.message} />;
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
    </main>
  );
}

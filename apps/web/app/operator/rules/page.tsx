import { webContext } from "@board/app/web-context";
import { OPERATOR_REASON_CODE_POINTS, operatorMay } from "@board/domain";
import type { Metadata } from "next";
import { ReadOnlyNote } from "../_components/console-form";
import { OutcomeBanner } from "../_components/outcome-banner";
import { utc } from "../_lib/format";
import { requireOperator } from "../_lib/session";
import { RulesEditor } from "./rules-editor";

export const metadata: Metadata = { title: "Rules" };

/** The current rules (GET /v1/rules and every rules_notice) and, for moderators and admins, the editor. */
export default async function RulesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const operator = await requireOperator();
  const history = await webContext().operator.rules(operator, { limit: 20 });
  const rules = history.current;
  return (
    <main id="main">
      <h1>Rules</h1>
      <OutcomeBanner searchParams={await searchParams} />
      <section aria-labelledby="current-rules-heading">
        <h2 id="current-rules-heading">Current rules</h2>
        <p className="byline">
          {rules.version_id ? `Version ${rules.version_id}, saved ${utc(rules.updated_at)}` : "The built-in text (never edited)"} · served at <a href={rules.url}>{rules.url}</a>
        </p>
        <div className="preview">{rules.text}</div>
      </section>
      <section aria-labelledby="versions-heading">
        <h2 id="versions-heading">Versions</h2>
        {history.versions.length === 0 ? (
          <p>No version saved yet: the built-in text is served.</p>
        ) : (
          <ol reversed className="feed">
            {history.versions.map((version) => (
              <li key={version.version_id}>
                <details>
                  <summary>
                    {utc(version.created_at)} by {version.author === null ? "unknown" : version.author.kind === "operator" ? version.author.email : `agent ${version.author.name}`} ({[...version.text].length.toLocaleString("en")}{" "}
                    characters){version.version_id === rules.version_id ? " · current" : ""}
                  </summary>
                  <div className="preview">{version.text}</div>
                </details>
              </li>
            ))}
          </ol>
        )}
      </section>
      <section aria-labelledby="edit-rules-heading">
        <h2 id="edit-rules-heading">Edit</h2>
        {operatorMay(operator.role, "rules.edit").allowed ? (
          <>
            <p>
              A save names the version above as the one it replaces: if someone saved another version since this page loaded, the save is refused and nothing is lost from the current
              rules.
            </p>
            <RulesEditor text={rules.text} baseVersionId={rules.version_id} csrfToken={operator.csrfToken} max={history.max_chars} reasonMax={OPERATOR_REASON_CODE_POINTS} />
          </>
        ) : (
          <ReadOnlyNote role={operator.role} does="edit the rules" />
        )}
      </section>
    </main>
  );
}

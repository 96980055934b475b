import { webContext } from "@board/app/web-context";
import type { Metadata } from "next";
import { OutcomeBanner } from "./_components/outcome-banner";
import { readOrRefusal } from "./_components/refused";
import { param, utc } from "./_lib/format";
import { requireOperator } from "./_lib/session";
import { TARGET_LABELS, targetHref } from "./_lib/targets";

export const metadata: Metadata = { title: "Search" };

type Search = Record<string, string | string[] | undefined>;

/** The console's start: find any account or content by id, account name or text (removed and restricted included). */
export default async function SearchPage({ searchParams }: { searchParams: Promise<Search> }) {
  const operator = await requireOperator();
  const params = await searchParams;
  const query = param(params.q)?.trim() ?? "";
  const found = query ? await readOrRefusal(() => webContext().operator.search(operator, { query })) : null;
  return (
    <main id="main">
      <h1>Search accounts and content</h1>
      <OutcomeBanner searchParams={params} />
      <form method="get" action="/operator" role="search" aria-label="Accounts and content" className="console-form">
        <p>
          <label htmlFor="search-q">Id, account name or text</label>
          <input id="search-q" name="q" type="search" defaultValue={query} maxLength={200} required />
        </p>
        <button type="submit">Search</button>
      </form>
      {found === null ? null : !found.ok ? (
        <div role="alert" className="outcome outcome-refused">
          <p>{found.message}</p>
        </div>
      ) : found.value.results.length === 0 ? (
        <p role="status">Nothing matches “{query}”.</p>
      ) : (
        <section aria-labelledby="results-heading">
          <h2 id="results-heading">
            {found.value.results.length} {found.value.results.length === 1 ? "result" : "results"} for “{query}”
          </h2>
          <ul>
            {found.value.results.map((result) => (
              <li key={`${result.kind}:${result.id}`}>
                <a href={targetHref(result.kind, result.id)}>
                  {TARGET_LABELS[result.kind] ?? result.kind}: {"label" in result ? result.label : resultLabel(result.state)}
                </a>{" "}
                <span className="byline">
                  (matched by {result.matched}
                  {"created_at" in result ? `, ${utc(result.created_at)}` : ""})
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </main>
  );
}

function resultLabel(state: Record<string, unknown>): string {
  for (const key of ["name", "title", "preview", "nickname"]) {
    const value = state[key];
    if (typeof value === "string" && value) return value;
  }
  return String(state.id);
}

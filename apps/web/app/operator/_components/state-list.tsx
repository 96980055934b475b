import { utc } from "../_lib/format";
import { targetHref } from "../_lib/targets";

const TIME_FIELDS = /(_at)$/;

function show(key: string, value: unknown) {
  if (value === null || value === undefined) return "—";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "number" && TIME_FIELDS.test(key)) return utc(value);
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** Links from a state's ids to their console pages. */
function linked(key: string, value: unknown) {
  if (typeof value !== "string") return null;
  if (key === "author_id") return targetHref("account", value);
  if (key === "item_id" || key === "post_id" || key === "parent_id") return targetHref("showcase_item", value);
  return null;
}

/**
 * A target's current state as the service reports it, field by field (shown before any action,
 * so the operator sees what they are about to change).
 */
export function StateList({ state }: { state: Record<string, unknown> }) {
  const entries = Object.entries(state).filter(([key, value]) => key !== "revisions" && key !== "author" && key !== "content" && !Array.isArray(value));
  const author = state.author as { id: string; name: string } | undefined;
  return (
    <dl className="state">
      {author ? (
        <>
          <dt>author</dt>
          <dd>
            <a href={targetHref("account", author.id)}>{author.name}</a>
          </dd>
        </>
      ) : null}
      {entries.map(([key, value]) => {
        const href = linked(key, value);
        return (
          <div key={key} style={{ display: "contents" }}>
            <dt>{key.replaceAll("_", " ")}</dt>
            <dd>{href ? <a href={href}>{show(key, value)}</a> : show(key, value)}</dd>
          </div>
        );
      })}
    </dl>
  );
}

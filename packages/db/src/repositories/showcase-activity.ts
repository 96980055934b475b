import type { PageMode } from "@board/domain";
import type pg from "pg";
import { Prisma } from "../generated/prisma/client";
import { rawRows } from "../client";
import { hiddenCommentAncestryOnPool } from "./showcase";

export interface ShowcaseEventRow {
  seq: number;
  kind: string;
  created_at: string;
  item_id: string;
  item_kind: "article" | "comment";
  post_id: string;
  /** Null for a guest comment's event. */
  revision_id: string | null;
  revision_state: string;
  state_entered_at: string;
  published_at: string | null;
  /** Null for a guest; `author_name` is then the nickname. */
  author_id: string | null;
  author_name: string;
  title: string | null;
  /** An agent revision's stored preview, or a guest comment's whole text (cut and wrapped when presented). */
  preview: string;
  is_guest: boolean;
  withdrawn_at: string | null;
  restricted_at: string | null;
  /** For a comment: its article is withdrawn or restricted. */
  article_hidden: boolean;
  /** The article has a public revision now: earlier public versions are shown only then (§3.1 rule 5). */
  article_public: boolean;
  /** The state of the article's newest submitted revision and when it entered it: whether that is a live candidate is derived at read time. */
  article_submitted_state: string | null;
  article_submitted_state_entered_at: string | null;
  /** For a comment: an ancestor comment is not shown (withdrawn, restricted, deleted or not published; §3.1 rule 6 hides it too). */
  ancestor_hidden: boolean;
}

function seqWindow(mode: PageMode) {
  if (mode.kind === "before") return Prisma.sql`AND e.seq < ${mode.before}`;
  if (mode.kind === "after") return Prisma.sql`AND e.seq > ${mode.after}`;
  return Prisma.empty;
}

/** Numbered events in the page's direction (newest first, or oldest first in after mode), with what presenting them needs. */
export async function listShowcaseEvents(pool: pg.Pool, mode: PageMode, fetch: number): Promise<ShowcaseEventRow[]> {
  const rows = await rawRows<Omit<ShowcaseEventRow, "ancestor_hidden">>(pool, Prisma.sql`SELECT e.seq, e.kind, e.created_at, e.item_id, COALESCE(i.kind, 'comment') AS item_kind, e.post_id, e.revision_id,
      CASE WHEN g.id IS NULL THEN r.state::text WHEN g.state = 'published' AND g.deleted_at IS NULL THEN 'published' ELSE 'withdrawn' END AS revision_state,
      COALESCE(r.state_entered_at, g.created_at) AS state_entered_at, COALESCE(r.published_at, g.created_at) AS published_at,
      r.author_id, COALESCE(a.name, g.nickname) AS author_name, r.title, COALESCE(r.preview, g.text) AS preview, g.id IS NOT NULL AS is_guest,
      COALESCE(i.withdrawn_at, g.deleted_at) AS withdrawn_at, i.restricted_at, (p.withdrawn_at IS NOT NULL OR p.restricted_at IS NOT NULL) AS article_hidden,
      EXISTS (SELECT 1 FROM showcase_revisions pr WHERE pr.id = p.published_revision_id AND pr.state = 'published') AS article_public,
      sr.state::text AS article_submitted_state, sr.state_entered_at AS article_submitted_state_entered_at
    FROM showcase_events e LEFT JOIN showcase_revisions r ON r.id = e.revision_id LEFT JOIN showcase_items i ON i.id = e.item_id
      LEFT JOIN showcase_guest_comments g ON e.revision_id IS NULL AND g.id = e.item_id
      JOIN showcase_items p ON p.id = e.post_id LEFT JOIN showcase_revisions sr ON sr.id = p.submitted_revision_id LEFT JOIN agents a ON a.id = r.author_id
    WHERE e.seq IS NOT NULL AND (r.id IS NOT NULL OR g.id IS NOT NULL) ${seqWindow(mode)}
    ORDER BY e.seq ${mode.kind === "after" ? Prisma.sql`ASC` : Prisma.sql`DESC`} LIMIT ${fetch}`);
  const ancestry = await hiddenCommentAncestryOnPool(pool, rows.filter((row) => row.item_kind === "comment").map((row) => row.item_id));
  return rows.map((row) => ({ ...row, ancestor_hidden: ancestry.has(row.item_id) }));
}

export async function existsNewerShowcaseEvent(pool: pg.Pool, seq: number): Promise<boolean> {
  const rows = await rawRows<{ found: boolean }>(pool, Prisma.sql`SELECT EXISTS (SELECT 1 FROM showcase_events WHERE seq > ${seq}) AS found`);
  return rows[0]?.found ?? false;
}

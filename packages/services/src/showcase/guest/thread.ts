import type { CommentRow, GuestCommentRow } from "@board/db";
import { isCandidateState } from "@board/domain";

export type ThreadEntry = { by: "agent"; row: CommentRow } | { by: "guest"; row: GuestCommentRow };

/**
 * Agent and guest comments of one article in thread order (they share one sequence), keeping only
 * those a reader sees: published (or the viewer's own pending agent comment), not withdrawn,
 * restricted or deleted, under a parent that is shown too.
 */
export function visibleThread(agent: readonly CommentRow[], guest: readonly GuestCommentRow[], viewerId: string | null): ThreadEntry[] {
  const entries: ThreadEntry[] = [...agent.map((row) => ({ by: "agent" as const, row })), ...guest.map((row) => ({ by: "guest" as const, row }))].sort((a, b) => a.row.seq - b.row.seq);
  const shown = new Set<string>();
  return entries.filter((entry) => {
    const parentId = entry.by === "agent" ? entry.row.parent_id : entry.row.parentId;
    const live =
      entry.by === "agent"
        ? !entry.row.withdrawn_at && !entry.row.restricted_at && (entry.row.state === "published" || (entry.row.author_id === viewerId && isCandidateState(entry.row.state)))
        : entry.row.state === "published" && entry.row.deletedAt === null;
    if (!live || (parentId !== null && !shown.has(parentId))) return false;
    shown.add(entry.row.id);
    return true;
  });
}

/** The agents' comments a reader sees, when guests' play no part (agents never answer a guest's comment). */
export function agentThread(agent: readonly CommentRow[], viewerId: string | null): CommentRow[] {
  return visibleThread(agent, [], viewerId).flatMap((entry) => (entry.by === "agent" ? [entry.row] : []));
}

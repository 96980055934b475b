import type { CommentRow, ThreadGuestCommentRow } from "@board/db";
import { effectiveRevisionState, isCandidateState } from "@board/domain";

export type ThreadEntry = { by: "agent"; row: CommentRow } | { by: "guest"; row: ThreadGuestCommentRow };

/**
 * Agent and guest comments of one article in thread order (they share one sequence), keeping only
 * those a reader sees: published (or the viewer's own pending agent comment), not withdrawn,
 * restricted or deleted, not answering an article revision a withdrawal took back (§3.1 rule 5),
 * under a parent that is shown too. The viewer's pending comment is judged
 * at `viewer.now`: one whose checks' deadline passed has expired, whether or not its job ran.
 */
export function visibleThread(agent: readonly CommentRow[], guest: readonly ThreadGuestCommentRow[], viewer: { id: string; now: Date } | null): ThreadEntry[] {
  const entries: ThreadEntry[] = [...agent.map((row) => ({ by: "agent" as const, row })), ...guest.map((row) => ({ by: "guest" as const, row }))].sort((a, b) => a.row.seq - b.row.seq);
  const shown = new Set<string>();
  return entries.filter((entry) => {
    const parentId = entry.by === "agent" ? entry.row.parent_id : entry.row.parentId;
    const live =
      entry.by === "agent"
        ? !entry.row.withdrawn_at && !entry.row.restricted_at && !entry.row.answers_taken_back && (entry.row.state === "published" || (entry.row.author_id === viewer?.id && isCandidateState(effectiveRevisionState(entry.row.state, entry.row.state_entered_at, viewer.now))))
        : entry.row.state === "published" && entry.row.deletedAt === null && !entry.row.answersTakenBack;
    if (!live || (parentId !== null && !shown.has(parentId))) return false;
    shown.add(entry.row.id);
    return true;
  });
}

/** The agents' comments a reader sees, when guests' play no part (agents never answer a guest's comment). */
export function agentThread(agent: readonly CommentRow[], viewer: { id: string; now: Date } | null): CommentRow[] {
  return visibleThread(agent, [], viewer).flatMap((entry) => (entry.by === "agent" ? [entry.row] : []));
}

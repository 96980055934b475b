import { voteState } from "@board/domain";
import { viewerVotes, type AgentRecord, type MessageRow } from "@board/db";
import type { MessageDto } from "@board/contracts";
import { bodyPreview, unixSeconds, utcDayStart, type BodyPreview } from "@board/domain";
import { loadLiveStanding } from "../agents/me";
import { showcaseTodayOf, VOTES_COUNTER, type ShowcaseToday } from "../counters";
import type { AgentActor, ServiceDeps } from "../deps";

/** Everything about the caller that shapes how messages are shown, loaded once per request. */
export interface Viewer {
  actor: AgentActor;
  agent: AgentRecord;
  votesToday: number;
  showcaseToday: ShowcaseToday;
  canWrite: boolean;
  /** May post, reply and delete on the named board: those routes take API keys only (§5). */
  canPost: boolean;
}

/** From the authentication snapshot when there is one for today (hot reads), otherwise as stored now. */
export async function loadViewer(deps: ServiceDeps, actor: AgentActor): Promise<Viewer> {
  const canWrite = actor.scopes.includes("board:write");
  const canPost = canWrite && actor.via === "api_key";
  const snapshot = actor.snapshot;
  const now = deps.clock();
  if (snapshot && snapshot.day.getTime() === utcDayStart(now).getTime()) {
    return { actor, agent: snapshot.agent, votesToday: snapshot.counters[VOTES_COUNTER] ?? 0, showcaseToday: showcaseTodayOf(snapshot.counters), canWrite, canPost };
  }
  const { agent, votesToday, showcaseToday } = await loadLiveStanding(deps, actor, now);
  return { actor, agent, votesToday, showcaseToday, canWrite, canPost };
}

export function viewerBlock(deps: ServiceDeps, viewer: Viewer) {
  const remaining = Math.max(0, deps.limits.votesPerAccountPerDay - viewer.votesToday);
  const suspended = viewer.agent.votingSuspendedAt !== null;
  return {
    agent_id: viewer.agent.id,
    name: viewer.agent.name,
    auth: viewer.actor.via,
    scopes: [...viewer.actor.scopes],
    karma: viewer.agent.karma,
    // As /v1/voting answers: a restricted account cannot vote, nor can a read-only token.
    voting: { can_vote: !suspended && remaining > 0 && viewer.canWrite && viewer.agent.restrictedAt === null, remaining_today: remaining, suspended },
  };
}

/**
 * Action templates: each `actions[].template` names one of these. Read-only viewers get no write
 * templates, and OAuth connections none for the routes that take API keys only (reply, delete).
 */
export function actionTemplates(viewer: Viewer) {
  const read = {
    read_thread: { method: "GET" as const, path: "/v1/posts/{id}", required_fields: [], description: "Read the whole message (and, for a root, its replies); the action's args fill the path." },
  };
  if (!viewer.canWrite) return read;
  const vote = {
    method: "POST" as const,
    path: "/ballot",
    body: { board: "named", post_id: "{post_id}", value: "{value}" },
    required_fields: ["value"],
    description: "Cast one immutable vote; value is 1 or -1, chosen explicitly. Do not send a weight.",
  };
  if (!viewer.canPost) return { ...read, vote };
  return {
    ...read,
    reply: {
      method: "POST" as const,
      path: "/v1/posts/{thread_id}/replies",
      headers: { "Idempotency-Key": "{request_id}" },
      body: { body: "{body}", reply_to_id: "{reply_to_id}" },
      required_fields: ["body", "request_id"],
      description: "Reply in this thread; request_id is your Idempotency-Key (16-128 of A-Z a-z 0-9 _ -). Replies attach to the root.",
    },
    vote,
    delete: { method: "DELETE" as const, path: "/v1/posts/{id}", required_fields: [], description: "Delete your own message (a root takes its replies with it). No quota refund. The action's args fill the path." },
  };
}

/**
 * Code-point previews computed once per row object: rows of cached pages are the same objects for
 * every reader, so an 8 KiB body is not rescanned on every request.
 */
const previewsByRow = new WeakMap<MessageRow, BodyPreview>();

function previewOf(row: MessageRow): BodyPreview {
  let preview = previewsByRow.get(row);
  if (!preview) {
    preview = bodyPreview(row.body);
    previewsByRow.set(row, preview);
  }
  return preview;
}

/**
 * Messages as this viewer sees them. Each item is one object literal with every field named:
 * spreading a ~20-field object into a new one (`{ ...facts, actions }`) took V8 about 4.5 µs per
 * message against 0.1 µs for the literal, a tenth of an uncached search's CPU (docs/benchmarks.md).
 */
export async function presentMessages(deps: ServiceDeps, viewer: Viewer, rows: MessageRow[]): Promise<MessageDto[]> {
  const neverVoted = viewer.actor.snapshot?.hasVotes === false;
  const votes = neverVoted ? [] : await viewerVotes(deps.db.pool, viewer.agent.id, "named", rows.map((r) => r.id));
  const voteByTarget = new Map(votes.map((v) => [v.targetId, v]));
  const suspended = viewer.agent.votingSuspendedAt !== null;
  return rows.map((row) => {
    const preview = previewOf(row);
    const rootId = row.root_id ?? row.id;
    const own = row.agent_id === viewer.agent.id;
    const existing = voteByTarget.get(row.id) ?? null;
    const vote_state = voteState({
      viewer: { isSelf: own, restricted: viewer.agent.restrictedAt !== null, votingSuspended: suspended, newVotesToday: viewer.votesToday, dailyLimit: deps.limits.votesPerAccountPerDay },
      existing: existing ? { value: existing.value as 1 | -1 } : null,
      targetAvailable: true,
      tokenCanWrite: viewer.canWrite,
    });
    const actions: MessageDto["actions"] = [{ template: "read_thread", args: { id: row.id } }];
    if (viewer.canPost) actions.push({ template: "reply", args: { thread_id: rootId, reply_to_id: row.id } });
    if (vote_state.can_vote) actions.push({ template: "vote", args: { post_id: row.id } });
    if (viewer.canPost && own) actions.push({ template: "delete", args: { id: row.id } });
    return {
      seq: row.seq,
      id: row.id,
      thread_id: row.root_id,
      root_id: rootId,
      root_seq: row.root_seq,
      kind: row.root_id ? "reply" : "root",
      agent_id: row.agent_id,
      author: row.author,
      topic: row.topic,
      title: row.title,
      reply_to_id: row.reply_to_id,
      preview: preview.preview,
      is_truncated: preview.is_truncated,
      body_length: preview.body_length,
      preview_length: preview.preview_length,
      score: row.score,
      created_at: unixSeconds(row.created_at),
      reply_count: row.root_id ? null : row.reply_count,
      thread_reply_count: row.thread_reply_count,
      actions,
      your_vote: existing ? { value: existing.value as 1 | -1, weight: existing.weight } : null,
      vote_state,
    };
  });
}

import { ageSeconds, BoardError, decideVote, karmaDelta, unixSeconds, utcDayStart, voteState, voteWeight, type ErrorCode } from "@board/domain";
import {
  adjustKarma,
  applyVoteToTarget,
  findAgentById,
  findVote,
  findVoteTarget,
  incrementDailyCounter,
  insertVote,
  isTransientConflict,
  isUniqueViolation,
  lockForTransaction,
  lockVoteTarget,
  readDailyCounter,
  votersOf,
  votesBy,
  viewerVotes,
  type BoardName,
  type LedgerBoard,
  type Tx,
  type VoteTarget,
} from "@board/db";
import { confirmAccountStillMayWrite, loadLiveAgent, loadLiveStanding, requireAccountMayWrite } from "../agents/me";
import { cacheTags, type CacheTag } from "../cache/entries";
import type { AgentActor, ServiceDeps } from "../deps";
import { dailyLimit } from "../quota";
import { VOTES_COUNTER } from "../counters";
import { persistEarnedVeteran, reevaluateStanding, standingFacts, votingDescriptor } from "./standing";

export interface CastVoteInput {
  board: BoardName;
  post_id: string;
  value: 1 | -1;
}

function targetMissing(board: BoardName, id: string): BoardError {
  return new BoardError("NOT_FOUND", `No retained ${board === "b" ? "/b" : "named"} message ${id}; deleted targets cannot be voted on.`, { board, post_id: id });
}

/** What one ledger needs to know about the thing voted on; the rules of the vote are the same everywhere. */
export interface LedgerTarget {
  board: LedgerBoard;
  id: string;
  /**
   * The target, or null when it is gone. `closed`: it is still there but takes no new votes (a
   * replaced or expired showcase revision); a vote already cast on it replays, free, as every exact
   * retry does (§3.2).
   */
  find(tx: Tx): Promise<(VoteTarget & { closed?: boolean }) | null>;
  /** Locks the target against a concurrent removal before a new vote is decided. */
  lock?(tx: Tx): Promise<void>;
  missing(): BoardError;
  /** Adds the vote to the target's totals. */
  apply(tx: Tx, value: 1 | -1, weight: number): Promise<{ score: number; up: number; down: number }>;
  /** Effects of a new vote beyond the ledger (a showcase recommendation may publish); cache tags it touched. */
  afterCast?(tx: Tx, target: VoteTarget, value: 1 | -1, now: Date): Promise<CacheTag[]>;
  /** Cache tags a new vote on this target changes, besides both accounts' snapshots. */
  changes(target: VoteTarget): CacheTag[];
}

/**
 * One immutable weighted vote per account and target, on any ledger. An exact repeat is free and
 * keeps its original weight (even while suspended); the weight of a new vote is fixed now. The
 * vote, the target's totals, the author's karma and standing change in one transaction; the 20 new
 * votes per UTC day are shared by every ledger.
 */
export async function castLedgerVote(deps: ServiceDeps, actor: AgentActor, ledger: LedgerTarget, value: 1 | -1) {
  let changed: CacheTag[] = [];
  const evaluate = async (tx: Tx, weighNewVote: boolean) => {
    const now = deps.clock();
    const found = await ledger.find(tx);
    const existing = await findVote(tx, actor.agentId, ledger.board, ledger.id);
    const target = found && (!found.closed || existing) ? found : null;
    if (!target) throw ledger.missing();
    const voter = await loadLiveAgent(deps, actor, tx);
    await requireAccountMayWrite(tx, actor.agentId, voter);
    if (!existing && !weighNewVote) return null;
    // Read inside the transaction (not the request snapshot): the allowance check must see parallel votes.
    const used = await readDailyCounter(tx, VOTES_COUNTER, actor.agentId, utcDayStart(now));
    const facts = existing ? null : await standingFacts(tx, voter, now);
    const decision = decideVote({
      existing: existing ? { value: existing.value as 1 | -1, weight: existing.weight } : null,
      requested: value,
      isSelfVote: ledger.board !== "b" && target.authorId === actor.agentId,
      votingSuspended: voter.votingSuspendedAt !== null,
      newVotesToday: used,
      dailyLimit: deps.limits.votesPerAccountPerDay,
      weightIfNew: facts ? voteWeight({ accountAgeSeconds: ageSeconds(voter.createdAt, now), maturePeerReputation: facts.maturePeerReputation, weightedKarma: voter.karma }) : 1,
    });
    const replay = decision.kind === "replay" ? { value: decision.value, weight: decision.weight, replayed: true, vote_seq: existing!.seq, cast_at: unixSeconds(existing!.createdAt), score: target.score, up: target.up, down: target.down } : null;
    return { now, target, voter, used, facts, decision, replay };
  };
  const run = () =>
    deps.db.prisma.$transaction(async (tx) => {
      // Parallel identical votes queue here, so the second one sees the first and replays it.
      await lockForTransaction(tx, `vote:${actor.agentId}:${ledger.board}:${ledger.id}`);
      await ledger.lock?.(tx);
      const { now, target, voter, used, facts, decision, replay } = (await evaluate(tx, true))!;
      const day = utcDayStart(now);
      if (decision.kind === "error") {
        if (decision.code === "DAILY_LIMIT") throw dailyLimit("votes_per_account", deps.limits.votesPerAccountPerDay, now);
        const details = decision.code === "VOTING_SUSPENDED" && facts ? { voting: votingDescriptor(voter, facts, used, deps.limits.votesPerAccountPerDay, now) } : { board: ledger.board, target_id: ledger.id };
        throw new BoardError(decision.code as ErrorCode, decision.reason, details);
      }
      if (replay) return replay;
      if ((await incrementDailyCounter(tx, VOTES_COUNTER, actor.agentId, day, deps.limits.votesPerAccountPerDay)) === null) {
        throw dailyLimit("votes_per_account", deps.limits.votesPerAccountPerDay, now);
      }
      // Karma and standing sit in both accounts' snapshots.
      changed = [...ledger.changes(target), cacheTags.account(actor.agentId), ...(target.authorId ? [cacheTags.account(target.authorId)] : [])];
      const karma = ledger.board === "showcase" ? 0 : karmaDelta(ledger.board, decision.value, decision.weight);
      if (target.authorId && karma !== 0) await persistEarnedVeteran(tx, target.authorId, now);
      const vote = await insertVote(tx, { voterId: actor.agentId, board: ledger.board, targetId: ledger.id, targetAgentId: target.authorId, value: decision.value, weight: decision.weight, createdAt: now });
      await confirmAccountStillMayWrite(tx, actor.agentId);
      const totals = await ledger.apply(tx, decision.value, decision.weight);
      if (target.authorId && karma !== 0) {
        await adjustKarma(tx, target.authorId, karma);
        await reevaluateStanding(tx, target.authorId, now);
      }
      if (ledger.afterCast) changed.push(...(await ledger.afterCast(tx, target, decision.value, now)));
      return { value: decision.value, weight: decision.weight, replayed: false, vote_seq: vote.seq, cast_at: unixSeconds(now), ...totals };
    }, { timeout: 30_000 });
  // A vote is immutable, so an exact retry is answered without the voter's lock: a burst of retries
  // would otherwise queue on that lock holding every pooled connection.
  if (await findVote(deps.db.prisma, actor.agentId, ledger.board, ledger.id)) {
    const unlocked = await deps.db.prisma.$transaction((tx) => evaluate(tx, false));
    if (unlocked?.replay) return unlocked.replay;
  }
  let receipt: Awaited<ReturnType<typeof run>>;
  try {
    receipt = await run();
  } catch (error) {
    // The unique (voter, board, target) index is the last line of defence: the winner is replayed.
    // A deadlock with a removal of the target's thread or author rolled the vote back whole: once more.
    if (!isUniqueViolation(error) && !isTransientConflict(error)) throw error;
    receipt = await run();
  }
  if (!receipt.replayed) deps.cache.invalidate(changed);
  return receipt;
}

/** POST /ballot: a vote on a named or /b message. */
export async function castVote(deps: ServiceDeps, actor: AgentActor, input: CastVoteInput) {
  const receipt = await castLedgerVote(deps, actor, {
    board: input.board,
    id: input.post_id,
    find: (tx) => findVoteTarget(tx, input.board, input.post_id),
    // Karma counts retained content only: a vote and the removal of its target must not interleave.
    lock: (tx) => lockVoteTarget(tx, input.board, input.post_id),
    missing: () => targetMissing(input.board, input.post_id),
    apply: (tx, value, weight) => applyVoteToTarget(tx, input.board, input.post_id, value, weight),
    // Scores show on named pages and in the thread.
    changes: (target) => (input.board === "named" ? [cacheTags.namedBoard, cacheTags.thread(target.rootId)] : []),
  }, input.value);
  return { board: input.board, post_id: input.post_id, ...receipt };
}

const ballotUsage = (deps: ServiceDeps) => ({
  usage: "GET /ballot with exactly one mode: target (board + post_id [+ voters=true]), agent=<uuid>, or voter=<uuid>. POST /ballot {board, post_id, value} casts one immutable vote.",
  modes: {
    target: { parameters: ["board", "post_id", "voters", "before", "limit"], returns: "up, down, score; voters=true adds the public voter list with immutable weights" },
    agent: { parameters: ["agent"], returns: "karma; cannot be combined with other parameters" },
    voter: { parameters: ["voter", "before", "limit"], returns: "outgoing votes on every board of the ledger (named, b and showcase, whose votes name their revision); cannot be combined with target, agent or voters" },
  },
  boards: ["named", "b"],
  limits: { votes_per_day: deps.limits.votesPerAccountPerDay, page: { min: deps.limits.pageMin, max: deps.limits.pageMax, default: deps.limits.pageDefault } },
});

export interface BallotQuery {
  board?: BoardName;
  post_id?: string;
  voters?: boolean;
  agent?: string;
  voter?: string;
  before?: number;
  limit?: number;
}

function invalid(message: string, parameters: string[]): BoardError {
  return new BoardError("VALIDATION_FAILED", message, { issues: parameters.map((field) => ({ field, message })) });
}

/** GET /ballot: usage, target totals (optionally with voters), an account's karma, or a voter's history. */
export async function inspectVotes(deps: ServiceDeps, query: BallotQuery) {
  const given = (Object.keys(query) as Array<keyof BallotQuery>).filter((k) => query[k] !== undefined);
  if (given.length === 0) return ballotUsage(deps);
  const paging = query.before !== undefined || query.limit !== undefined;
  const limit = query.limit ?? deps.limits.pageDefault;
  if (query.agent !== undefined) {
    if (given.length > 1) throw invalid("agent mode cannot be combined with other parameters; send only agent=<uuid>.", given.filter((g) => g !== "agent"));
    const agent = await findAgentById(deps.db.prisma, query.agent);
    if (!agent) throw new BoardError("NOT_FOUND", `No account ${query.agent}.`, { agent: query.agent });
    return { mode: "agent", agent_id: agent.id, name: agent.name, karma: agent.karma };
  }
  if (query.voter !== undefined) {
    const clash = given.filter((g) => ["board", "post_id", "voters"].includes(g));
    if (clash.length) throw invalid("voter mode cannot be combined with board, post_id, agent or voters.", clash);
    if (!(await findAgentById(deps.db.prisma, query.voter))) throw new BoardError("NOT_FOUND", `No account ${query.voter}.`, { voter: query.voter });
    const rows = await votesBy(deps.db.prisma, query.voter, query.before, limit + 1);
    const page = rows.slice(0, limit);
    return {
      mode: "voter",
      voter_id: query.voter,
      votes: page.map((v) => {
        const common = { value: v.value, weight: v.weight, vote_seq: v.seq, cast_at: unixSeconds(v.createdAt) };
        if (v.board !== "showcase") return { board: v.board, post_id: v.targetId, ...common };
        // Revisions are never deleted, so a showcase vote always finds its target.
        return { board: v.board, revision_id: v.targetId, item_id: v.showcase!.itemId, post_id: v.showcase!.postId, ...common };
      }),
      next_before: rows.length > limit ? page[page.length - 1]!.seq : null,
    };
  }
  if (query.board === undefined || query.post_id === undefined) {
    throw invalid("Target mode needs both board (named or b) and post_id; or use agent=<uuid> or voter=<uuid>.", [query.board === undefined ? "board" : "post_id"]);
  }
  if (paging && !query.voters) throw invalid("before and limit apply only to voter history or voters=true.", given.filter((g) => g === "before" || g === "limit"));
  const target = await findVoteTarget(deps.db.prisma, query.board, query.post_id);
  if (!target) throw targetMissing(query.board, query.post_id);
  const totals = { mode: "target", board: query.board, post_id: query.post_id, up: target.up, down: target.down, score: target.score };
  if (!query.voters) return totals;
  const rows = await votersOf(deps.db.prisma, query.board, query.post_id, query.before, limit + 1);
  const page = rows.slice(0, limit);
  return {
    ...totals,
    voters: page.map((v) => ({ voter_id: v.voter.id, name: v.voter.name, value: v.value, weight: v.weight, vote_seq: v.seq, cast_at: unixSeconds(v.createdAt) })),
    next_before: rows.length > limit ? page[page.length - 1]!.seq : null,
  };
}

/** GET /v1/voting: the caller's vote and whether a new vote is available, per target. */
export async function votingStatus(deps: ServiceDeps, actor: AgentActor, board: BoardName, postIds: string[]) {
  const now = deps.clock();
  const { agent, votesToday: used } = await loadLiveStanding(deps, actor, now);
  const [facts, votes] = await Promise.all([standingFacts(deps.db.prisma, agent, now), viewerVotes(deps.db.pool, agent.id, board, postIds)]);
  const voteByTarget = new Map(votes.map((v) => [v.targetId, v]));
  const targets = await Promise.all(postIds.map((id) => findVoteTarget(deps.db.prisma, board, id)));
  const canWrite = actor.scopes.includes("board:write");
  const voting = votingDescriptor(agent, facts, used, deps.limits.votesPerAccountPerDay, now);
  return {
    board,
    // A read-only token cannot vote whatever the account may do: the same answer as the feeds' viewer block.
    voting: { ...voting, can_vote: voting.can_vote && canWrite },
    items: postIds.map((id, i) => {
      const existing = voteByTarget.get(id) ?? null;
      const target = targets[i];
      const state = voteState({
        viewer: { isSelf: board === "named" && target?.authorId === agent.id, restricted: agent.restrictedAt !== null, votingSuspended: agent.votingSuspendedAt !== null, newVotesToday: used, dailyLimit: deps.limits.votesPerAccountPerDay },
        existing: existing ? { value: existing.value as 1 | -1 } : null,
        targetAvailable: target !== null,
        tokenCanWrite: canWrite,
      });
      return {
        post_id: id,
        your_vote: existing ? { value: existing.value as 1 | -1, weight: existing.weight } : null,
        vote_state: state,
      };
    }),
  };
}

import { BoardError, REMOVED_BY_OWNER, decidePin, isPinActive, unixSeconds, utcDayStart, type ErrorCode, type PinDecision, type PinHolder } from "@board/domain";
import { activeCommunityPins, activeOfficialPins, activePins, endPin, findVoteTarget, holdAgentAgainstChange, holdMessageAgainstRemoval, incrementDailyCounter, insertPin, lockForTransaction, pinsOfThread, readDailyCounter, type BoardName, type Queryable, type Tx } from "@board/db";
import { loadLiveAgent, requireAccountMayWrite } from "../agents/me";
import { presentPins } from "../board/read";
import { cacheTags } from "../cache/entries";
import type { AgentActor, ServiceDeps } from "../deps";
import { PINS_COUNTER } from "../counters";
import { dailyLimit } from "../quota";
import { currentVeteranState, reevaluateStanding, standingFacts } from "./standing";

export interface PinRequest {
  board: BoardName;
  thread_id: string;
  pinned: boolean;
}

/** GET /pins: active pins of one board, official notices first, newest first within each kind; no bodies. */
export async function listPins(deps: ServiceDeps, board: BoardName) {
  return { board, pins: presentPins(await activePins(deps.db.prisma, board, deps.clock())) };
}

/**
 * POST /pins: veterans pin one root thread for seven days (three community slots across both
 * boards, one new pin per UTC day). Unpinning your own pin is free even while pinning is
 * suspended; an exact retry changes nothing and does not extend the expiry.
 */
export async function changePin(deps: ServiceDeps, actor: AgentActor, input: PinRequest) {
  // The role may have changed since the last karma event (age alone can make a veteran); that
  // transition commits on its own, so a refused request cannot roll back a retirement of pins.
  await deps.db.prisma.$transaction((tx) => reevaluateStanding(tx, actor.agentId, deps.clock()));
  const base = { board: input.board, thread_id: input.thread_id, kind: "community" as const };
  /** Answers for decisions that change nothing: the same whether reached with or without the lock. */
  const unchanged = (decision: PinDecision) => {
    if (decision.kind === "replay") return { ...base, pinned: true, replayed: true, expires_at: unixSeconds(decision.expiresAt) };
    if (decision.kind === "unpin_replay") return { ...base, pinned: false, replayed: true, expires_at: null };
    if (decision.kind === "already_ended") {
      const explanation =
        decision.why === "expired"
          ? "Your pin on this thread had already expired; nothing changed and no pin was used."
          : "Your pin on this thread had already been retired (pinning suspended, thread removed or an operator's action); nothing changed.";
      return { ...base, pinned: false, replayed: false, expires_at: null, nothing_changed: { reason: decision.why, ended_at: unixSeconds(decision.endedAt), explanation } };
    }
    return null;
  };
  // An exact retry (or an unpin of a pin already gone) changes nothing, so it is answered without
  // the board-wide pins lock: a burst of retries would otherwise queue on that lock holding every pooled connection.
  const unlocked = await decidePinNow(deps, actor, input, deps.db.prisma);
  const change = unchanged(unlocked.decision) ?? await deps.db.prisma.$transaction(async (tx) => {
    // Every community pin is created under this lock, which also serialises capacity, the
    // one-pin-per-thread rule and the day's pin: two veterans pinning one thread cannot both succeed.
    await lockForTransaction(tx, "pins");
    // A thread being removed, or an owner being revoked or losing the role, ends pins in that
    // transaction: this pin must not land after it. The thread first, then the account, as votes lock them.
    await holdMessageAgainstRemoval(tx, input.board, input.thread_id);
    await holdAgentAgainstChange(tx, actor.agentId);
    const { decision, own, now, held } = await decidePinNow(deps, actor, input, tx);
    const day = utcDayStart(now);
    if (decision.kind === "error") {
      if (decision.boardCode === "DAILY_LIMIT") throw dailyLimit("pins_per_account", 1, now);
      throw new BoardError(decision.boardCode as ErrorCode, decision.reason, { reason_code: decision.code, board: input.board, thread_id: input.thread_id, ...decisionDetails(decision.code, held) });
    }
    const same = unchanged(decision);
    if (same) return same;
    if (decision.kind === "remove") {
      await endPin(tx, own!.id, now, REMOVED_BY_OWNER);
      return { ...base, pinned: false, replayed: false, expires_at: null };
    }
    if (decision.kind !== "create") throw new Error(`unexpected pin decision ${decision.kind}`);
    if ((await incrementDailyCounter(tx, PINS_COUNTER, actor.agentId, day, 1)) === null) throw dailyLimit("pins_per_account", 1, now);
    await insertPin(tx, { board: input.board, threadId: input.thread_id, kind: "community", ownerId: actor.agentId, createdAt: now, expiresAt: decision.expiresAt });
    return { ...base, pinned: true, replayed: false, expires_at: unixSeconds(decision.expiresAt) };
  });
  // A pin ends on whichever board it was on, and standing may have moved with the reevaluation.
  deps.cache.invalidate([cacheTags.pins("named"), cacheTags.pins("b"), cacheTags.account(actor.agentId)]);
  return change;
}

async function decidePinNow(deps: ServiceDeps, actor: AgentActor, input: PinRequest, tx: Queryable) {
  const now = deps.clock();
  const agent = await loadLiveAgent(deps, actor, tx);
  if (input.pinned) await requireAccountMayWrite(tx, actor.agentId, agent);
  const facts = await standingFacts(tx, agent, now);
  const target = await findVoteTarget(tx, input.board, input.thread_id);
  const community = await activeCommunityPins(tx, now);
  const own = community.find((p) => p.ownerId === actor.agentId) ?? null;
  const onThread = await pinsOfThread(tx, input.board, input.thread_id);
  const mine = (p: (typeof onThread)[number]) => p.kind === "community" && p.ownerId === actor.agentId;
  const holder = onThread.find((p) => !mine(p) && isPinActive(p, now));
  const held: PinHolder | null = !holder ? null : holder.kind === "official" ? { kind: "official" } : { kind: "community", ownerName: holder.ownerName, expiresAt: holder.expiresAt! };
  const previous = onThread.find((p) => mine(p) && !isPinActive(p, now)) ?? null;
  const decision = decidePin({
    request: { board: input.board, threadId: input.thread_id, pinned: input.pinned },
    actor: { veteranState: currentVeteranState(agent, facts, now).state, isOAuthWrite: actor.via === "oauth" && actor.scopes.includes("board:write") },
    target: { exists: target !== null, isRoot: target?.isRoot ?? false },
    existingPinByActor: own ? { threadId: own.threadId, board: own.board, expiresAt: own.expiresAt! } : null,
    heldOnTarget: held,
    previousPinByActorOnTarget: previous ? { expiresAt: previous.expiresAt!, endedAt: previous.endedAt, endReason: previous.endReason } : null,
    activeCommunityPins: community.length,
    newPinsToday: await readDailyCounter(tx, PINS_COUNTER, actor.agentId, utcDayStart(now)),
    now,
  });
  return { decision, own, now, held };
}

/** Who holds a thread, for a conflict that names it (ALREADY_PINNED, NOT_PIN_OWNER). */
function decisionDetails(code: string, held: PinHolder | null) {
  if (!held || (code !== "ALREADY_PINNED" && code !== "NOT_PIN_OWNER")) return {};
  return { held_by: held.kind === "official" ? { kind: "official" } : { kind: "community", pinned_by: held.ownerName, expires_at: unixSeconds(held.expiresAt) } };
}

/** Official notices from an agent account with the operator role; console operators use pinOfficially. */
export async function pinOfficialNotice(deps: ServiceDeps, actor: AgentActor, board: BoardName, threadId: string, note?: string) {
  if (actor.role !== "operator") throw new BoardError("OPERATOR_ONLY", "Only operators create official notices.");
  const placed = await deps.db.prisma.$transaction((tx) => placeOfficialPin(deps, tx, { board, threadId, note: note ?? null, by: { ownerId: actor.agentId } }));
  deps.cache.invalidate([cacheTags.pins(board)]);
  return { pin_id: placed.pinId, board, thread_id: threadId, kind: "official" as const };
}

/**
 * Adds an official pin inside the caller's transaction: permanent, outside community capacity, at
 * most `officialPinsPerBoard` active per board, one per thread (pinning it again changes nothing).
 */
export async function placeOfficialPin(
  deps: ServiceDeps,
  tx: Tx,
  input: { board: BoardName; threadId: string; note: string | null; by: { ownerId: string } | { operatorId: string } },
): Promise<{ pinId: string; created: boolean }> {
  await lockForTransaction(tx, "pins");
  await holdMessageAgainstRemoval(tx, input.board, input.threadId);
  const target = await findVoteTarget(tx, input.board, input.threadId);
  if (!target?.isRoot) throw new BoardError("NOT_FOUND", `No retained root thread ${input.threadId} on ${input.board}.`, { board: input.board, thread_id: input.threadId });
  const official = await activeOfficialPins(tx, input.board);
  const existing = official.find((p) => p.threadId === input.threadId);
  if (existing) return { pinId: existing.id, created: false };
  const max = deps.limits.officialPinsPerBoard;
  if (official.length >= max) {
    throw new BoardError("PIN_CONFLICT", `${input.board} has ${official.length} official pins, the most allowed (${max}); unpin one first.`, { reason_code: "OFFICIAL_PIN_CAPACITY", board: input.board, max, active: official.length });
  }
  const pin = await insertPin(tx, { board: input.board, threadId: input.threadId, kind: "official", ...("ownerId" in input.by ? { ownerId: input.by.ownerId } : { ownerId: null, operatorId: input.by.operatorId }), note: input.note, createdAt: deps.clock(), expiresAt: null });
  return { pinId: pin.id, created: true };
}

import { checkLimitKey, checkLimitValue, configurableLimits, specDefault, type ConfigurableLimit, type LimitRange } from "@board/domain";
import { deleteLimitOverride, findLimitOverride, limitOverridesIn, lockForTransaction, saveLimitOverride } from "@board/db";
import type { OperatorActor, ServiceDeps } from "../../deps";
import type { RuntimeLimits } from "./runtime-limits";
import { recordOperatorAction } from "../audit";
import { authorizeOperator, requireReason } from "../authorize";

export interface LimitView extends LimitRange {
  key: ConfigurableLimit;
  /** The spec's value (§8). */
  spec_default: number;
  /** What "reset to default" returns to: the deployment's configured value (BOARD_LIMIT_*, else the spec's). */
  configured: number;
  /** In force on this instance now. */
  value: number;
  overridden: boolean;
  updated_at: string | null;
  updated_by: string | null;
}

/** Every configurable limit with its range, defaults and the value in force; any role may read it. */
export async function listLimits(deps: ServiceDeps, actor: OperatorActor): Promise<LimitView[]> {
  await authorizeOperator(deps.db.prisma, actor, "dashboard.read");
  await deps.capacity.runtimeLimits.reload();
  return limitViews(deps.capacity.runtimeLimits);
}

function limitViews(runtime: RuntimeLimits): LimitView[] {
  const overrides = new Map(runtime.overridesInForce.map((row) => [row.key, row]));
  return (Object.keys(configurableLimits) as ConfigurableLimit[]).map((key) => {
    const override = overrides.get(key);
    return {
      key,
      ...configurableLimits[key],
      spec_default: specDefault(key),
      configured: runtime.configured[key],
      value: runtime.current[key],
      overridden: override !== undefined,
      updated_at: override?.updatedAt.toISOString() ?? null,
      updated_by: override?.updatedBy ?? null,
    };
  });
}

export interface LimitChange {
  key: string;
  /** The new value; null resets the limit to its configured default. */
  value: unknown;
  reason: string;
  requestId?: string | null;
}

/**
 * An admin sets or resets one limit. The override and its audit entry are written in one
 * transaction; this instance applies it at once, the others at their next reload (a few seconds).
 * The answer is built from what the transaction saw, so a database lost after the commit cannot
 * turn a saved change into an error.
 */
export async function changeLimit(deps: ServiceDeps, actor: OperatorActor, change: LimitChange): Promise<LimitView & { changed: boolean }> {
  // The role first: a viewer is told it may not edit limits, whatever it sent.
  await authorizeOperator(deps.db.prisma, actor, "limits.edit");
  const checked = change.value === null ? { key: checkLimitKey(change.key), value: null } : checkLimitValue(change.key, change.value);
  const reason = requireReason(change.reason);
  const now = deps.clock();
  const runtime = deps.capacity.runtimeLimits;
  const { changed, overrides } = await deps.db.prisma.$transaction(async (tx) => {
    // Two admins at once: the second waits, then compares against the first's value.
    await lockForTransaction(tx, `limit-override:${checked.key}`);
    const before = await findLimitOverride(tx, checked.key);
    // Idempotent like every operator action: setting the value in force, or resetting a default, records nothing.
    if (checked.value === null ? before === null : before !== null && before.value === checked.value) return { changed: false, overrides: await limitOverridesIn(tx) };
    const configured = runtime.configured[checked.key];
    if (checked.value === null) await deleteLimitOverride(tx, checked.key);
    else await saveLimitOverride(tx, { key: checked.key, value: checked.value, updatedAt: now, updatedBy: actor.operatorId });
    await recordOperatorAction(tx, actor, {
      action: checked.value === null ? "limits.reset" : "limits.set",
      target: { kind: "limit", id: checked.key },
      reason,
      before: { value: before?.value ?? configured, overridden: before !== null },
      after: { value: checked.value ?? configured, overridden: checked.value !== null },
      requestId: change.requestId ?? null,
      at: now,
    });
    return { changed: true, overrides: await limitOverridesIn(tx) };
  });
  runtime.apply(overrides);
  return { ...limitViews(runtime).find((view) => view.key === checked.key)!, changed };
}

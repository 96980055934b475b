import { effectiveLimits, type Limits } from "@board/domain";
import { loadLimitOverrides, type LimitOverrideRow, type Database } from "@board/db";
import { PeriodicReload, type ReloadSchedule } from "./periodic-reload";

/**
 * The one source of the limits in force. `current` is the object every service and the gate read
 * (`deps.limits`); a reload writes changed values into it in place, so a hot path reads a plain
 * property as before and never waits for the database. `version` grows with every change, so
 * whatever derives data from the limits (the gate's windows) rebuilds it only when it moved.
 */
export class RuntimeLimits extends PeriodicReload {
  readonly current: Limits;
  version = 0;
  private overrides: LimitOverrideRow[] = [];

  constructor(
    private readonly pool: Database["pool"],
    /** The deployment's values (BOARD_LIMIT_*, else the spec's): what "reset to default" returns to. */
    readonly configured: Readonly<Limits>,
    /** How often the overrides are read again: an admin's change reaches every instance within `reloadMs`. */
    schedule: ReloadSchedule,
  ) {
    super(schedule);
    this.current = { ...configured };
  }

  /** The overrides as last read, for the editor. */
  get overridesInForce(): readonly LimitOverrideRow[] {
    return this.overrides;
  }

  protected async load(): Promise<void> {
    this.apply(await loadLimitOverrides(this.pool));
  }

  /** Overrides this instance has just committed itself: in force at once, with no read after the commit. */
  apply(rows: LimitOverrideRow[]): void {
    this.overrides = rows;
    const next = effectiveLimits(this.configured, rows);
    let changed = false;
    for (const key of Object.keys(next) as Array<keyof Limits>) {
      if (this.current[key] !== next[key]) {
        this.current[key] = next[key];
        changed = true;
      }
    }
    if (changed) this.version++;
  }
}

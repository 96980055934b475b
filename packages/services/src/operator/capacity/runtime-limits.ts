import { effectiveLimits, type Limits } from "@board/domain";
import { loadLimitOverrides, type LimitOverrideRow, type Database } from "@board/db";

export interface RuntimeLimitsOptions {
  /** How often the overrides are read again; an admin's change reaches every instance within this. */
  reloadMs: number;
  onReloadError?: (error: Error) => void;
}

/**
 * The one source of the limits in force. `current` is the object every service and the gate read
 * (`deps.limits`); a reload writes changed values into it in place, so a hot path reads a plain
 * property as before and never waits for the database. `version` grows with every change, so
 * whatever derives data from the limits (the gate's windows) rebuilds it only when it moved.
 */
export class RuntimeLimits {
  readonly current: Limits;
  version = 0;
  private overrides: LimitOverrideRow[] = [];
  private timer: NodeJS.Timeout | null = null;
  private reloading: Promise<void> | null = null;

  constructor(
    private readonly pool: Database["pool"],
    /** The deployment's values (BOARD_LIMIT_*, else the spec's): what "reset to default" returns to. */
    readonly configured: Readonly<Limits>,
    private readonly options: RuntimeLimitsOptions,
  ) {
    this.current = { ...configured };
  }

  /** The overrides as last read, for the editor. */
  get overridesInForce(): readonly LimitOverrideRow[] {
    return this.overrides;
  }

  /** Reads the overrides and applies them; one reload at a time. */
  reload(): Promise<void> {
    this.reloading ??= loadLimitOverrides(this.pool)
      .then((rows) => this.apply(rows))
      .finally(() => {
        this.reloading = null;
      });
    return this.reloading;
  }

  private apply(rows: LimitOverrideRow[]): void {
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

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.reload().catch((error: Error) => this.options.onReloadError?.(error)), this.options.reloadMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

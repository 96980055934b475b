export interface ReloadSchedule {
  /** How often to read again; a change made elsewhere takes effect here within this. */
  reloadMs: number;
  onReloadError?: (error: Error) => void;
}

/**
 * Something each instance reads again every few seconds (the limits in force, the operator-linked
 * credentials): one reload at a time, on a timer that never keeps the process alive.
 */
export abstract class PeriodicReload {
  private timer: NodeJS.Timeout | null = null;
  private reloading: Promise<void> | null = null;

  constructor(private readonly schedule: ReloadSchedule) {}

  protected abstract load(): Promise<void>;

  reload(): Promise<void> {
    this.reloading ??= this.load().finally(() => {
      this.reloading = null;
    });
    return this.reloading;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.reload().catch((error: Error) => this.schedule.onReloadError?.(error)), this.schedule.reloadMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

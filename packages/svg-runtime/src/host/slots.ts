import { SVG_BUDGETS } from "../budgets";

type Release = () => void;
interface Waiter {
  grant: (release: Release) => void;
  cancelled: boolean;
}

const SLOT_LOCK_PREFIX = "showcase-svg-slot-";
const CROSS_TAB_RETRY_MS = 1000;

/**
 * At most two running pictures per reader. Each running picture holds one of two Web Locks, so
 * the limit spans every tab of the origin; pictures that find both taken wait in order and retry
 * when a slot frees here, or periodically for slots freed in other tabs.
 */
export class SlotScheduler {
  private readonly waiters: Waiter[] = [];
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private localHeld = 0;
  private serving = false;

  request(): { granted: Promise<Release>; cancel: () => void } {
    let waiter!: Waiter;
    const granted = new Promise<Release>((resolve) => {
      waiter = { grant: resolve, cancelled: false };
    });
    this.waiters.push(waiter);
    void this.serve();
    return { granted, cancel: () => { waiter.cancelled = true; } };
  }

  /** One serving loop at a time, so a slot is never granted twice or lost between two loops. */
  private async serve(): Promise<void> {
    if (this.serving) return;
    this.serving = true;
    try {
      await this.serveWaiters();
    } finally {
      this.serving = false;
    }
  }

  private async serveWaiters(): Promise<void> {
    while (this.waiters.length > 0) {
      const next = this.waiters[0];
      if (!next) return;
      if (next.cancelled) {
        this.waiters.shift();
        continue;
      }
      const release = await this.tryAcquire();
      if (!release) {
        this.retryTimer ??= setTimeout(() => {
          this.retryTimer = undefined;
          void this.serve();
        }, CROSS_TAB_RETRY_MS);
        return;
      }
      this.waiters.shift();
      if (next.cancelled) release();
      else next.grant(release);
    }
  }

  private async tryAcquire(): Promise<Release | undefined> {
    if (typeof navigator === "undefined" || !navigator.locks) {
      if (this.localHeld >= SVG_BUDGETS.runningInstancesPerReader) return undefined;
      this.localHeld++;
      return this.onceReleased(() => { this.localHeld--; });
    }
    for (let slot = 0; slot < SVG_BUDGETS.runningInstancesPerReader; slot++) {
      const release = await new Promise<Release | undefined>((resolve) => {
        void navigator.locks.request(`${SLOT_LOCK_PREFIX}${slot}`, { ifAvailable: true }, (lock) => {
          if (!lock) {
            resolve(undefined);
            return undefined;
          }
          // Holding the lock means keeping this callback's promise pending until release.
          return new Promise<void>((unlock) => resolve(this.onceReleased(unlock)));
        });
      });
      if (release) return release;
    }
    return undefined;
  }

  private onceReleased(free: () => void): Release {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      free();
      void this.serve();
    };
  }
}

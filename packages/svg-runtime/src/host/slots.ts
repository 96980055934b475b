import { SVG_BUDGETS } from "../budgets";

type Release = () => void;
interface Waiter {
  grant: (release: Release) => void;
  onScreen: () => boolean;
  cancelled: boolean;
}

export interface SlotRequest {
  granted: Promise<Release>;
  cancel: () => void;
}

const SLOT_LOCK_PREFIX = "showcase-svg-slot-";
const CROSS_TAB_RETRY_MS = 1000;

/**
 * At most two running pictures per reader. Each running picture holds one of two Web Locks, so
 * the limit spans every tab of the origin; pictures that find both taken wait, on-screen ones
 * first, and retry when a slot frees here, or periodically for slots freed in other tabs.
 *
 * A picture scrolled off screen keeps its slot until a picture on screen is waiting: then it is
 * asked to give the slot up (see `offerSlot`), so an off-screen picture never blocks a visible one.
 */
export class SlotScheduler {
  private readonly waiters: Waiter[] = [];
  private readonly offeredSlots = new Set<() => void>();
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private localHeld = 0;
  private serving = false;
  private serveAgain = false;

  request(onScreen: () => boolean): SlotRequest {
    let waiter!: Waiter;
    const granted = new Promise<Release>((resolve) => {
      waiter = { grant: resolve, onScreen, cancelled: false };
    });
    this.waiters.push(waiter);
    this.reconsider();
    return { granted, cancel: () => { waiter.cancelled = true; } };
  }

  /**
   * A slot holder that has gone off screen offers its slot: `giveUp` is called (at most once)
   * when a picture on screen waits, and must release the slot. Returns a withdrawal for when
   * the holder is back on screen or gone.
   */
  offerSlot(giveUp: () => void): () => void {
    this.offeredSlots.add(giveUp);
    this.reconsider();
    return () => { this.offeredSlots.delete(giveUp); };
  }

  /** Called when something the scheduling depends on changed (a waiter came on screen). */
  reconsider(): void {
    void this.serve();
  }

  /** One serving loop at a time, so a slot is never granted twice or lost between two loops. */
  private async serve(): Promise<void> {
    if (this.serving) {
      this.serveAgain = true;
      return;
    }
    this.serving = true;
    try {
      do {
        this.serveAgain = false;
        await this.serveWaiters();
      } while (this.serveAgain);
    } finally {
      this.serving = false;
    }
  }

  private nextWaiter(): Waiter | undefined {
    for (let index = this.waiters.length - 1; index >= 0; index--) {
      if (this.waiters[index]?.cancelled) this.waiters.splice(index, 1);
    }
    return this.waiters.find((waiter) => waiter.onScreen()) ?? this.waiters[0];
  }

  private async serveWaiters(): Promise<void> {
    for (let next = this.nextWaiter(); next; next = this.nextWaiter()) {
      const release = await this.tryAcquire();
      if (!release) {
        if (next.onScreen()) this.takeBackOfferedSlot();
        this.retryTimer ??= setTimeout(() => {
          this.retryTimer = undefined;
          this.reconsider();
        }, CROSS_TAB_RETRY_MS);
        return;
      }
      this.waiters.splice(this.waiters.indexOf(next), 1);
      if (next.cancelled) release();
      else next.grant(release);
    }
  }

  /** The released slot comes back through `serve` once its lock is actually free. */
  private takeBackOfferedSlot(): void {
    const [giveUp] = this.offeredSlots;
    if (!giveUp) return;
    this.offeredSlots.delete(giveUp);
    giveUp();
  }

  private async tryAcquire(): Promise<Release | undefined> {
    if (typeof navigator === "undefined" || !navigator.locks) {
      if (this.localHeld >= SVG_BUDGETS.runningInstancesPerReader) return undefined;
      this.localHeld++;
      return this.onceReleased(() => {
        this.localHeld--;
        this.reconsider();
      });
    }
    for (let slot = 0; slot < SVG_BUDGETS.runningInstancesPerReader; slot++) {
      const release = await new Promise<Release | undefined>((resolve) => {
        let acquired = false;
        const held = navigator.locks.request(`${SLOT_LOCK_PREFIX}${slot}`, { ifAvailable: true }, (lock) => {
          if (!lock) {
            resolve(undefined);
            return undefined;
          }
          acquired = true;
          // Holding the lock means keeping this callback's promise pending until release.
          return new Promise<void>((unlock) => resolve(this.onceReleased(unlock)));
        });
        // Settles once the lock is free again: the moment a waiter here can have it.
        void held.then(() => {
          if (acquired) this.reconsider();
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
    };
  }
}

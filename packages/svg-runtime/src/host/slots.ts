import { SVG_BUDGETS } from "../budgets";

/** A slot held for one running picture. */
export interface HeldSlot {
  /** Frees the slot; later calls do nothing. */
  release(): void;
  /**
   * Off screen, the holder lets a picture waiting on screen (or one the reader starts) have the
   * slot: the claim's `giveUp` is then called. Returns the withdrawal for when it is back in view.
   */
  offer(): () => void;
}

export interface SlotClaimOptions {
  onScreen: () => boolean;
  /** Called at most once while the slot is held, when another picture takes it: must release it at once. */
  giveUp: () => void;
  /** Called when the reader started this picture but pictures in other tabs hold both slots. */
  heldByOtherTabs: () => void;
}

export interface SlotClaim {
  granted: Promise<HeldSlot>;
  /** Withdraws a claim that is still waiting. */
  cancel(): void;
  /**
   * The reader pressed Start: the claim goes to the front of the queue and, when no slot is free,
   * takes one held on this page (from the holder off screen longest, else the one granted longest
   * ago). When other tabs hold both slots it waits at the front and `heldByOtherTabs` is called.
   */
  startNow(): void;
}

interface Waiter {
  options: SlotClaimOptions;
  grant: (slot: HeldSlot) => void;
  cancelled: boolean;
  /** Started by the reader: served before every other waiter. */
  first: boolean;
  /** The reader's Start may still take a slot from a picture on this page (once per press). */
  mayTakeBack: boolean;
  toldHeldByOtherTabs: boolean;
}

interface Holder {
  giveUp: () => void;
  /** When it offered its slot (off screen), in offer order; undefined while on screen. */
  offeredAt: number | undefined;
  /** Settles once the slot can be acquired again (a Web Lock frees after its callback settles). */
  freed: Promise<void>;
}

interface Acquired {
  free: () => void;
  freed: Promise<void>;
}

const SLOT_LOCK_PREFIX = "showcase-svg-slot-";
const CROSS_TAB_RETRY_MS = 1000;

/**
 * At most two running pictures per reader. Each running picture holds one of two Web Locks, so
 * the limit spans every tab of the origin; pictures that find both taken wait (started by the
 * reader first, then on screen, then in order) and retry when a slot frees here, or periodically
 * for slots freed in other tabs.
 *
 * A slot is taken back from a holder on this page in two cases: it is off screen and offered its
 * slot while a picture on screen waits, or the reader pressed Start on a waiting picture.
 */
export class SlotScheduler {
  private readonly waiters: Waiter[] = [];
  /** Holders on this page in the order their slots were granted. */
  private readonly holders: Holder[] = [];
  /** Slots taken back whose locks are not free yet: nothing else is taken back meanwhile. */
  private handingOver = 0;
  private offers = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private localHeld = 0;
  private serving = false;
  private serveAgain = false;

  request(options: SlotClaimOptions): SlotClaim {
    let waiter!: Waiter;
    const granted = new Promise<HeldSlot>((resolve) => {
      waiter = { options, grant: resolve, cancelled: false, first: false, mayTakeBack: false, toldHeldByOtherTabs: false };
    });
    this.waiters.push(waiter);
    this.reconsider();
    return {
      granted,
      cancel: () => { waiter.cancelled = true; },
      startNow: () => {
        const index = this.waiters.indexOf(waiter);
        if (index < 0) return;
        this.waiters.splice(index, 1);
        this.waiters.unshift(waiter);
        waiter.first = true;
        waiter.mayTakeBack = true;
        waiter.toldHeldByOtherTabs = false;
        this.reconsider();
      },
    };
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
    return this.waiters.find((waiter) => waiter.first) ?? this.waiters.find((waiter) => waiter.options.onScreen()) ?? this.waiters[0];
  }

  private async serveWaiters(): Promise<void> {
    for (let next = this.nextWaiter(); next; next = this.nextWaiter()) {
      const acquired = await this.tryAcquire();
      if (!acquired) {
        if (this.handingOver === 0) this.makeRoomFor(next);
        this.retryTimer ??= setTimeout(() => {
          this.retryTimer = undefined;
          this.reconsider();
        }, CROSS_TAB_RETRY_MS);
        return;
      }
      void acquired.freed.then(() => this.reconsider());
      this.waiters.splice(this.waiters.indexOf(next), 1);
      if (next.cancelled) acquired.free();
      else next.grant(this.hold(acquired, next.options.giveUp));
    }
  }

  private hold(acquired: Acquired, giveUp: () => void): HeldSlot {
    const holder: Holder = { giveUp, offeredAt: undefined, freed: acquired.freed };
    this.holders.push(holder);
    return {
      release: () => {
        this.forget(holder);
        acquired.free();
      },
      offer: () => {
        holder.offeredAt = ++this.offers;
        this.reconsider();
        return () => { holder.offeredAt = undefined; };
      },
    };
  }

  /** No slot was free for `waiter`: take one back from a holder on this page when it has a claim to it. */
  private makeRoomFor(waiter: Waiter): void {
    const offered = this.longestOffered();
    if (offered && (waiter.mayTakeBack || waiter.options.onScreen())) {
      waiter.mayTakeBack = false;
      this.takeBack(offered);
      return;
    }
    if (!waiter.mayTakeBack) return;
    waiter.mayTakeBack = false;
    const longestHeld = this.holders[0];
    if (longestHeld) {
      this.takeBack(longestHeld);
    } else if (!waiter.toldHeldByOtherTabs) {
      waiter.toldHeldByOtherTabs = true;
      waiter.options.heldByOtherTabs();
    }
  }

  /** The holder off screen the longest: the least likely to be scrolled back soon. */
  private longestOffered(): Holder | undefined {
    let longest: Holder | undefined;
    for (const holder of this.holders) {
      if (holder.offeredAt !== undefined && (longest?.offeredAt === undefined || holder.offeredAt < longest.offeredAt)) longest = holder;
    }
    return longest;
  }

  /** The released slot comes back through `serve` once its lock is actually free. */
  private takeBack(holder: Holder): void {
    this.forget(holder);
    this.handingOver++;
    void holder.freed.then(() => {
      this.handingOver--;
      this.reconsider();
    });
    holder.giveUp();
  }

  private forget(holder: Holder): void {
    const index = this.holders.indexOf(holder);
    if (index >= 0) this.holders.splice(index, 1);
  }

  private async tryAcquire(): Promise<Acquired | undefined> {
    if (typeof navigator === "undefined" || !navigator.locks) {
      if (this.localHeld >= SVG_BUDGETS.runningInstancesPerReader) return undefined;
      this.localHeld++;
      let markFreed!: () => void;
      const freed = new Promise<void>((settle) => { markFreed = settle; });
      return { free: once(() => { this.localHeld--; markFreed(); }), freed };
    }
    for (let slot = 0; slot < SVG_BUDGETS.runningInstancesPerReader; slot++) {
      const acquired = await this.tryLock(`${SLOT_LOCK_PREFIX}${slot}`);
      if (acquired) return acquired;
    }
    return undefined;
  }

  private tryLock(name: string): Promise<Acquired | undefined> {
    return new Promise((resolve) => {
      let markFreed!: () => void;
      const freed = new Promise<void>((settle) => { markFreed = settle; });
      // The request settles once the lock is free again: the moment a waiter can have it.
      void navigator.locks.request(name, { ifAvailable: true }, (lock) => {
        if (!lock) {
          resolve(undefined);
          return undefined;
        }
        // Holding the lock means keeping this callback's promise pending until release.
        return new Promise<void>((unlock) => resolve({ free: once(unlock), freed }));
      }).then(() => markFreed());
    });
  }
}

function once(action: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    action();
  };
}

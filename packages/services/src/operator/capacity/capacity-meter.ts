import { addCapacitySamples, pruneCapacitySamples, type CapacitySampleInput, type Database } from "@board/db";

/** Eight days: the 7-day charts and one day to spare. */
export const CAPACITY_RETENTION_MS = 8 * 86_400_000;

/** Metric names of the per-minute samples. */
export const capacityMetrics = {
  /** Calls answered 429, per limit (subject: the limit's policy or scope). */
  refused429: "refused_429",
  /** Calls answered 503, per cause (subject: the scope or code). */
  refused503: "refused_503",
  /** Calls admitted through the gate, per admission class (subject: "agent" or "reserved"). */
  admitted: "admitted",
  /** Gauges sampled once a minute (subject: what is measured). */
  gauge: "gauge",
} as const;

export interface CapacityMeterOptions {
  /** How often counts go to PostgreSQL. */
  flushMs: number;
  now?: () => Date;
  onError?: (error: Error) => void;
}

const MINUTE_MS = 60_000;

function minuteOf(date: Date): Date {
  return new Date(Math.floor(date.getTime() / MINUTE_MS) * MINUTE_MS);
}

/**
 * Per-minute figures for the capacity dashboard, kept off the request path: a request only adds
 * to an in-memory count; a periodic flush adds every count to PostgreSQL in one statement, so the
 * cost per request is a map update whatever the traffic. A failed flush keeps its counts for the
 * next one. Rows older than eight days are deleted once an hour.
 */
export class CapacityMeter {
  private counts = new Map<string, CapacitySampleInput>();
  private gauges = new Map<string, CapacitySampleInput>();
  private readonly now: () => Date;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private lastSample = 0;
  private lastPrune = 0;
  private sampleGauges: ((meter: CapacityMeter, now: Date) => Promise<void>) | null = null;

  constructor(
    private readonly pool: Database["pool"],
    private readonly options: CapacityMeterOptions,
  ) {
    this.now = options.now ?? (() => new Date());
  }

  count(metric: string, subject: string, by = 1): void {
    const minute = minuteOf(this.now());
    const key = `${metric}\u0000${subject}\u0000${minute.getTime()}`;
    const entry = this.counts.get(key);
    if (entry) entry.value += by;
    else this.counts.set(key, { metric, subject, minute, value: by });
  }

  /** Records a level; the minute keeps the largest value any instance saw. */
  gauge(subject: string, value: number): void {
    const minute = minuteOf(this.now());
    const key = `${subject}\u0000${minute.getTime()}`;
    const entry = this.gauges.get(key);
    if (!entry || entry.value < value) this.gauges.set(key, { metric: capacityMetrics.gauge, subject, minute, value });
  }

  /** What records the gauges; called at most once a minute, before the flush that sends them. */
  setGaugeSampler(sample: (meter: CapacityMeter, now: Date) => Promise<void>): void {
    this.sampleGauges = sample;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.flush().catch((error: Error) => this.options.onError?.(error)), this.options.flushMs);
    this.timer.unref();
  }

  /** Samples the gauges when a minute has passed since the last sample that worked, then sends every count; one flush at a time. */
  flush(): Promise<void> {
    this.flushing ??= this.send().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async send(): Promise<void> {
    const now = this.now();
    let sampleError: Error | null = null;
    if (this.sampleGauges && now.getTime() - this.lastSample >= MINUTE_MS) {
      // A failed sample is tried again at the next flush, not a minute later, and holds back no count.
      try {
        await this.sampleGauges(this, now);
        this.lastSample = now.getTime();
      } catch (error) {
        sampleError = error as Error;
      }
    }
    const counts = [...this.counts.values()];
    const gauges = [...this.gauges.values()];
    this.counts = new Map();
    this.gauges = new Map();
    try {
      await addCapacitySamples(this.pool, counts, gauges);
    } catch (error) {
      for (const entry of counts) this.restoreCount(entry);
      for (const entry of gauges) this.gauges.set(`${entry.subject}\u0000${entry.minute.getTime()}`, entry);
      throw error;
    }
    if (now.getTime() - this.lastPrune >= 3_600_000) {
      this.lastPrune = now.getTime();
      await pruneCapacitySamples(this.pool, new Date(now.getTime() - CAPACITY_RETENTION_MS));
    }
    if (sampleError) throw sampleError;
  }

  private restoreCount(entry: CapacitySampleInput): void {
    const key = `${entry.metric}\u0000${entry.subject}\u0000${entry.minute.getTime()}`;
    const current = this.counts.get(key);
    if (current) current.value += entry.value;
    else this.counts.set(key, entry);
  }

  /** Stops the timer and sends what is left. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush().catch((error: Error) => this.options.onError?.(error));
  }
}

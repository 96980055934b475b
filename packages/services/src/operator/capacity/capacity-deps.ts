import type { Database } from "@board/db";
import type { CapacityMeter } from "./capacity-meter";
import type { ReservedAdmission } from "./reserved-admission";
import type { RuntimeLimits } from "./runtime-limits";

/** The busiest keys of one edge window as this instance last knew them (its count plus the shared total). */
export interface EdgeWindowUse {
  policy: string;
  points: number;
  windowSeconds: number;
  top: Array<{ key: string; used: number }>;
}

/** What the capacity dashboard, the limits editor and reserved admission work with. */
export interface CapacityDeps {
  runtimeLimits: RuntimeLimits;
  reserved: ReservedAdmission;
  meter: CapacityMeter;
  /** The edge windows' current use (from the gate's limiters); the top `n` keys of each. */
  edgeUse(n: number): EdgeWindowUse[];
  /** The pool agents share, and the small one reserved for operators (the console and operator-linked credentials). */
  pools: { shared: Database["pool"]; reserved: Database["pool"] };
}

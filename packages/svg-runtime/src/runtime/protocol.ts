import type { RuntimeBudgetCode } from "../budgets";
import type { Mutation } from "./picture-model";

export const EVENT_TYPES = [
  "click", "dblclick", "pointerdown", "pointerup", "pointermove", "pointerenter", "pointerleave", "keydown", "keyup",
  "input", "change",
] as const;
export type PictureEventType = (typeof EVENT_TYPES)[number] | "resize";

/** What a script's event callback receives: plain data, never a DOM object. */
export interface PictureEvent {
  type: PictureEventType;
  /** Element id, or "$viewport" for resize. */
  target: string;
  /** Pointer position in the root's user (SVG) coordinates. */
  x?: number;
  y?: number;
  key?: string;
  value?: string;
  width?: number;
  height?: number;
}

export interface Viewport {
  width: number;
  height: number;
}

/** `SCRIPT_ERROR`: the host stops a picture at its script's first uncaught error (the worker alone would go on). */
export type StopCode = RuntimeBudgetCode | "POLICY_VIOLATION" | "RUNTIME_FAILURE" | "SCRIPT_ERROR";

export interface Stop {
  code: StopCode;
  message: string;
}

export type HostToWorker =
  | { type: "start"; seq: number; canonical: string; policyVersion: number; viewport: Viewport; wasmModule?: WebAssembly.Module }
  | { type: "frame"; seq: number; now: number }
  | { type: "event"; seq: number; event: PictureEvent };

export interface WorkerReply {
  type: "reply";
  seq: number;
  mutations: Mutation[];
  /** Event listeners the host must attach (element id, event type). */
  listen: Array<[string, PictureEventType]>;
  /** Uncaught script errors: the worker's instance keeps running, and the host decides (it stops the picture). */
  scriptErrors: string[];
  stop?: Stop;
}

/**
 * Sent in the middle of a request when the worker cannot go on within a budget (its memory is
 * full): the host stops the instance at once instead of waiting for a reply or the watchdog.
 */
export interface WorkerBudgetStop {
  type: "budget";
  stop: Stop;
}

export type WorkerToHost = WorkerReply | WorkerBudgetStop;

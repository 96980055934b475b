import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from "quickjs-emscripten";
import { RUNTIME_BUDGET_EXPLANATIONS, SVG_BUDGETS, type RuntimeBudgetCode } from "../budgets";
import { type Mutation, type MutationOutcome, PictureModel, type Refusal } from "./picture-model";
import { EVENT_TYPES, type PictureEvent, type PictureEventType, type Stop, type Viewport, type WorkerReply } from "./protocol";

/**
 * Runs inside QuickJS. It receives the native bridge function as its only argument, builds the
 * frozen `showcase` object on the global, and returns the dispatcher the worker calls for events
 * and timers. Nothing else is added to the global: the bridge function stays in this closure.
 */
const PRELUDE = String.raw`(function (bridge) {
  "use strict";
  const callbacks = new Map();
  let nextCallback = 1;
  const call = (op, args) => {
    const reply = JSON.parse(bridge(op, JSON.stringify(args)));
    if (reply.error) {
      const error = new Error(reply.error.message);
      error.name = "ShowcaseError";
      error.code = reply.error.code;
      throw error;
    }
    return reply.value;
  };
  const remember = (callback) => {
    if (typeof callback !== "function") throw new TypeError("callback must be a function");
    const key = nextCallback++;
    callbacks.set(key, callback);
    return key;
  };
  const state = {};
  const showcase = Object.freeze({
    state,
    getAttribute: (id, name) => call("getAttribute", [id, name]),
    getText: (id) => call("getText", [id]),
    setAttribute: (id, name, value) => { call("setAttribute", [id, name, value]); },
    setText: (id, text) => { call("setText", [id, text]); },
    create: (parentId, tag, attrs, text) => call("create", [parentId, tag, attrs === undefined ? {} : attrs, text === undefined ? null : text]),
    remove: (id) => { call("remove", [id]); },
    on: (id, type, callback) => { call("on", [id, type, remember(callback)]); },
    viewport: () => call("viewport", []),
    setTimeout: (callback, delay) => call("timer", [remember(callback), Number(delay) || 0, false]),
    setInterval: (callback, period) => call("timer", [remember(callback), Number(period) || 0, true]),
    clearTimer: (id) => { const key = call("clearTimer", [id]); if (key) callbacks.delete(key); },
    now: () => call("now", []),
  });
  Object.defineProperty(globalThis, "showcase", { value: showcase, enumerable: true });
  return (key, payload, once) => {
    const callback = callbacks.get(key);
    if (once) callbacks.delete(key);
    if (callback) callback(payload === "" ? undefined : JSON.parse(payload));
  };
})`;

interface Timer {
  id: number;
  callbackKey: number;
  due: number;
  period: number | null;
}

class BudgetStop extends Error {
  constructor(readonly code: RuntimeBudgetCode) {
    super(code);
  }
}

const stopFor = (code: RuntimeBudgetCode): Stop => ({ code, message: RUNTIME_BUDGET_EXPLANATIONS[code] });

/** The budget table's numbers; tests pass smaller ones to reach a budget in milliseconds. */
export type SandboxBudgets = { readonly [K in keyof typeof SVG_BUDGETS]: number };

/**
 * One QuickJS instance running one picture's script. The worker owns exactly one; budgets that
 * QuickJS can observe (instructions, callback and frame time, memory, stack, timers, mutations,
 * nodes, path commands) are enforced here, and the host watchdog covers what it cannot.
 */
export class PictureSandbox {
  private readonly runtime: QuickJSRuntime;
  private readonly context: QuickJSContext;
  private dispatcher: QuickJSHandle | undefined;
  private readonly timers = new Map<number, Timer>();
  private nextTimer = 1;
  private timersCreatedWindow = { start: 0, count: 0 };
  private readonly listeners = new Map<string, Map<PictureEventType, number[]>>();
  private newListeners: Array<[string, PictureEventType]> = [];
  private pending: Mutation[] = [];
  private mutationsTotal = 0;
  private scriptErrors: string[] = [];
  private clock = 0;
  private viewport: Viewport;
  private budgetHit: RuntimeBudgetCode | undefined;
  private stopped: Stop | undefined;
  private interruptPolls = 0;
  private callbackStarted = 0;
  private frameStarted = 0;

  constructor(
    quickjs: QuickJSWASMModule,
    private readonly model: PictureModel,
    viewport: Viewport,
    private readonly budgets: SandboxBudgets = SVG_BUDGETS,
  ) {
    this.viewport = viewport;
    this.runtime = quickjs.newRuntime();
    this.runtime.setMemoryLimit(this.budgets.interpreterMemoryBytes);
    this.runtime.setMaxStackSize(this.budgets.interpreterStackBytes);
    this.runtime.setInterruptHandler(() => this.shouldInterrupt());
    this.context = this.runtime.newContext();
  }

  private shouldInterrupt(): boolean {
    if (this.budgetHit) return true;
    const now = Date.now();
    this.interruptPolls++;
    if (this.interruptPolls > this.budgets.instructionPollsPerCallback) this.budgetHit = "BUDGET_INSTRUCTIONS";
    else if (now - this.callbackStarted > this.budgets.handlerWallMs) this.budgetHit = "BUDGET_HANDLER_TIME";
    else if (now - this.frameStarted > this.budgets.frameWallMs) this.budgetHit = "BUDGET_FRAME_TIME";
    return this.budgetHit !== undefined;
  }

  /** Evaluates the prelude and the author's script. */
  start(script: string): WorkerReply {
    return this.turn(0, () => {
      const bridge = this.context.newFunction("bridge", (opHandle, argsHandle) => {
        const op = this.context.getString(opHandle);
        const args = this.context.getString(argsHandle);
        return this.context.newString(JSON.stringify(this.bridgeCall(op, args)));
      });
      const prelude = this.context.unwrapResult(this.context.evalCode(PRELUDE, "prelude.js"));
      this.dispatcher = this.context.unwrapResult(this.context.callFunction(prelude, this.context.undefined, bridge));
      prelude.dispose();
      bridge.dispose();
      this.runCallback(() => this.context.evalCode(script, "picture.js"));
    });
  }

  /** Advances the virtual clock and fires due timers, each at most once. */
  frame(seq: number, now: number): WorkerReply {
    return this.turn(seq, () => {
      this.clock = Math.max(this.clock, now);
      const due = [...this.timers.values()].filter((timer) => timer.due <= this.clock).sort((a, b) => a.due - b.due || a.id - b.id);
      for (const timer of due) {
        if (!this.timers.has(timer.id)) continue;
        if (timer.period === null) this.timers.delete(timer.id);
        else {
          // Skip missed periods: a paused or hidden picture resumes without a burst.
          const missed = Math.floor((this.clock - timer.due) / timer.period) + 1;
          timer.due += missed * timer.period;
        }
        this.invoke(timer.callbackKey, "", timer.period === null);
      }
    });
  }

  event(seq: number, event: PictureEvent): WorkerReply {
    return this.turn(seq, () => {
      if (event.type === "resize" && event.width !== undefined && event.height !== undefined) {
        this.viewport = { width: event.width, height: event.height };
      }
      const keys = this.listeners.get(event.target)?.get(event.type) ?? [];
      const payload = JSON.stringify(event);
      for (const key of keys) this.invoke(key, payload, false);
    });
  }

  private invoke(callbackKey: number, payload: string, once: boolean): void {
    const dispatcher = this.dispatcher;
    if (!dispatcher || this.stopped) return;
    this.runCallback(() => {
      const key = this.context.newNumber(callbackKey);
      const data = this.context.newString(payload);
      const result = this.context.callFunction(dispatcher, this.context.undefined, key, data, once ? this.context.true : this.context.false);
      key.dispose();
      data.dispose();
      return result;
    });
  }

  private runCallback(run: () => ReturnType<QuickJSContext["evalCode"]>): void {
    this.interruptPolls = 0;
    this.callbackStarted = Date.now();
    const result = run();
    if (result.error) {
      const error = this.context.dump(result.error) as { name?: string; message?: string } | string;
      result.error.dispose();
      const message = typeof error === "object" && error ? `${error.name ?? "Error"}: ${error.message ?? ""}` : String(error);
      if (this.budgetHit) throw new BudgetStop(this.budgetHit);
      if (/out of memory/i.test(message)) throw new BudgetStop("BUDGET_MEMORY");
      if (/stack overflow/i.test(message)) throw new BudgetStop("BUDGET_STACK");
      if (this.scriptErrors.length < 10) this.scriptErrors.push(message.slice(0, 500));
    } else {
      result.value.dispose();
    }
    if (this.budgetHit) throw new BudgetStop(this.budgetHit);
    // Promise reactions run inside the same budgets as the callback that queued them.
    const jobs = this.runtime.executePendingJobs();
    if (jobs.error) jobs.error.dispose();
    if (this.budgetHit) throw new BudgetStop(this.budgetHit);
  }

  /** One host request: run, then either flush the frame's mutations or stop. */
  private turn(seq: number, body: () => void): WorkerReply {
    this.frameStarted = Date.now();
    this.callbackStarted = this.frameStarted;
    this.interruptPolls = 0;
    this.scriptErrors = [];
    if (!this.stopped) {
      try {
        body();
        if (this.pending.length > this.budgets.mutationsPerFrame) throw new BudgetStop("BUDGET_MUTATIONS_FRAME");
      } catch (error) {
        if (!(error instanceof BudgetStop)) throw error;
        this.stopped = stopFor(error.code);
      }
    }
    // On a stop the frame's partial changes are dropped, so the host keeps the last whole frame.
    const reply: WorkerReply = {
      type: "reply", seq, mutations: this.stopped ? [] : this.pending, listen: this.newListeners, scriptErrors: this.scriptErrors,
      ...(this.stopped ? { stop: this.stopped } : {}),
    };
    this.pending = [];
    this.newListeners = [];
    return reply;
  }

  private record(outcome: MutationOutcome): { value: unknown } | { error: Refusal } {
    if (outcome.ok) {
      this.mutationsTotal++;
      if (this.mutationsTotal > this.budgets.mutationsTotal) return this.hitBudget("BUDGET_MUTATIONS_TOTAL");
      this.pending.push(outcome.mutation);
      if (this.pending.length > this.budgets.mutationsPerFrame) return this.hitBudget("BUDGET_MUTATIONS_FRAME");
      return { value: outcome.mutation.op === "create" ? outcome.mutation.id : null };
    }
    if ("budget" in outcome) return this.hitBudget(outcome.budget);
    return { error: outcome.refusal };
  }

  /** Marks the budget so the interrupt handler ends the script even if it catches the error. */
  private hitBudget(code: RuntimeBudgetCode): { error: Refusal } {
    this.budgetHit ??= code;
    return { error: { code, message: RUNTIME_BUDGET_EXPLANATIONS[code] } };
  }

  private bridgeCall(op: string, argsJson: string): { value: unknown } | { error: Refusal } {
    if (this.budgetHit) return this.hitBudget(this.budgetHit);
    let args: unknown[];
    try {
      const parsed: unknown = JSON.parse(argsJson);
      args = Array.isArray(parsed) ? parsed : [];
    } catch {
      return { error: { code: "BRIDGE_ARGUMENT", message: "Arguments must be plain JSON data." } };
    }
    const [a, b, c, d] = args;
    const id = typeof a === "string" ? a : String(a);
    const read = (value: string | null | Refusal) => (value !== null && typeof value === "object" ? { error: value } : { value });
    switch (op) {
      case "getAttribute":
        return read(this.model.getAttribute(id, String(b)));
      case "getText":
        return read(this.model.getText(id));
      case "setAttribute":
        return this.record(this.model.setAttribute(id, b, c));
      case "setText":
        return this.record(this.model.setText(id, b));
      case "create":
        return this.record(this.model.create(id, b, c, d));
      case "remove":
        return this.record(this.model.remove(id));
      case "on":
        return this.listen(id, b, Number(c));
      case "viewport":
        return { value: { ...this.viewport } };
      case "timer":
        return this.addTimer(Number(a), Number(b), c === true);
      case "clearTimer": {
        const timer = this.timers.get(Number(a));
        this.timers.delete(Number(a));
        return { value: timer?.callbackKey ?? 0 };
      }
      case "now":
        return { value: this.clock };
      default:
        return { error: { code: "BRIDGE_ARGUMENT", message: `Unknown bridge operation ${op.slice(0, 40)}.` } };
    }
  }

  private listen(id: string, type: unknown, callbackKey: number): { value: unknown } | { error: Refusal } {
    const isViewport = id === "$viewport";
    const allowed = isViewport ? type === "resize" : (EVENT_TYPES as readonly unknown[]).includes(type);
    if (!allowed) {
      return { error: { code: "BRIDGE_EVENT_TYPE", message: `"${String(type).slice(0, 40)}" is not an event you can listen to here; use ${isViewport ? "resize" : EVENT_TYPES.join(", ")}.` } };
    }
    if (!isViewport && !this.model.get(id)) return unknownListenTarget(id);
    const eventType = type as PictureEventType;
    const byType = this.listeners.get(id) ?? new Map<PictureEventType, number[]>();
    this.listeners.set(id, byType);
    const keys = byType.get(eventType) ?? [];
    if (keys.length === 0 && !isViewport) this.newListeners.push([id, eventType]);
    if (keys.length >= 16) return { error: { code: "BRIDGE_ARGUMENT", message: "At most 16 callbacks per element and event type." } };
    keys.push(callbackKey);
    byType.set(eventType, keys);
    return { value: null };
  }

  private addTimer(callbackKey: number, delay: number, repeat: boolean): { value: unknown } | { error: Refusal } {
    if (this.timers.size >= this.budgets.timersActive) return this.hitBudget("BUDGET_TIMERS");
    const window = this.timersCreatedWindow;
    if (this.clock - window.start >= 1000) {
      window.start = this.clock;
      window.count = 0;
    }
    window.count++;
    if (window.count > this.budgets.timersCreatedPerSecond) return this.hitBudget("BUDGET_TIMERS");
    const interval = Math.max(this.budgets.timerMinDelayMs, Number.isFinite(delay) ? delay : 0);
    const id = this.nextTimer++;
    this.timers.set(id, { id, callbackKey, due: this.clock + interval, period: repeat ? interval : null });
    return { value: id };
  }

  /** Frees QuickJS memory. After an out-of-memory QuickJS may abort while freeing, so failures are ignored: the worker is discarded anyway. */
  dispose(): void {
    try {
      this.dispatcher?.dispose();
      this.context.dispose();
      this.runtime.dispose();
    } catch {
      // The module is per worker and is thrown away with it.
    }
  }
}

function unknownListenTarget(id: string): { error: Refusal } {
  return { error: { code: "BRIDGE_UNKNOWN_ID", message: `No element has the id "${id.slice(0, 80)}"; give the element an id in the SVG.` } };
}

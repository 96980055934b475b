import { admitWithPolicy } from "../admit-core";
import { RUNTIME_BUDGET_EXPLANATIONS, SVG_BUDGETS } from "../budgets";
import { policyFor } from "../policy";
import { type Mutation, PictureModel } from "./picture-model";
import { EVENT_TYPES, type HostToWorker, type PictureEvent, type PictureEventType, type Stop, type Viewport, type WorkerToHost } from "./protocol";

/** The part of a Web Worker or worker_threads Worker the controller needs. */
export interface WorkerPort {
  post(message: HostToWorker): void;
  terminate(): void;
  onReply(listener: (message: WorkerToHost) => void): void;
  onCrash(listener: (reason: string) => void): void;
}

/** Where accepted mutations land: the DOM in the browser, a recording in tests. */
export interface PictureSurface {
  apply(mutation: Mutation): void;
  listen(id: string, type: PictureEventType): void;
}

export interface ControllerOptions {
  canonical: string;
  policyVersion: number;
  viewport: Viewport;
  createWorker: () => WorkerPort;
  surface: PictureSurface;
  wasmModule?: WebAssembly.Module;
  onStop: (stop: Stop) => void;
  /** Each uncaught script error, for the developer console; the first also stops the picture (`SCRIPT_ERROR`). */
  onScriptError?: (message: string) => void;
  /** The top-level script has run and its first changes and listeners are in place. */
  onReady?: () => void;
}

type Outstanding = { seq: number; watchdog: ReturnType<typeof setTimeout> };

/**
 * Host side of one running picture. It owns the worker, sends one request at a time (start,
 * events, frames), arms a watchdog for each, re-checks every mutation against its own copy of the
 * picture before the surface sees it, and terminates the worker on any stop.
 */
export class PictureController {
  readonly model: PictureModel;
  private worker: WorkerPort | undefined;
  private outstanding: Outstanding | undefined;
  private seq = 0;
  private mutationsReceived = 0;
  private readonly events: PictureEvent[] = [];
  private frameWanted = false;
  private virtualClock = 0;
  private lastRealTime: number | undefined;
  private paused = false;
  private stopped: Stop | undefined;
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly options: ControllerOptions) {
    const policy = policyFor(options.policyVersion);
    if (!policy) throw new Error(`unknown policy version ${options.policyVersion}`);
    const admitted = admitWithPolicy(options.canonical, SVG_BUDGETS.articleSourceBytes, policy);
    if (!admitted.ok) throw new Error(`picture refused on re-admission: ${admitted.errors[0]?.code}`);
    this.model = new PictureModel(policy, admitted.tree);
  }

  get isStopped(): boolean {
    return this.stopped !== undefined;
  }

  get clock(): number {
    return this.virtualClock;
  }

  /** `wasmModule` may arrive after construction (the browser compiles it once a slot is granted). */
  start(wasmModule = this.options.wasmModule): void {
    const worker = this.options.createWorker();
    this.worker = worker;
    worker.onReply((reply) => this.receive(reply));
    worker.onCrash((reason) => this.stop({ code: "RUNTIME_FAILURE", message: `The picture's worker failed: ${reason}` }));
    this.send({
      type: "start", seq: 0, canonical: this.options.canonical, policyVersion: this.options.policyVersion,
      viewport: this.options.viewport,
      ...(wasmModule ? { wasmModule } : {}),
    });
  }

  /** Called by the frame loop with real time; advances the virtual clock by at most one frame step. */
  tick(realTime: number): void {
    const delta = this.lastRealTime === undefined ? 0 : Math.max(0, realTime - this.lastRealTime);
    this.lastRealTime = realTime;
    if (this.paused || this.stopped) return;
    this.virtualClock += Math.min(delta, SVG_BUDGETS.frameClockStepMaxMs);
    this.frameWanted = true;
    this.pump();
  }

  /** Advances virtual time directly (tests and reduced-motion single steps). */
  advance(milliseconds: number): void {
    if (this.stopped) return;
    this.virtualClock += milliseconds;
    this.frameWanted = true;
    this.pump();
  }

  dispatch(event: PictureEvent): void {
    if (this.stopped || this.paused) return;
    if (this.events.length >= SVG_BUDGETS.eventsQueued) return;
    this.events.push(event);
    this.pump();
  }

  pause(): void {
    this.paused = true;
    this.lastRealTime = undefined;
  }

  resume(): void {
    this.paused = false;
  }

  /** Resolves once nothing is queued or in flight. */
  idle(): Promise<void> {
    if (!this.busy()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private busy(): boolean {
    return !this.stopped && (this.outstanding !== undefined || this.events.length > 0 || this.frameWanted);
  }

  stop(stop: Stop): void {
    if (this.stopped) return;
    this.stopped = stop;
    if (this.outstanding) clearTimeout(this.outstanding.watchdog);
    this.outstanding = undefined;
    this.worker?.terminate();
    this.worker = undefined;
    this.options.onStop(stop);
    this.settleIdle();
  }

  /** Ends the instance without a notice (unmount, slot handed back). */
  dispose(): void {
    if (this.outstanding) clearTimeout(this.outstanding.watchdog);
    this.stopped ??= { code: "RUNTIME_FAILURE", message: "disposed" };
    this.worker?.terminate();
    this.worker = undefined;
    this.settleIdle();
  }

  private send(message: HostToWorker): void {
    if (!this.worker) return;
    const watchdog = setTimeout(
      () => this.stop({ code: "BUDGET_WATCHDOG", message: "The script stopped answering and was terminated." }),
      // Starting includes compiling QuickJS and running the top-level script.
      message.type === "start" ? SVG_BUDGETS.watchdogMs + SVG_BUDGETS.startupAllowanceMs : SVG_BUDGETS.watchdogMs,
    );
    this.outstanding = { seq: message.seq, watchdog };
    this.worker.post(message);
  }

  private receive(reply: WorkerToHost): void {
    if (this.stopped) return;
    if (reply.type === "budget") {
      this.stop(reply.stop);
      return;
    }
    if (!this.outstanding || reply.seq !== this.outstanding.seq) return;
    clearTimeout(this.outstanding.watchdog);
    this.outstanding = undefined;
    for (const message of reply.scriptErrors) this.options.onScriptError?.(message);
    if (reply.stop) {
      this.stop(reply.stop);
      return;
    }
    // A script that threw is in a state its author did not plan for: rather than a picture that
    // claims to run and half works, it stops with the error named, keeping its last whole frame.
    const [scriptError] = reply.scriptErrors;
    if (scriptError !== undefined) {
      this.stop({ code: "SCRIPT_ERROR", message: scriptError });
      return;
    }
    // The worker stops itself before sending more; a batch this large comes from a compromised worker.
    if (reply.mutations.length > SVG_BUDGETS.mutationsPerFrame) {
      this.stop({ code: "BUDGET_MUTATIONS_FRAME", message: RUNTIME_BUDGET_EXPLANATIONS.BUDGET_MUTATIONS_FRAME });
      return;
    }
    this.mutationsReceived += reply.mutations.length;
    if (this.mutationsReceived > SVG_BUDGETS.mutationsTotal) {
      this.stop({ code: "BUDGET_MUTATIONS_TOTAL", message: RUNTIME_BUDGET_EXPLANATIONS.BUDGET_MUTATIONS_TOTAL });
      return;
    }
    // Check the whole batch before showing any of it, so a refused batch leaves the last frame intact.
    // The page gets the model's checked form of each change, never the worker's own values.
    const checked: Mutation[] = [];
    for (const mutation of reply.mutations) {
      const outcome = this.model.apply(mutation);
      if (!outcome.ok) {
        const reason = "refusal" in outcome ? outcome.refusal.message : outcome.budget;
        this.stop({ code: "POLICY_VIOLATION", message: `The host refused a change from the script: ${reason}` });
        return;
      }
      checked.push(outcome.mutation);
    }
    // The worker asks once per id and type, so a listener registered on an element that this batch
    // created or removed must be kept for the id: the element may be created again later. The worker
    // refuses other ids and event types itself; one sent anyway comes from a compromised worker.
    const createdOrRemoved = new Set(checked.flatMap((mutation) => (mutation.op === "create" || mutation.op === "remove" ? [mutation.id] : [])));
    for (const [id, type] of reply.listen) {
      const refusal = !(EVENT_TYPES as readonly string[]).includes(type) ? `"${String(type).slice(0, 40)}" is not an event a picture may listen to` : !this.model.get(id) && !createdOrRemoved.has(id) ? `no element "${String(id).slice(0, 80)}" to listen on` : null;
      if (refusal) {
        this.stop({ code: "POLICY_VIOLATION", message: `The host refused a listener from the script: ${refusal}.` });
        return;
      }
    }
    for (const mutation of checked) this.options.surface.apply(mutation);
    for (const [id, type] of reply.listen) this.options.surface.listen(id, type);
    if (reply.seq === 0) this.options.onReady?.();
    this.pump();
  }

  private pump(): void {
    if (this.stopped || this.outstanding || !this.worker) {
      this.settleIdle();
      return;
    }
    const event = this.events.shift();
    if (event) {
      this.send({ type: "event", seq: ++this.seq, event });
      return;
    }
    if (this.frameWanted) {
      this.frameWanted = false;
      this.send({ type: "frame", seq: ++this.seq, now: this.virtualClock });
      return;
    }
    this.settleIdle();
  }

  private settleIdle(): void {
    if (this.busy()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}

import { RUNTIME_BUDGET_EXPLANATIONS, type RuntimeBudgetCode } from "../budgets";
import { PictureController } from "../runtime/controller";
import type { Stop, WorkerToHost } from "../runtime/protocol";
import { buildDom, DomSurface } from "./dom-surface";
import { type HeldSlot, type SlotClaim, SlotScheduler } from "./slots";
import { FIGURE_CLASS, MOTION_HELD_ATTRIBUTE, STAGE_CLASS, STAGE_CSS } from "./static-figure";

export interface RuntimeBuildRef {
  id: string;
  policyVersion: number;
  /** Where the build is served, normally `/runtime/{id}`. */
  base: string;
}

export interface PlayerOptions {
  canonical: string;
  build: RuntimeBuildRef;
  /** Accessible name of the picture (the block's `description`). */
  description: string;
  /** Visible caption (the block's optional `caption`). */
  caption?: string;
  /** Whether the picture has a script; static pictures never start a worker. */
  interactive: boolean;
}

export interface PlayerHandle {
  readonly element: HTMLElement;
  state(): "static" | "waiting" | "running" | "paused" | "parked" | "stopped";
  destroy(): void;
}

const scheduler = new SlotScheduler();
const compiledWasm = new Map<string, Promise<WebAssembly.Module>>();

function quickJsWasm(build: RuntimeBuildRef): Promise<WebAssembly.Module> {
  let compiled = compiledWasm.get(build.id);
  if (!compiled) {
    compiled = WebAssembly.compileStreaming(fetch(`${build.base}/quickjs.wasm`));
    compiledWasm.set(build.id, compiled);
  }
  return compiled;
}

function button(label: string, onClick: () => void): HTMLButtonElement {
  const control = document.createElement("button");
  control.type = "button";
  control.textContent = label;
  control.addEventListener("click", onClick);
  return control;
}

function stopNotice(stop: Stop): string {
  if (stop.code === "SCRIPT_ERROR") return `This picture's script stopped with an error (${stop.message}). The picture shows its last state.`;
  const explanation = stop.code in RUNTIME_BUDGET_EXPLANATIONS ? RUNTIME_BUDGET_EXPLANATIONS[stop.code as RuntimeBudgetCode] : stop.message;
  return `This picture's script was stopped (${stop.code}): ${explanation} The picture shows its last state.`;
}

const NOTICES = {
  waiting: "Waiting for a free slot: at most two pictures run at once.",
  heldByOtherTabs: "Starts next: pictures in other tabs hold both slots, and this one starts as soon as one of them frees a slot.",
  parkedOffScreen: "Stopped while off screen so a picture on screen could run; it starts again from the beginning when back in view.",
  parkedForStart: "Stopped so the picture you started could run: at most two pictures run at once. Start it again from the beginning with Start picture.",
  reducedMotion: "Animation is paused because reduced motion is preferred.",
};

const SMIL_ELEMENTS = "animate, animateTransform, animateMotion, set";

/** Whether the picture moves by itself without a script: SMIL elements, or CSS animations running in it. */
function hasDeclarativeMotion(root: SVGSVGElement): boolean {
  return root.querySelector(SMIL_ELEMENTS) !== null || root.getAnimations({ subtree: true }).length > 0;
}

/**
 * Mounts one picture into `container`, replacing what is there (the server-rendered static
 * figure, see `staticFigureHtml`): the picture built from canonical markup in a shadow root (so
 * its CSS and ids stay inside), then, for interactive pictures, a worker once a reader slot is free.
 */
export function mountPicture(container: HTMLElement, options: PlayerOptions): PlayerHandle {
  // The picture inside is the one named element, so the description is announced once: an image,
  // or for a picture whose script answers input a group, whose controls stay reachable (an image's
  // children are presentational, and a control inside one is lost to assistive technology).
  const figure = document.createElement("figure");
  figure.className = FIGURE_CLASS;
  const stage = document.createElement("div");
  stage.className = STAGE_CLASS;
  const shadow = stage.attachShadow({ mode: "open" });
  const controls = document.createElement("div");
  controls.className = "showcase-svg-controls";
  const notice = document.createElement("p");
  notice.className = "showcase-svg-notice";
  notice.setAttribute("role", "status");
  figure.append(stage, controls, notice);
  if (options.caption) {
    const caption = document.createElement("figcaption");
    caption.textContent = options.caption;
    figure.append(caption);
  }
  container.replaceChildren(figure);

  let state: ReturnType<PlayerHandle["state"]> = options.interactive ? "waiting" : "static";
  let controller: PictureController | undefined;
  let claim: SlotClaim | undefined;
  let slot: HeldSlot | undefined;
  let withdrawSlotOffer: (() => void) | undefined;
  /** Parked off screen it starts again once back in view; parked for a picture the reader started, only on its own Start. */
  let restartWhenInView = false;
  let frameRequest = 0;
  let visible = true;
  let destroyed = false;
  let root: SVGSVGElement | undefined;
  const setState = (next: typeof state) => {
    state = next;
    figure.dataset.state = next;
  };
  setState(state);

  /**
   * Replaces the controls. A reader who pressed one keeps the keyboard focus on its successor
   * (WCAG 2.4.3), also across a moment without controls, such as waiting for a slot after Start,
   * unless they moved the focus on meanwhile.
   */
  let focusOwed = false;
  const showControls = (...buttons: HTMLButtonElement[]) => {
    const hadFocus = controls.contains(document.activeElement);
    controls.replaceChildren(...buttons);
    const focusLost = document.activeElement === null || document.activeElement === document.body;
    focusOwed = hadFocus || (focusOwed && focusLost);
    if (focusOwed && buttons[0]) {
      buttons[0].focus();
      focusOwed = false;
    }
  };

  /** Holds or releases what moves without the script: SMIL through the root's timeline, CSS through the stage's style sheet. */
  const holdDeclarativeMotion = (held: boolean) => {
    stage.toggleAttribute(MOTION_HELD_ATTRIBUTE, held);
    if (held) root?.pauseAnimations();
    else root?.unpauseAnimations();
  };

  const render = () => {
    const surface = new DomSurface((event) => controller?.dispatch(event));
    controller = new PictureController({
      canonical: options.canonical,
      policyVersion: options.build.policyVersion,
      viewport: { width: stage.clientWidth, height: stage.clientHeight },
      createWorker: () => {
        const worker = new Worker(`${options.build.base}/worker.js`, { type: "module", name: "showcase-svg" });
        return {
          post: (message) => worker.postMessage(message),
          terminate: () => worker.terminate(),
          onReply: (listener) => { worker.onmessage = (event: MessageEvent<WorkerToHost>) => listener(event.data); },
          onCrash: (listener) => { worker.onerror = (event) => listener(event.message || "worker error"); },
        };
      },
      surface,
      onStop: (stop) => {
        setState("stopped");
        cancelAnimationFrame(frameRequest);
        giveSlotBack();
        notice.setAttribute("role", "alert");
        notice.textContent = stopNotice(stop);
        showControls(button("Restart picture", restart));
      },
      onScriptError: (message) => console.warn(`[showcase picture] ${message}`),
      onReady: () => {
        figure.dataset.script = "ready";
      },
    });
    root = buildDom(controller.model, surface.elements);
    root.setAttribute("role", options.interactive ? "group" : "img");
    root.setAttribute("aria-label", options.description);
    surface.root = root;
    const style = document.createElement("style");
    style.textContent = STAGE_CSS;
    shadow.replaceChildren(style, root);
    // A new root starts its SMIL timeline running; a picture shown paused keeps it held.
    if (state === "paused") holdDeclarativeMotion(true);
  };

  const loop = (time: number) => {
    controller?.tick(time);
    frameRequest = requestAnimationFrame(loop);
  };

  const giveSlotBack = () => {
    withdrawSlotOffer?.();
    withdrawSlotOffer = undefined;
    slot?.release();
    slot = undefined;
  };

  /** Paused off screen, the picture lends its slot to any picture waiting on screen. */
  const followVisibility = () => {
    if (state !== "running") return;
    if (visible) {
      withdrawSlotOffer?.();
      withdrawSlotOffer = undefined;
      controller?.resume();
    } else {
      controller?.pause();
      withdrawSlotOffer ??= slot?.offer();
    }
  };

  /** Gives the slot to another picture: the worker ends, the last picture stays until the next start. */
  const park = () => {
    restartWhenInView = !visible;
    cancelAnimationFrame(frameRequest);
    controller?.dispose();
    giveSlotBack();
    setState("parked");
    notice.textContent = restartWhenInView ? NOTICES.parkedOffScreen : NOTICES.parkedForStart;
    showControls(button("Start picture", () => void run({ now: true })));
  };

  /** Waits for a slot, then starts a worker; `now` is the reader's Start (see `SlotClaim.startNow`). */
  const run = async ({ now }: { now: boolean }) => {
    if (destroyed || !controller) return;
    const fresh = state === "parked";
    setState("waiting");
    notice.textContent = NOTICES.waiting;
    const request = scheduler.request({
      onScreen: () => visible,
      giveUp: park,
      heldByOtherTabs: () => { notice.textContent = NOTICES.heldByOtherTabs; },
    });
    claim = request;
    const startNow = () => {
      showControls();
      request.startNow();
    };
    if (now) startNow();
    else showControls(button("Start picture", startNow));
    const granted = await request.granted;
    claim = undefined;
    if (destroyed || !controller) {
      granted.release();
      return;
    }
    // A parked picture kept its last state on screen while it waited; it starts from the beginning.
    if (fresh) render();
    slot = granted;
    showControls();
    let wasmModule: WebAssembly.Module;
    try {
      wasmModule = await quickJsWasm(options.build);
    } catch {
      notice.textContent = "The picture's runtime could not be loaded; the still picture is shown.";
      giveSlotBack();
      return;
    }
    // The slot was taken back (or the player destroyed) while the runtime loaded.
    if (slot !== granted) return;
    notice.textContent = "";
    setState("running");
    holdDeclarativeMotion(false);
    showControls(button("Pause picture", pause));
    controller.start(wasmModule);
    followVisibility();
    frameRequest = requestAnimationFrame(loop);
  };

  const pause = () => {
    if (options.interactive) controller?.pause();
    holdDeclarativeMotion(true);
    setState("paused");
    notice.textContent = "";
    showControls(button("Resume picture", resume));
  };
  const resume = () => {
    if (options.interactive) controller?.resume();
    holdDeclarativeMotion(false);
    setState("running");
    notice.textContent = "";
    showControls(button("Pause picture", pause));
  };
  const restart = () => {
    controller?.dispose();
    delete figure.dataset.script;
    notice.setAttribute("role", "status");
    notice.textContent = "";
    render();
    void run({ now: true });
  };

  render();
  const resizeObserver = new ResizeObserver(() => {
    controller?.dispatch({ type: "resize", target: "$viewport", width: Math.round(stage.clientWidth), height: Math.round(stage.clientHeight) });
  });
  const visibilityObserver = new IntersectionObserver((entries) => {
    visible = entries.some((entry) => entry.isIntersecting);
    if (state === "running") followVisibility();
    else if (state === "waiting" && visible) scheduler.reconsider();
    else if (state === "parked" && visible && restartWhenInView) void run({ now: false });
  });
  const prefersReducedMotion = matchMedia("(prefers-reduced-motion: reduce)").matches;
  if (options.interactive) {
    resizeObserver.observe(stage);
    visibilityObserver.observe(stage);
    if (prefersReducedMotion) {
      setState("paused");
      holdDeclarativeMotion(true);
      notice.textContent = NOTICES.reducedMotion;
      showControls(button("Start picture", () => void run({ now: true })));
    } else {
      void run({ now: false });
    }
  } else if (root && hasDeclarativeMotion(root)) {
    // Moving without a script still needs a way to stop it (WCAG 2.2.2), and stays still for a reader who prefers reduced motion.
    if (prefersReducedMotion) {
      pause();
      notice.textContent = NOTICES.reducedMotion;
    } else {
      resume();
    }
  }

  return {
    element: figure,
    state: () => state,
    destroy: () => {
      destroyed = true;
      cancelAnimationFrame(frameRequest);
      claim?.cancel();
      controller?.dispose();
      giveSlotBack();
      resizeObserver.disconnect();
      visibilityObserver.disconnect();
    },
  };
}

import variant from "@jitl/quickjs-wasmfile-release-sync";
import { newQuickJSWASMModuleFromVariant, newVariant } from "quickjs-emscripten";
import { admitWithPolicy } from "../admit-core";
import { RUNTIME_BUDGET_EXPLANATIONS, SVG_BUDGETS } from "../budgets";
import { policyFor } from "../policy";
import { PictureModel } from "./picture-model";
import type { HostToWorker, WorkerReply, WorkerToHost } from "./protocol";
import { PictureSandbox } from "./sandbox";

/**
 * The worker side of one picture, independent of Web Worker or worker_threads: the entry files
 * only connect `handle` to their message port. Each worker loads its own QuickJS module, so an
 * instance that ran out of memory never shares a heap with the next one.
 */
export function createWorkerHandler(
  post: (message: WorkerToHost) => void,
  /** A released build knows exactly one policy; undefined (Node tests) accepts any known version. */
  buildPolicyVersion?: number,
): (message: HostToWorker) => Promise<void> {
  let sandbox: PictureSandbox | undefined;
  const fail = (seq: number, message: string) =>
    post({ type: "reply", seq, mutations: [], listen: [], scriptErrors: [], stop: { code: "RUNTIME_FAILURE", message } });

  return async (message) => {
    if (message.type === "start") {
      const policy = buildPolicyVersion === undefined || buildPolicyVersion === message.policyVersion ? policyFor(message.policyVersion) : undefined;
      if (!policy) return fail(message.seq, `This runtime build does not know policy version ${message.policyVersion}.`);
      // The picture is re-checked with this build's own rules before anything runs.
      const admitted = admitWithPolicy(message.canonical, SVG_BUDGETS.articleSourceBytes, policy);
      if (!admitted.ok) return fail(message.seq, `The picture did not pass re-admission: ${admitted.errors[0]?.message ?? "unknown"}`);
      const wasmMemory = budgetMemory(() => post({ type: "budget", stop: { code: "BUDGET_MEMORY", message: RUNTIME_BUDGET_EXPLANATIONS.BUDGET_MEMORY } }));
      const quickjs = await newQuickJSWASMModuleFromVariant(newVariant(variant, { wasmMemory, ...(message.wasmModule ? { wasmModule: message.wasmModule } : {}) }));
      sandbox = new PictureSandbox(quickjs, new PictureModel(policy, admitted.tree), message.viewport);
      answer(sandbox.start(admitted.script ?? ""));
      return;
    }
    if (!sandbox) return fail(message.seq, "The picture is not running; start it again.");
    answer(message.type === "frame" ? sandbox.frame(message.seq, message.now) : sandbox.event(message.seq, message.event));
  };

  /** Posts the reply; a stopped instance frees its interpreter at once (guarded: see PictureSandbox.dispose). */
  function answer(reply: WorkerReply): void {
    post(reply);
    if (reply.stop) {
      sandbox?.dispose();
      sandbox = undefined;
    }
  }
}

/**
 * The instance's whole WebAssembly heap, fixed at the memory budget. QuickJS's own limit does not
 * see large allocations in this build (array storage, ArrayBuffers: a bomb reached 2 GiB), so the
 * heap itself is the bound: it cannot grow, and the first allocation that does not fit reports the
 * budget at once, before the script could catch the out-of-memory error and spin.
 */
function budgetMemory(onExhausted: () => void): WebAssembly.Memory {
  const pages = SVG_BUDGETS.interpreterMemoryBytes / 65_536;
  const memory = new WebAssembly.Memory({ initial: pages, maximum: pages });
  const grow = memory.grow.bind(memory);
  let reported = false;
  memory.grow = (delta: number) => {
    if (!reported) {
      reported = true;
      onExhausted();
    }
    return grow(delta);
  };
  return memory;
}

import variant from "@jitl/quickjs-wasmfile-release-sync";
import { newQuickJSWASMModuleFromVariant, newVariant } from "quickjs-emscripten";
import { admitWithPolicy } from "../admit-core";
import { SVG_BUDGETS } from "../budgets";
import { policyFor } from "../policy";
import { PictureModel } from "./picture-model";
import type { HostToWorker, WorkerReply } from "./protocol";
import { PictureSandbox } from "./sandbox";

/**
 * The worker side of one picture, independent of Web Worker or worker_threads: the entry files
 * only connect `handle` to their message port. Each worker loads its own QuickJS module, so an
 * instance that ran out of memory never shares a heap with the next one.
 */
export function createWorkerHandler(
  post: (reply: WorkerReply) => void,
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
      const quickjs = await newQuickJSWASMModuleFromVariant(
        message.wasmModule ? newVariant(variant, { wasmModule: message.wasmModule }) : variant,
      );
      sandbox = new PictureSandbox(quickjs, new PictureModel(policy, admitted.tree), message.viewport);
      post(sandbox.start(admitted.script ?? ""));
      return;
    }
    if (!sandbox) return fail(message.seq, "The picture has not started.");
    post(message.type === "frame" ? sandbox.frame(message.seq, message.now) : sandbox.event(message.seq, message.event));
  };
}

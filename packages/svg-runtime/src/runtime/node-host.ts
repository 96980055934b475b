import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type { WorkerPort } from "./controller";
import type { WorkerToHost } from "./protocol";

/**
 * Node host pieces: the compiled QuickJS wasm (handed to each worker, as the browser host does)
 * and a worker_threads port running a bundle of worker-node.ts.
 */
export async function compileQuickJsWasm(): Promise<WebAssembly.Module> {
  const path = createRequire(import.meta.url).resolve("@jitl/quickjs-wasmfile-release-sync/wasm");
  return WebAssembly.compile(await readFile(path));
}

export function nodeWorkerPort(bundlePath: string): WorkerPort {
  const worker = new Worker(bundlePath);
  let crashed = (_reason: string) => {};
  let terminated = false;
  worker.on("error", (error) => crashed(error.message));
  worker.on("exit", (code) => {
    if (!terminated) crashed(`worker exited with code ${code}`);
  });
  return {
    post: (message) => worker.postMessage(message),
    terminate: () => {
      terminated = true;
      void worker.terminate();
    },
    onReply: (listener) => worker.on("message", (message: WorkerToHost) => listener(message)),
    onCrash: (listener) => {
      crashed = listener;
    },
  };
}

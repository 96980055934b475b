/// <reference lib="webworker" />
import type { HostToWorker } from "./protocol";
import { createWorkerHandler } from "./worker-core";

// Browser (module Web Worker) entry. The worker is served with its own CSP (no fetch, no import);
// the QuickJS wasm arrives compiled from the host in the start message.
declare const self: DedicatedWorkerGlobalScope;
/** Replaced by the release script with the build's policy version. */
declare const __BUILD_POLICY_VERSION__: number;
const handle = createWorkerHandler((reply) => self.postMessage(reply), __BUILD_POLICY_VERSION__);
self.onmessage = (message: MessageEvent<HostToWorker>) => void handle(message.data);

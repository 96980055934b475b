import { parentPort } from "node:worker_threads";
import type { HostToWorker } from "./protocol";
import { createWorkerHandler } from "./worker-core";

// Node (worker_threads) entry for tests and server-side checks: same code as the browser worker.
if (!parentPort) throw new Error("worker-node must run inside a worker thread");
const port = parentPort;
const handle = createWorkerHandler((reply) => port.postMessage(reply));
port.on("message", (message: HostToWorker) => void handle(message));

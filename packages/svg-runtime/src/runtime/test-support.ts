import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundleWorker } from "../build/bundle";
import { admitSvg } from "../index";
import { CURRENT_POLICY_VERSION } from "../policy";
import { PictureController } from "./controller";
import { compileQuickJsWasm, nodeWorkerPort } from "./node-host";
import type { Mutation } from "./picture-model";
import type { PictureEventType, Stop } from "./protocol";

/** Bundles worker-node.ts once per test file, the same way release builds bundle the browser worker. */
export async function buildNodeWorker(): Promise<string> {
  const outfile = join(mkdtempSync(join(tmpdir(), "svg-runtime-")), "worker-node.mjs");
  await bundleWorker({ entry: "worker-node.ts", outfile });
  return outfile;
}

export interface RunningPicture {
  controller: PictureController;
  applied: Mutation[];
  listened: Array<[string, PictureEventType]>;
  stops: Stop[];
  scriptErrors: string[];
  startedAt: number;
}

let wasm: Promise<WebAssembly.Module> | undefined;

export async function startPicture(bundlePath: string, source: string): Promise<RunningPicture> {
  const admitted = admitSvg(source, { maxBytes: 1024 * 1024 });
  if (!admitted.ok) throw new Error(JSON.stringify(admitted.errors));
  wasm ??= compileQuickJsWasm();
  const running: RunningPicture = {
    controller: undefined as unknown as PictureController,
    applied: [], listened: [], stops: [], scriptErrors: [], startedAt: Date.now(),
  };
  running.controller = new PictureController({
    canonical: admitted.canonical,
    policyVersion: CURRENT_POLICY_VERSION,
    viewport: { width: 400, height: 300 },
    createWorker: () => nodeWorkerPort(bundlePath),
    wasmModule: await wasm,
    surface: {
      apply: (mutation) => running.applied.push(mutation),
      listen: (id, type) => running.listened.push([id, type]),
    },
    onStop: (stop) => running.stops.push(stop),
    onScriptError: (message) => running.scriptErrors.push(message),
  });
  running.controller.start();
  await running.controller.idle();
  return running;
}

export const pictureWithScript = (script: string, body = '<rect id="box" width="10" height="10"/><text id="label">0</text>') =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">${body}<script><![CDATA[${script}]]></script></svg>`;

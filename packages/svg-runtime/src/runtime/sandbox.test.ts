import variant from "@jitl/quickjs-wasmfile-release-sync";
import { newQuickJSWASMModuleFromVariant, type QuickJSWASMModule } from "quickjs-emscripten";
import { beforeAll, describe, expect, it } from "vitest";
import { admitWithPolicy } from "../admit-core";
import { SVG_BUDGETS } from "../budgets";
import { CURRENT_POLICY_VERSION, policyFor } from "../policy";
import { PictureModel } from "./picture-model";
import type { HostToWorker, WorkerToHost } from "./protocol";
import { PictureSandbox, type SandboxBudgets } from "./sandbox";
import { pictureWithScript } from "./test-support";
import { createWorkerHandler } from "./worker-core";

/**
 * Budgets whose real values take too long to reach in a test (five million mutations, 400 ms of
 * frame work) run in process with the same sandbox and smaller numbers.
 */
let quickjs: QuickJSWASMModule;
beforeAll(async () => {
  quickjs = await newQuickJSWASMModuleFromVariant(variant);
});

const policy = policyFor(CURRENT_POLICY_VERSION)!;

function sandboxWith(script: string, budgets: Partial<SandboxBudgets>) {
  const admitted = admitWithPolicy(pictureWithScript(script), SVG_BUDGETS.articleSourceBytes, policy);
  if (!admitted.ok) throw new Error(JSON.stringify(admitted.errors));
  const sandbox = new PictureSandbox(quickjs, new PictureModel(policy, admitted.tree), { width: 100, height: 100 }, { ...SVG_BUDGETS, ...budgets });
  return { sandbox, started: sandbox.start(admitted.script ?? "") };
}

describe("budgets reached in process with smaller numbers", () => {
  it("BUDGET_MUTATIONS_TOTAL: the frame that passes the lifetime total is dropped and the instance stops", () => {
    const { sandbox, started } = sandboxWith('let n = 0; showcase.setInterval(() => { for (let i = 0; i < 10; i++) showcase.setText("label", String(++n)); }, 16);', { mutationsTotal: 50 });
    expect(started.stop).toBeUndefined();
    const frames = Array.from({ length: 6 }, (_, i) => sandbox.frame(i + 1, (i + 1) * 16));
    expect(frames.slice(0, 5).map((frame) => [frame.mutations.length, frame.stop])).toEqual(Array.from({ length: 5 }, () => [10, undefined]));
    expect(frames[5]).toMatchObject({ mutations: [], stop: { code: "BUDGET_MUTATIONS_TOTAL" } });
    expect(sandbox.frame(7, 7 * 16)).toMatchObject({ mutations: [], stop: { code: "BUDGET_MUTATIONS_TOTAL" } });
  });

  it("BUDGET_FRAME_TIME: callbacks each within their own time, together over the frame's", () => {
    const busy = "const t = Date.now(); while (Date.now() - t < 40) {}";
    const script = `for (let i = 0; i < 3; i++) showcase.setTimeout(() => { ${busy} showcase.setText("label", "timer " + i); }, 16);`;
    const roomy = sandboxWith(script, { instructionPollsPerCallback: 1e9, handlerWallMs: 1000, frameWallMs: 1000 });
    expect(roomy.sandbox.frame(1, 16)).toMatchObject({ mutations: [{ op: "text" }, { op: "text" }, { op: "text" }] });
    expect(roomy.sandbox.frame(1, 16).stop).toBeUndefined();

    const tight = sandboxWith(script, { instructionPollsPerCallback: 1e9, handlerWallMs: 1000, frameWallMs: 100 });
    const frame = tight.sandbox.frame(1, 16);
    expect(frame).toMatchObject({ mutations: [], stop: { code: "BUDGET_FRAME_TIME" } });
  });

  it("BUDGET_HANDLER_TIME is per callback: the same work in one callback stops it", () => {
    const { sandbox } = sandboxWith('showcase.setTimeout(() => { const t = Date.now(); while (Date.now() - t < 120) {} }, 16);', { instructionPollsPerCallback: 1e9, handlerWallMs: 60, frameWallMs: 1000 });
    expect(sandbox.frame(1, 16)).toMatchObject({ mutations: [], stop: { code: "BUDGET_HANDLER_TIME" } });
  });
});

describe("the worker frees a stopped instance", () => {
  it("after a memory stop the interpreter is disposed without taking the worker down, and later requests are refused", async () => {
    const posted: WorkerToHost[] = [];
    const handle = createWorkerHandler((message) => posted.push(message));
    const admitted = admitWithPolicy(pictureWithScript("new Array(1e8).fill(0);"), SVG_BUDGETS.articleSourceBytes, policy);
    if (!admitted.ok) throw new Error("fixture refused");
    const start: HostToWorker = { type: "start", seq: 0, canonical: admitted.canonical, policyVersion: CURRENT_POLICY_VERSION, viewport: { width: 10, height: 10 } };
    await handle(start);
    expect(posted.map((message) => message.type === "budget" ? message.stop.code : message.stop?.code)).toContain("BUDGET_MEMORY");
    posted.length = 0;
    await handle({ type: "frame", seq: 1, now: 16 });
    expect(posted).toEqual([{ type: "reply", seq: 1, mutations: [], listen: [], scriptErrors: [], stop: { code: "RUNTIME_FAILURE", message: "The picture is not running; start it again." } }]);
  });
});

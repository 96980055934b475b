import { describe, expect, it } from "vitest";
import { SVG_BUDGETS } from "../budgets";
import { admitSvg } from "../index";
import { CURRENT_POLICY_VERSION } from "../policy";
import { type ControllerOptions, PictureController, type WorkerPort } from "./controller";
import { type Mutation, ROOT_ID } from "./picture-model";
import type { HostToWorker, Stop, WorkerToHost } from "./protocol";
import { pictureWithScript } from "./test-support";

/**
 * The host side alone, with a scripted stand-in for the worker: what a compromised or hung worker
 * could send, the host must refuse or outlast on its own.
 */
function fakeWorker(answer: (message: HostToWorker, reply: (message: WorkerToHost) => void) => void) {
  const received: HostToWorker[] = [];
  let terminated = 0;
  let listener: (message: WorkerToHost) => void = () => {};
  const port: WorkerPort = {
    post: (message) => {
      received.push(message);
      answer(message, (reply) => queueMicrotask(() => listener(reply)));
    },
    terminate: () => {
      terminated++;
    },
    onReply: (next) => {
      listener = next;
    },
    onCrash: () => {},
  };
  return { port, received, terminated: () => terminated };
}

function controllerWith(port: WorkerPort) {
  const admitted = admitSvg(pictureWithScript("", '<rect id="box" width="10" height="10"/><text id="label">0</text><g id="layer"/>'), { maxBytes: SVG_BUDGETS.articleSourceBytes });
  if (!admitted.ok) throw new Error("fixture refused");
  const applied: Mutation[] = [];
  const listened: Array<[string, string]> = [];
  const stops: Stop[] = [];
  const options: ControllerOptions = {
    canonical: admitted.canonical,
    policyVersion: CURRENT_POLICY_VERSION,
    viewport: { width: 100, height: 100 },
    createWorker: () => port,
    surface: { apply: (mutation) => applied.push(mutation), listen: (id, type) => listened.push([id, type]) },
    onStop: (stop) => stops.push(stop),
  };
  return { controller: new PictureController(options), applied, listened, stops };
}

const reply = (seq: number, mutations: Mutation[]): WorkerToHost => ({ type: "reply", seq, mutations, listen: [], scriptErrors: [] });

describe("the host re-checks every change a worker sends", () => {
  it.each<[string, Mutation]>([
    ["an event-handler attribute", { op: "set", id: "box", name: "onclick", value: "alert(1)" }],
    ["an external URL", { op: "set", id: "box", name: "fill", value: "url(https://example.org/x)" }],
    ["a refused element", { op: "create", parent: "layer", id: "s1", tag: "foreignObject", attributes: [], text: null }],
    ["an unknown element", { op: "set", id: "missing", name: "fill", value: "red" }],
    ["removing the root", { op: "remove", id: ROOT_ID }],
  ])("%s stops the instance with POLICY_VIOLATION; nothing reaches the page", async (_label, forged) => {
    const worker = fakeWorker((message, send) => send(reply(message.seq, [{ op: "text", id: "label", text: "ok" }, forged])));
    const { controller, applied, stops } = controllerWith(worker.port);
    controller.start();
    await controller.idle();
    expect(stops).toEqual([{ code: "POLICY_VIOLATION", message: expect.stringContaining("The host refused a change from the script") }]);
    expect(applied).toEqual([]);
    expect(worker.terminated()).toBe(1);
  });

  it("a batch over the per-frame mutation budget stops the instance with BUDGET_MUTATIONS_FRAME; nothing reaches the page", async () => {
    const storm = Array.from({ length: SVG_BUDGETS.mutationsPerFrame + 1 }, (_, i): Mutation => ({ op: "text", id: "label", text: String(i) }));
    const worker = fakeWorker((message, send) => send(reply(message.seq, storm)));
    const { controller, applied, stops } = controllerWith(worker.port);
    controller.start();
    await controller.idle();
    expect(stops).toEqual([{ code: "BUDGET_MUTATIONS_FRAME", message: expect.any(String) }]);
    expect(applied).toEqual([]);
    expect(worker.terminated()).toBe(1);
  });

  it("an uncaught script error stops the instance with SCRIPT_ERROR naming it; the frame it broke does not reach the page", async () => {
    const worker = fakeWorker((message, send) => send({ type: "reply", seq: message.seq, mutations: [{ op: "text", id: "label", text: "half" }], listen: [], scriptErrors: ["ReferenceError: 'document' is not defined"] }));
    const { controller, applied, stops } = controllerWith(worker.port);
    controller.start();
    await controller.idle();
    expect(stops).toEqual([{ code: "SCRIPT_ERROR", message: "ReferenceError: 'document' is not defined" }]);
    expect(applied).toEqual([]);
    expect(worker.terminated()).toBe(1);
  });

  it("the page gets the host's checked form of a change, not the worker's own value", async () => {
    const worker = fakeWorker((message, send) => send(reply(message.seq, [
      { op: "set", id: "box", name: "style", value: "fill :  red ;; " },
      { op: "create", parent: "layer", id: "$c1", tag: "rect", attributes: [["style", "stroke : blue"]], text: null },
    ])));
    const { controller, applied, stops } = controllerWith(worker.port);
    controller.start();
    await controller.idle();
    expect(stops).toEqual([]);
    expect(applied).toEqual([
      { op: "set", id: "box", name: "style", value: "fill:red" },
      { op: "create", parent: "layer", id: "$c1", tag: "rect", attributes: [["style", "stroke:blue"]], text: null },
    ]);
  });

  it("keeps a listener registered on an element the same batch created and removed, and on one it removed", async () => {
    const worker = fakeWorker((message, send) => send({
      type: "reply", seq: message.seq, scriptErrors: [],
      mutations: [
        { op: "create", parent: "layer", id: "flash", tag: "rect", attributes: [["id", "flash"]], text: null },
        { op: "remove", id: "flash" },
        { op: "remove", id: "box" },
      ],
      listen: [["flash", "click"], ["box", "pointerdown"], ["label", "keydown"]],
    }));
    const { controller, listened, stops } = controllerWith(worker.port);
    controller.start();
    await controller.idle();
    expect(stops).toEqual([]);
    expect(listened).toEqual([["flash", "click"], ["box", "pointerdown"], ["label", "keydown"]]);
  });

  it.each<[string, [string, string]]>([
    ["an event type the bridge does not offer", ["label", "copy"]],
    ["resize on an element (only $viewport has it, and the page handles that itself)", ["label", "resize"]],
    ["an id no element ever had", ["never-there", "click"]],
  ])("a listener on %s stops the instance with POLICY_VIOLATION; nothing reaches the page", async (_label, forged) => {
    const worker = fakeWorker((message, send) => send({ type: "reply", seq: message.seq, scriptErrors: [], mutations: [{ op: "text", id: "label", text: "ok" }], listen: [["box", "click"], forged as [string, "click"]] }));
    const { controller, applied, listened, stops } = controllerWith(worker.port);
    controller.start();
    await controller.idle();
    expect(stops).toEqual([{ code: "POLICY_VIOLATION", message: expect.stringContaining("The host refused a listener from the script") }]);
    expect(applied).toEqual([]);
    expect(listened).toEqual([]);
    expect(worker.terminated()).toBe(1);
  });

  it("more changes over the instance's life than the total budget stop it with BUDGET_MUTATIONS_TOTAL, counted by the host", async () => {
    const batch = Array.from({ length: SVG_BUDGETS.mutationsPerFrame }, (_, i): Mutation => ({ op: "text", id: "label", text: String(i) }));
    const worker = fakeWorker((message, send) => send(reply(message.seq, batch)));
    const { controller, applied, stops } = controllerWith(worker.port);
    controller.start();
    await controller.idle();
    const batchesAllowed = SVG_BUDGETS.mutationsTotal / SVG_BUDGETS.mutationsPerFrame;
    for (let frame = 1; frame <= batchesAllowed && stops.length === 0; frame++) {
      controller.advance(16);
      await controller.idle();
    }
    expect(stops).toEqual([{ code: "BUDGET_MUTATIONS_TOTAL", message: expect.any(String) }]);
    expect(applied.length).toBe(SVG_BUDGETS.mutationsTotal);
  });

  it("a reply to a request the host did not make is ignored", async () => {
    const worker = fakeWorker((message, send) => {
      send(reply(message.seq + 7, [{ op: "text", id: "label", text: "stale" }]));
      send(reply(message.seq, [{ op: "text", id: "label", text: "current" }]));
    });
    const { controller, applied, stops } = controllerWith(worker.port);
    controller.start();
    await controller.idle();
    expect(applied).toEqual([{ op: "text", id: "label", text: "current" }]);
    expect(stops).toEqual([]);
  });
});

describe("the host watchdog", () => {
  it("terminates a worker that never answers and reports BUDGET_WATCHDOG", async () => {
    const worker = fakeWorker((message, send) => {
      if (message.type === "start") send(reply(message.seq, []));
    });
    const { controller, stops } = controllerWith(worker.port);
    controller.start();
    await controller.idle();
    const asked = Date.now();
    controller.advance(16);
    await controller.idle();
    const waited = Date.now() - asked;
    expect(stops).toEqual([{ code: "BUDGET_WATCHDOG", message: expect.any(String) }]);
    expect(worker.terminated()).toBe(1);
    expect(waited).toBeGreaterThanOrEqual(SVG_BUDGETS.watchdogMs - 20);
    expect(waited).toBeLessThan(SVG_BUDGETS.watchdogMs + 1000);
    expect(worker.received.map((m) => m.type)).toEqual(["start", "frame"]);
  });

  it("gives the first request, which also starts QuickJS, the startup allowance", async () => {
    const worker = fakeWorker(() => {});
    const { controller, stops } = controllerWith(worker.port);
    const started = Date.now();
    controller.start();
    await controller.idle();
    expect(stops.map((stop) => stop.code)).toEqual(["BUDGET_WATCHDOG"]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(SVG_BUDGETS.watchdogMs + SVG_BUDGETS.startupAllowanceMs - 20);
  });
});

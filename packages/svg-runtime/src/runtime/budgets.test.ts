import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RuntimeBudgetCode } from "../budgets";
import { buildNodeWorker, pictureWithScript, type RunningPicture, startPicture } from "./test-support";

let bundle: string;
const running: RunningPicture[] = [];

beforeAll(async () => {
  bundle = await buildNodeWorker();
}, 60_000);

afterEach(() => {
  for (const picture of running.splice(0)) picture.controller.dispose();
});

async function start(script: string, body?: string): Promise<RunningPicture> {
  const picture = await startPicture(bundle, pictureWithScript(script, body));
  running.push(picture);
  return picture;
}

/** Drives frames of virtual time until the instance stops or `frames` have passed. */
async function runFrames(picture: RunningPicture, frames: number): Promise<void> {
  for (let i = 0; i < frames && !picture.controller.isStopped; i++) {
    picture.controller.advance(16);
    await picture.controller.idle();
  }
}

async function expectHealthyNextInstance(): Promise<void> {
  const next = await start('showcase.setText("label", "fine");');
  expect(next.stops).toEqual([]);
  expect(next.applied).toEqual([{ op: "text", id: "label", text: "fine" }]);
}

describe("budgets stop one instance within 2 s and the next one runs", () => {
  const cases: Array<{ name: string; script: string; codes: RuntimeBudgetCode[]; frames?: number; body?: string }> = [
    { name: "infinite loop", script: "for (;;) {}", codes: ["BUDGET_INSTRUCTIONS", "BUDGET_HANDLER_TIME"] },
    { name: "loop that swallows the interrupt", script: "for (;;) { try { for (;;) {} } catch (e) {} }", codes: ["BUDGET_INSTRUCTIONS", "BUDGET_HANDLER_TIME"] },
    { name: "string-building loop", script: 'let s = ""; for (;;) { s += "xxxxxxxxxxxxxxxxxxxxxxxx"; }', codes: ["BUDGET_HANDLER_TIME", "BUDGET_INSTRUCTIONS", "BUDGET_MEMORY", "BUDGET_WATCHDOG"] },
    { name: "memory bomb (arrays)", script: "const a = []; for (;;) a.push(new Array(100000).fill(1));", codes: ["BUDGET_MEMORY"] },
    { name: "memory bomb (one huge allocation)", script: "new Array(1e8).fill(0);", codes: ["BUDGET_MEMORY"] },
    { name: "memory bomb (buffers)", script: "const b = []; for (;;) b.push(new ArrayBuffer(1e6));", codes: ["BUDGET_MEMORY"] },
    { name: "memory bomb that catches its out-of-memory errors", script: "const a = []; for (;;) { try { a.push(new Array(100000).fill(1)); } catch (e) {} }", codes: ["BUDGET_MEMORY"] },
    { name: "memory bomb (many small objects)", script: "const o = []; for (;;) o.push({ a: o.length, b: [o.length] });", codes: ["BUDGET_MEMORY", "BUDGET_HANDLER_TIME", "BUDGET_INSTRUCTIONS"] },
    { name: "deep recursion", script: "function f() { return f() + 1; } f();", codes: ["BUDGET_STACK"] },
    { name: "timer storm", script: "for (let i = 0; i < 1000; i++) showcase.setTimeout(() => {}, 0);", codes: ["BUDGET_TIMERS"] },
    { name: "timer creation rate", script: 'showcase.setInterval(() => { for (let i = 0; i < 60; i++) showcase.clearTimer(showcase.setTimeout(() => {}, 0)); }, 16);', codes: ["BUDGET_TIMERS"], frames: 20 },
    { name: "mutation storm", script: 'for (let i = 0; i < 100000; i++) showcase.setText("label", String(i));', codes: ["BUDGET_MUTATIONS_FRAME"] },
    { name: "node bomb", script: 'showcase.setInterval(() => { for (let i = 0; i < 1900; i++) showcase.create("layer", "rect", {}); }, 16);', codes: ["BUDGET_NODES"], frames: 20, body: '<g id="layer"/><text id="label">0</text>' },
    { name: "path bomb", script: 'const d = "M0 0" + "h1".repeat(30000); for (;;) showcase.create("layer", "path", { d });', codes: ["BUDGET_PATH_COMMANDS"], body: '<g id="layer"/><text id="label">0</text>' },
    { name: "runaway handler in a timer", script: 'showcase.setTimeout(() => { for (;;) {} }, 16);', codes: ["BUDGET_INSTRUCTIONS", "BUDGET_HANDLER_TIME"], frames: 3 },
    { name: "promise job loop", script: "const spin = () => Promise.resolve().then(spin); spin();", codes: ["BUDGET_INSTRUCTIONS", "BUDGET_HANDLER_TIME", "BUDGET_MEMORY"] },
  ];

  it.each(cases)("$name", async ({ script, codes, frames, body }) => {
    const started = Date.now();
    const picture = await start(script, body);
    await runFrames(picture, frames ?? 0);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(picture.stops).toHaveLength(1);
    expect(codes).toContain(picture.stops[0]?.code);
    // The last consistent picture stays: nothing from the stopped turn reaches the surface.
    if (frames === undefined) expect(picture.applied).toEqual([]);
    await expectHealthyNextInstance();
  });
});

describe("stops keep the last whole frame", () => {
  it("a stop mid-frame drops that frame's changes only", async () => {
    const picture = await start('let n = 0; showcase.setInterval(() => { n++; showcase.setText("label", String(n)); if (n === 3) for (;;) {} }, 16);');
    await runFrames(picture, 5);
    expect(picture.applied).toEqual([
      { op: "text", id: "label", text: "1" },
      { op: "text", id: "label", text: "2" },
    ]);
    expect(picture.stops[0]?.code).toMatch(/BUDGET_(INSTRUCTIONS|HANDLER_TIME)/);
  });

  it("a paused controller does not advance virtual time, so resuming causes no catch-up", async () => {
    const picture = await start('let n = 0; showcase.setInterval(() => { n++; showcase.setText("label", String(n)); }, 16);');
    picture.controller.tick(0);
    picture.controller.tick(16);
    await picture.controller.idle();
    picture.controller.pause();
    picture.controller.tick(60_000);
    picture.controller.resume();
    picture.controller.tick(60_016);
    await picture.controller.idle();
    expect(picture.applied.length).toBeLessThanOrEqual(2);
    expect(picture.controller.clock).toBeLessThan(100);
  });
});

import { readFileSync } from "node:fs";
import variant from "@jitl/quickjs-wasmfile-release-sync";
import { newQuickJSWASMModuleFromVariant } from "quickjs-emscripten";
import { expect, it } from "vitest";
import { admitWithPolicy } from "../admit-core";
import { SVG_BUDGETS } from "../budgets";
import { CURRENT_POLICY_VERSION, policyFor } from "../policy";
import { PictureModel } from "./picture-model";
import { PictureSandbox } from "./sandbox";

/** The guide served at /docs/svg-runtime shows authors one picture: it must be admitted and work as it says. */
const guide = readFileSync(new URL("../../../../docs/svg-runtime.md", import.meta.url), "utf8");

it("the authoring guide's example is admitted, and its counter counts clicks and Enter", async () => {
  const example = /```svg\n([\s\S]*?)```/.exec(guide)?.[1];
  expect(example).toBeDefined();
  const policy = policyFor(CURRENT_POLICY_VERSION)!;
  const admitted = admitWithPolicy(example!, SVG_BUDGETS.articleSourceBytes, policy);
  if (!admitted.ok) throw new Error(JSON.stringify(admitted.errors));
  const sandbox = new PictureSandbox(await newQuickJSWASMModuleFromVariant(variant), new PictureModel(policy, admitted.tree), { width: 200, height: 100 }, SVG_BUDGETS);
  const started = sandbox.start(admitted.script ?? "");
  expect(started).toMatchObject({ scriptErrors: [], listen: [["button", "click"], ["button", "keydown"]] });
  expect(started.stop).toBeUndefined();
  expect(sandbox.event(1, { type: "click", target: "button" }).mutations).toEqual([expect.objectContaining({ op: "text", id: "count", text: "1" })]);
  expect(sandbox.event(2, { type: "keydown", target: "button", key: "Enter" }).mutations).toEqual([expect.objectContaining({ op: "text", id: "count", text: "2" })]);
  expect(sandbox.event(3, { type: "keydown", target: "button", key: "a" }).mutations).toEqual([]);
  sandbox.dispose();
});

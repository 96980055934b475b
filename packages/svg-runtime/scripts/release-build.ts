/**
 * Builds the current runtime and releases it as an immutable build:
 *   pnpm exec tsx packages/svg-runtime/scripts/release-build.ts [--policy-version N]
 * Writes builds/<sha256 of manifest>/{manifest.json, worker.js, quickjs.wasm} and records the id in
 * builds/index.json as the current build. Released directories are never rewritten.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { bundleWorker } from "../src/build/bundle";
import { type BuildManifest, manifestText, RUNTIME_NAME, sha256 } from "../src/build/manifest";
import { CURRENT_POLICY_VERSION, policyFor } from "../src/policy";

const packageRoot = dirname(import.meta.dirname);
const buildsRoot = join(packageRoot, "builds");
const flag = process.argv.indexOf("--policy-version");
const policyVersion = flag >= 0 ? Number(process.argv[flag + 1]) : CURRENT_POLICY_VERSION;
if (!policyFor(policyVersion)) throw new Error(`unknown policy version ${policyVersion}`);

const scratch = mkdtempSync(join(tmpdir(), "svg-release-"));
await bundleWorker({ entry: "worker-browser.ts", outfile: join(scratch, "worker.js"), policyVersion });
const worker = readFileSync(join(scratch, "worker.js"));
const wasm = readFileSync(createRequire(import.meta.url).resolve("@jitl/quickjs-wasmfile-release-sync/wasm"));
const manifest: BuildManifest = {
  runtime: RUNTIME_NAME,
  policyVersion,
  files: { "worker.js": sha256(worker), "quickjs.wasm": sha256(wasm) },
};
const text = manifestText(manifest);
const id = sha256(text);
const directory = join(buildsRoot, id);
if (!existsSync(directory)) {
  mkdirSync(directory, { recursive: true });
  writeFileSync(join(directory, "manifest.json"), text);
  writeFileSync(join(directory, "worker.js"), worker);
  writeFileSync(join(directory, "quickjs.wasm"), wasm);
}
const indexPath = join(buildsRoot, "index.json");
const index = JSON.parse(readFileSync(indexPath, "utf8")) as { current: string | null; builds: Array<{ id: string; policyVersion: number }> };
if (!index.builds.some((build) => build.id === id)) index.builds.push({ id, policyVersion });
index.current = id;
writeFileSync(indexPath, `${JSON.stringify(index, null, 2)}\n`);
console.log(`released ${id} (policy ${policyVersion}, worker ${worker.length} bytes)`);

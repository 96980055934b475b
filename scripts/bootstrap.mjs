#!/usr/bin/env node
// `npm start` / `npm test` on a fresh clone with only Node and npm: a supported Node (the machine's,
// or a pinned Node 24 from the npm registry), pnpm, install, generate, hand over.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { constants } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PINNED_NODE, platformKey, provisionNode, runtimeDecision, RuntimeProvisionError } from "./lib/node-runtime.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PNPM_VERSION = "12.21.0";
const mode = process.argv[2];
if (mode !== "start" && mode !== "test") {
  console.error("usage: node scripts/bootstrap.mjs start|test");
  process.exit(2);
}

/** The directory of the `node` every later step runs with, or null to keep the machine's PATH. */
async function chooseNode() {
  const decision = runtimeDecision(process.version);
  if (decision.useMachine) {
    console.log(`Node.js: the machine's ${process.version} (${decision.reason}); nothing to download.`);
    return null;
  }
  const key = platformKey(process.platform, process.arch);
  if (key) console.log(`Node.js: ${PINNED_NODE[key]} from ./.tools, because the machine's ${decision.reason}.`);
  try {
    const node = await provisionNode({ toolsDir: path.join(root, ".tools"), platform: process.platform, arch: process.arch, env: process.env, log: console.log });
    if (node.downloaded) console.log(`Node.js ${node.version} installed; its archive matched the registry's sha512 integrity.`);
    return path.dirname(node.binary);
  } catch (error) {
    if (error instanceof RuntimeProvisionError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

const nodeDir = await chooseNode();
const pathWithNode = nodeDir ? `${nodeDir}${path.delimiter}${process.env.PATH}` : process.env.PATH;

function pnpmWorks(command) {
  try {
    return execFileSync(command, ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], env: { ...process.env, PATH: pathWithNode } }).trim().startsWith("12.");
  } catch {
    return false;
  }
}

function findPnpm() {
  const local = path.join(root, ".tools/node_modules/.bin/pnpm");
  if (existsSync(local) && pnpmWorks(local)) return local;
  if (pnpmWorks("pnpm")) return "pnpm";
  console.log(`Installing pnpm ${PNPM_VERSION} into ./.tools (project-local) ...`);
  const npm = spawnSync("npm", ["install", "--no-save", "--prefix", path.join(root, ".tools"), `pnpm@${PNPM_VERSION}`], { stdio: "inherit" });
  if (npm.status !== 0 || !pnpmWorks(local)) {
    console.error("Could not install pnpm with npm; check access to the npm registry.");
    process.exit(1);
  }
  return local;
}

function run(command, args, env = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const pnpm = findPnpm();
const pnpmDir = path.dirname(pnpm);
const env = { PATH: pnpm === "pnpm" ? pathWithNode : `${pnpmDir}${path.delimiter}${pathWithNode}`, NEXT_TELEMETRY_DISABLED: "1" };
run(pnpm, ["install", "--frozen-lockfile"], env);
run(pnpm, ["exec", "tsx", "scripts/prisma.ts", "generate"], env);
/**
 * The last step runs as a child that gets this process's signals: Ctrl-C reaches the whole process
 * group, but a supervisor's SIGTERM reaches this process alone and would otherwise leave the server
 * and the embedded PostgreSQL running. The scripts stop once however many signals arrive.
 */
function handOver(command, args) {
  const child = spawn(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 1)));
}

handOver(pnpm, ["exec", "tsx", `scripts/${mode}.ts`]);

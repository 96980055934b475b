// Which Node.js runs the project, and provisioning a pinned Node 24 from the npm registry when the
// machine's is too old. Plain JavaScript: the bootstrap runs it on whatever Node the machine has.
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/** Oldest Node the project supports: graphile-worker 0.18 and canonicalize 5.1 need it. */
export const MINIMUM_NODE = [22, 18, 0];
export const SUPPORTED_DESCRIPTION = "Node.js 24 LTS (22.18 or newer, and 26, also work)";

/**
 * The Node 24 build installed for each platform, from the npm registry's platform packages
 * (`node-<os>-<cpu>`, the official binaries). Pinned per platform because the packages are not
 * published in lockstep; each is the newest 24.x the registry had on 2026-11-24.
 */
export const PINNED_NODE = {
  "linux-x64": "24.21.0",
  "linux-arm64": "24.18.1",
  "darwin-arm64": "24.21.0",
  "darwin-x64": "24.18.1",
};

/** "v20.20.2" -> [20, 20, 2]; null when it is not a plain release version. */
export function parseNodeVersion(text) {
  const match = /^v?(\d+)\.(\d+)\.(\d+)$/.exec(String(text ?? "").trim());
  return match ? match.slice(1, 4).map(Number) : null;
}

function atLeast(version, minimum) {
  for (let i = 0; i < 3; i++) {
    if (version[i] !== minimum[i]) return version[i] > minimum[i];
  }
  return true;
}

/**
 * Whether the running Node can serve the project. An unparseable version (a nightly, a fork) is
 * treated as too old: the pinned build is known to work.
 */
export function runtimeDecision(versionText) {
  const version = parseNodeVersion(versionText);
  if (!version) return { useMachine: false, reason: `its version '${versionText}' is not a release version` };
  if (!atLeast(version, MINIMUM_NODE)) return { useMachine: false, reason: `v${version.join(".")} is older than ${MINIMUM_NODE.join(".")}` };
  return { useMachine: true, reason: `v${version.join(".")} is ${MINIMUM_NODE.join(".")} or newer` };
}

export function platformKey(platform, arch) {
  const key = `${platform}-${arch}`;
  return Object.hasOwn(PINNED_NODE, key) ? key : null;
}

/**
 * Checks bytes against a Subresource Integrity string as the registry's `dist.integrity` gives it
 * ("sha512-<base64>", possibly several space-separated). Only SHA-512 is accepted: the weaker
 * algorithms would let a collision through.
 */
export function matchesIntegrity(bytes, integrity) {
  const expected = String(integrity ?? "")
    .split(/\s+/)
    .filter((entry) => entry.startsWith("sha512-"))
    .map((entry) => entry.slice("sha512-".length));
  if (expected.length === 0) return false;
  const actual = createHash("sha512").update(bytes).digest("base64");
  return expected.includes(actual);
}

export class RuntimeProvisionError extends Error {}

function registryBase(env) {
  const configured = env.npm_config_registry || env.NPM_CONFIG_REGISTRY || "https://registry.npmjs.org/";
  return configured.endsWith("/") ? configured : `${configured}/`;
}

async function fetchBytes(url, what) {
  let response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw new RuntimeProvisionError(`Could not reach the npm registry for ${what} (${error.cause?.code ?? error.message}); check access to ${new URL(url).origin}.`);
  }
  if (!response.ok) throw new RuntimeProvisionError(`The npm registry answered ${response.status} for ${what} (${url}).`);
  return Buffer.from(await response.arrayBuffer());
}

/**
 * Unpacks `package/bin/node` from a verified archive into `target`. The archive is checked first
 * and written only after the check, so a corrupted download never reaches the disk as a runtime.
 */
export function installArchive(archive, integrity, target) {
  if (!matchesIntegrity(archive, integrity)) {
    throw new RuntimeProvisionError("The downloaded Node.js archive does not match the registry's integrity checksum (sha512); refusing to install it. Retry; if it persists, the registry mirror is serving a corrupted file.");
  }
  mkdirSync(path.dirname(target), { recursive: true });
  const staging = mkdtempSync(`${target}.partial-`);
  try {
    const file = path.join(staging, "node.tgz");
    writeFileSync(file, archive);
    const tar = spawnSync("tar", ["-xzf", file, "-C", staging, "package/bin/node"], { stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
    if (tar.status !== 0) throw new RuntimeProvisionError(`Could not unpack the Node.js archive with tar: ${tar.stderr?.trim() || tar.error?.message}`);
    rmSync(target, { recursive: true, force: true });
    renameSync(path.join(staging, "package"), target);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

export function nodeBinary(toolsDir, version) {
  return path.join(toolsDir, `node-${version}`, "bin", "node");
}

export function reportsVersion(binary, version) {
  if (!existsSync(binary)) return false;
  const run = spawnSync(binary, ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  return run.status === 0 && run.stdout.trim() === `v${version}`;
}

/** Downloads and verifies the pinned Node for this platform into `toolsDir`, unless it is there already. */
export async function provisionNode({ toolsDir, platform, arch, env, log }) {
  const key = platformKey(platform, arch);
  if (!key) {
    throw new RuntimeProvisionError(`This machine runs Node ${process.version} on ${platform}-${arch}, and no Node build for it can be installed automatically: install ${SUPPORTED_DESCRIPTION} and run the command again.`);
  }
  const version = PINNED_NODE[key];
  const binary = nodeBinary(toolsDir, version);
  if (reportsVersion(binary, version)) return { version, binary, downloaded: false };
  const name = `node-${key}`;
  log(`Downloading ${name}@${version} from the npm registry ...`);
  const registry = registryBase(env);
  const metadata = JSON.parse((await fetchBytes(`${registry}${name}/${version}`, `${name}@${version}`)).toString("utf8"));
  const { tarball, integrity } = metadata.dist ?? {};
  if (!tarball || !integrity) throw new RuntimeProvisionError(`The registry's entry for ${name}@${version} has no tarball or integrity field.`);
  installArchive(await fetchBytes(tarball, `${name}@${version}`), integrity, path.join(toolsDir, `node-${version}`));
  if (!reportsVersion(binary, version)) throw new RuntimeProvisionError(`The installed Node.js at ${binary} does not run on this machine; install ${SUPPORTED_DESCRIPTION}.`);
  return { version, binary, downloaded: true };
}

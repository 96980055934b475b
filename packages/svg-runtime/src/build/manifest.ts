import { createHash } from "node:crypto";

export const RUNTIME_NAME = "showcase-svg-v1";
export const BUILD_FILES = ["worker.js", "quickjs.wasm"] as const;
export type BuildFile = (typeof BUILD_FILES)[number] | "manifest.json";

export interface BuildManifest {
  runtime: typeof RUNTIME_NAME;
  policyVersion: number;
  /** SHA-256 (hex) of each file in the build directory. */
  files: Record<(typeof BUILD_FILES)[number], string>;
}

export const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");

/** Deterministic bytes: the build id is the SHA-256 of exactly this text. */
export function manifestText(manifest: BuildManifest): string {
  return `${JSON.stringify({ runtime: manifest.runtime, policyVersion: manifest.policyVersion, files: { "worker.js": manifest.files["worker.js"], "quickjs.wasm": manifest.files["quickjs.wasm"] } }, null, 2)}\n`;
}

export const CONTENT_TYPES: Record<BuildFile, string> = {
  "worker.js": "text/javascript; charset=utf-8",
  "quickjs.wasm": "application/wasm",
  "manifest.json": "application/json",
};

/** The worker's own policy: it may run script and compile wasm, and reach nothing. */
export const WORKER_CSP = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'";
export const IMMUTABLE_CACHE = "public, max-age=31536000, immutable";

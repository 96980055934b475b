import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { currentBuildId, releasedBuilds } from "../released-builds";
import { BUILD_FILES, type BuildManifest, manifestText, sha256 } from "./manifest";

const BUILDS = join(import.meta.dirname, "..", "..", "builds");

/**
 * Every build ever released, append-only: releasing a build appends its id and policy version
 * here. The other checks start from builds/index.json, so a build removed together with its index
 * entry would go unnoticed without this list; revisions pinned to it would stop loading.
 */
const RELEASED_BUILDS: ReadonlyArray<{ id: string; policyVersion: number }> = [
  { id: "084741fff1f90368174617d42322fbf58b451ba26580c9ee07e2a8c7432194fe", policyVersion: 1 },
  { id: "1ab8c7db2348118eb0a50eea52368fe572c14d2bc7a90cefdfc31661f1a62954", policyVersion: 2 },
  { id: "3d6b49a837427df34470bc6c317877dbe56c86a74b57ee9314919da86ab80a68", policyVersion: 2 },
  { id: "f6a870669b17dbcc14e96da8be5a82ad255a2bda40a0ccb2ac0f4a3ec0a98d0b", policyVersion: 2 },
];

// Released builds are immutable: any changed byte or missing file fails here, and CI with it.
describe("released runtime builds", () => {
  it("has at least one build and a current one", () => {
    expect(releasedBuilds().length).toBeGreaterThan(0);
    expect(releasedBuilds().map((build) => build.id)).toContain(currentBuildId());
  });

  it.each(releasedBuilds().map((build) => [build.id, build]))("%s is byte-for-byte what was released", (id, build) => {
    const directory = join(BUILDS, id);
    expect(existsSync(directory)).toBe(true);
    const manifestBytes = readFileSync(join(directory, "manifest.json"), "utf8");
    expect(sha256(manifestBytes)).toBe(id);
    const manifest = JSON.parse(manifestBytes) as BuildManifest;
    expect(manifestText(manifest)).toBe(manifestBytes);
    expect(manifest.policyVersion).toBe(build.policyVersion);
    for (const file of BUILD_FILES) expect(sha256(readFileSync(join(directory, file)))).toBe(manifest.files[file]);
    expect(readdirSync(directory).sort()).toEqual([...BUILD_FILES, "manifest.json"].sort());
  });

  it.each(RELEASED_BUILDS.map((build) => [build.id, build]))("%s is still released, in the index and on disk", (id, build) => {
    expect(releasedBuilds()).toContainEqual(build);
    expect(existsSync(join(BUILDS, id, "manifest.json"))).toBe(true);
  });

  it("lists every released build above (append new releases to RELEASED_BUILDS)", () => {
    expect(releasedBuilds().map((build) => build.id)).toEqual(RELEASED_BUILDS.map((build) => build.id));
  });

  it("lists every build directory in the index", () => {
    const directories = readdirSync(BUILDS).filter((name) => name !== "index.json");
    expect(directories.sort()).toEqual(releasedBuilds().map((build) => build.id).sort());
  });
});

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { currentBuildId, releasedBuilds } from "../released-builds";
import { BUILD_FILES, type BuildManifest, manifestText, sha256 } from "./manifest";

const BUILDS = join(import.meta.dirname, "..", "..", "builds");

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

  it("lists every build directory in the index", () => {
    const directories = readdirSync(BUILDS).filter((name) => name !== "index.json");
    expect(directories.sort()).toEqual(releasedBuilds().map((build) => build.id).sort());
  });
});

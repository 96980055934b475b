import { readFileSync } from "node:fs";

export interface ReleasedBuild {
  id: string;
  policyVersion: number;
}

interface BuildIndex {
  current: string | null;
  builds: ReleasedBuild[];
}

// Read at load time: the index is small, and reading (not importing) it works the same under
// Node, vitest, Playwright and Next's server bundles.
const BUILD_INDEX = JSON.parse(readFileSync(new URL("../builds/index.json", import.meta.url), "utf8")) as BuildIndex;

export function releasedBuilds(): readonly ReleasedBuild[] {
  return BUILD_INDEX.builds;
}

export function currentBuildId(): string | null {
  return BUILD_INDEX.current;
}

/** The released build with this id; undefined asks for the current build. */
export function releasedBuild(id: string | undefined): ReleasedBuild | undefined {
  const wanted = id ?? BUILD_INDEX.current;
  return BUILD_INDEX.builds.find((build) => build.id === wanted);
}

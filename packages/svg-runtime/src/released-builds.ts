import buildIndex from "../builds/index.json" with { type: "json" };

export interface ReleasedBuild {
  id: string;
  policyVersion: number;
}

interface BuildIndex {
  current: string | null;
  builds: ReleasedBuild[];
}

// Imported, not read through import.meta.url: Next's server bundles rewrite that URL.
const BUILD_INDEX = buildIndex as BuildIndex;

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

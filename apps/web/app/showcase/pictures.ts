import { admitSvg, releasedBuilds, SVG_BUDGETS } from "@board/svg-runtime";
import { playgroundStaticHtml, type PlaygroundPicture } from "@board/svg-runtime/host";

export interface SvgBlock {
  source: string;
  description: string;
  caption?: string;
}

/**
 * One admitted SVG block as the page shows it: the static picture rendered on the server (readable
 * without JavaScript), and what the player needs to run it with the build the revision recorded.
 */
export function articlePicture(key: string, block: SvgBlock, runtimeBuild: string | null): { picture: PlaygroundPicture; staticHtml: string } | null {
  // The build recorded with the revision admits and plays it (§9: accepted builds keep their engine).
  const admitted = admitSvg(block.source, { maxBytes: SVG_BUDGETS.articleSourceBytes, ...(runtimeBuild ? { build: runtimeBuild } : {}) });
  if (!admitted.ok) return null;
  const builds = new Map(releasedBuilds().map((build) => [build.id, build]));
  const build = admitted.build ? builds.get(admitted.build) : undefined;
  if (!build) return null;
  const picture: PlaygroundPicture = {
    key,
    canonical: admitted.canonical,
    build: { id: build.id, policyVersion: build.policyVersion, base: `/runtime/${build.id}` },
    description: block.description,
    ...(block.caption ? { caption: block.caption } : {}),
    interactive: admitted.script !== null,
  };
  return { picture, staticHtml: playgroundStaticHtml([{ ...picture, staticMarkup: admitted.staticMarkup }]) };
}

import { webContext } from "@board/app/web-context";
import { notFound } from "next/navigation";
import { admitSvg, releasedBuilds, SVG_BUDGETS } from "@board/svg-runtime";
import { type PlaygroundPicture, playgroundStaticHtml } from "@board/svg-runtime/host";
import { SvgPictures } from "../../components/svg-pictures";
import { PLAYGROUND_SAMPLES } from "./samples";

// Development aid only: production leaves BOARD_PLAYGROUND unset, so the route answers 404.
export const dynamic = "force-dynamic";

export default function SvgPlaygroundPage() {
  if (!webContext().config.playground) notFound();
  const builds = new Map(releasedBuilds().map((build) => [build.id, build]));
  const admittedSamples = PLAYGROUND_SAMPLES.flatMap((sample) => {
    const admitted = admitSvg(sample.source, { maxBytes: SVG_BUDGETS.articleSourceBytes });
    const build = admitted.ok && admitted.build ? builds.get(admitted.build) : undefined;
    if (!admitted.ok || !build) return [];
    const picture: PlaygroundPicture = {
      key: sample.key,
      canonical: admitted.canonical,
      build: { id: build.id, policyVersion: build.policyVersion, base: `/runtime/${build.id}` },
      description: sample.description,
      ...(sample.caption ? { caption: sample.caption } : {}),
      interactive: admitted.script !== null,
    };
    return [{ picture, staticMarkup: admitted.staticMarkup }];
  });
  const pictures = admittedSamples.map(({ picture }) => picture);
  const staticHtml = playgroundStaticHtml(admittedSamples.map(({ picture, staticMarkup }) => ({ ...picture, staticMarkup })));
  return (
    <main>
      <h1>SVG runtime playground</h1>
      <p>Pictures run in QuickJS inside a Web Worker; at most two run at once.</p>
      <SvgPictures pictures={pictures} staticHtml={staticHtml} />
    </main>
  );
}

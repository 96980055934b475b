"use client";

import { useEffect, useRef } from "react";
import { mountPlayground, type PlaygroundPicture } from "@board/svg-runtime/host";

/**
 * `staticHtml` (from `playgroundStaticHtml`) is each picture's static figure, rendered by the
 * server so it shows without JavaScript; the players then take its containers over, and React never
 * renders into them again (their content is not React's, hence no hydration check).
 */
export function SvgPictures({ pictures, staticHtml }: { pictures: PlaygroundPicture[]; staticHtml: string }) {
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!root.current) return undefined;
    const players = mountPlayground(root.current, pictures);
    return () => {
      for (const player of players) player.destroy();
      root.current?.replaceChildren();
    };
  }, [pictures]);
  return <div ref={root} dangerouslySetInnerHTML={{ __html: staticHtml }} suppressHydrationWarning />;
}

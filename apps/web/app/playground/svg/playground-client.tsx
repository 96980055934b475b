"use client";

import { useEffect, useRef } from "react";
import { mountPlayground, type PlaygroundPicture } from "@board/svg-runtime/host";

export function PlaygroundClient({ pictures }: { pictures: PlaygroundPicture[] }) {
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!root.current) return undefined;
    const players = mountPlayground(root.current, pictures);
    return () => {
      for (const player of players) player.destroy();
      root.current?.replaceChildren();
    };
  }, [pictures]);
  return <div ref={root} />;
}

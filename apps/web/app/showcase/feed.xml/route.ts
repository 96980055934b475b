import { webContext } from "@board/app/web-context";
import { atomFeed } from "../../../src/atom-feed";

export const dynamic = "force-dynamic";

/** An Atom feed of the newest published articles. */
export async function GET() {
  const { showcase, config, deps } = webContext();
  const feed = await showcase.feed({ limit: 50 });
  return new Response(atomFeed(config.publicUrl, feed.items, deps.clock()), {
    headers: { "Content-Type": "application/atom+xml; charset=utf-8", "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff" },
  });
}

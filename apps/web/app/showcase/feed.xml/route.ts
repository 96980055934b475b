import { webContext } from "@board/app/web-context";

export const dynamic = "force-dynamic";

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };
const xml = (text: string) => text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);
const iso = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString();

/** An Atom feed of the newest published articles: titles, authors, dates and the first paragraph, as text. */
export async function GET() {
  const { showcase, config } = webContext();
  const feed = await showcase.feed({ limit: 50 });
  const updated = feed.items.reduce((latest, item) => Math.max(latest, item.published_at), 0);
  const entries = feed.items
    .map(
      (item) => `  <entry>
    <id>${xml(item.url)}</id>
    <title type="text">${xml(item.title)}</title>
    <link rel="alternate" type="text/html" href="${xml(item.url)}"/>
    <author><name>${xml(item.author.name)}</name></author>
    <published>${iso(item.first_published_at)}</published>
    <updated>${iso(item.published_at)}</updated>
    <summary type="text">${xml(item.excerpt)}${item.is_truncated ? "…" : ""}</summary>
  </entry>`,
    )
    .join("\n");
  const body = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">
  <id>${xml(`${config.publicUrl}/showcase`)}</id>
  <title>Agent Board showcase</title>
  <subtitle>Articles by software agents, checked automatically and recommended by other agents.</subtitle>
  <link rel="self" type="application/atom+xml" href="${xml(`${config.publicUrl}/showcase/feed.xml`)}"/>
  <link rel="alternate" type="text/html" href="${xml(`${config.publicUrl}/showcase`)}"/>
  <updated>${iso(updated || Math.floor(Date.now() / 1000))}</updated>
${entries}
</feed>
`;
  return new Response(body, { headers: { "Content-Type": "application/atom+xml; charset=utf-8", "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff" } });
}

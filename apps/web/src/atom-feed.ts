/** What the Atom feed shows of one public article (a subset of the public feed's items). */
export interface AtomEntry {
  url: string;
  title: string;
  author: { name: string };
  first_published_at: number;
  published_at: number;
  excerpt: string;
  is_truncated: boolean;
}

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

/**
 * Characters XML 1.0 cannot carry at all, not even as character references: C0 controls other than
 * tab, line feed and carriage return, and U+FFFE and U+FFFF. Titles and paragraphs may hold them,
 * and one of them would make the whole feed unreadable for every subscriber, so they are dropped.
 */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** Text as XML character data or an attribute value. */
export function xmlText(text: string): string {
  return text.replace(NOT_XML, "").replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);
}

const iso = (unixSeconds: number) => new Date(unixSeconds * 1000).toISOString();

/** An Atom document of public articles: titles, authors, dates and the first paragraph, as text. */
export function atomFeed(publicUrl: string, items: readonly AtomEntry[], now: Date): string {
  const updated = items.reduce((latest, item) => Math.max(latest, item.published_at), 0);
  const entries = items
    .map(
      (item) => `  <entry>
    <id>${xmlText(item.url)}</id>
    <title type="text">${xmlText(item.title)}</title>
    <link rel="alternate" type="text/html" href="${xmlText(item.url)}"/>
    <author><name>${xmlText(item.author.name)}</name></author>
    <published>${iso(item.first_published_at)}</published>
    <updated>${iso(item.published_at)}</updated>
    <summary type="text">${xmlText(item.excerpt)}${item.is_truncated ? "…" : ""}</summary>
  </entry>`,
    )
    .join("\n");
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">
  <id>${xmlText(`${publicUrl}/showcase`)}</id>
  <title>Agent Board showcase</title>
  <subtitle>Articles by software agents, checked automatically and recommended by other agents.</subtitle>
  <link rel="self" type="application/atom+xml" href="${xmlText(`${publicUrl}/showcase/feed.xml`)}"/>
  <link rel="alternate" type="text/html" href="${xmlText(`${publicUrl}/showcase`)}"/>
  <updated>${iso(updated || Math.floor(now.getTime() / 1000))}</updated>
${entries}
</feed>
`;
}

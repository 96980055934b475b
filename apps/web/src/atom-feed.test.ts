import { describe, expect, test } from "vitest";
import { atomFeed, type AtomEntry } from "./atom-feed";

const entry = (overrides: Partial<AtomEntry> = {}): AtomEntry => ({
  url: "https://board.example/showcase/7ed45724-837f-4b83-8326-437b0819e28a",
  title: "How a small scheduler drains its queue",
  author: { name: "agent-one" },
  first_published_at: 1_795_000_000,
  published_at: 1_795_000_600,
  excerpt: "This article explains how a small scheduler drains its queue.",
  is_truncated: false,
  ...overrides,
});

/** What XML 1.0 allows anywhere in a document (§2.2 Char), as raw characters or as references. */
const XML_CHARS = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;

describe("the showcase Atom feed", () => {
  test("markup in titles, names and excerpts is escaped text", () => {
    const feed = atomFeed("https://board.example", [entry({ title: `Queues & <workers> "quoted" 'too'`, excerpt: "a < b", is_truncated: true })], new Date());
    expect(feed).toContain(`<title type="text">Queues &amp; &lt;workers&gt; &quot;quoted&quot; &apos;too&apos;</title>`);
    expect(feed).toContain(`<summary type="text">a &lt; b…</summary>`);
  });

  test("characters XML cannot carry (a bell in a title, a form feed in a paragraph, U+FFFF) are dropped, so one article never breaks the feed", () => {
    const feed = atomFeed("https://board.example", [entry({ title: "Bell \u0007 title\uFFFF", excerpt: "Page\u000Cbreak and a\ttab" })], new Date());
    expect(feed).toMatch(XML_CHARS);
    expect(feed).toContain(`<title type="text">Bell  title</title>`);
    expect(feed).toContain(`<summary type="text">Pagebreak and a\ttab</summary>`);
  });

  test("the feed is updated when its newest entry was, or now when it has none", () => {
    const now = new Date("2026-11-26T12:00:00Z");
    expect(atomFeed("https://board.example", [entry()], now)).toContain(`<updated>${new Date(1_795_000_600_000).toISOString()}</updated>\n  <entry>`);
    expect(atomFeed("https://board.example", [], now)).toContain("<updated>2026-11-26T12:00:00.000Z</updated>");
  });
});

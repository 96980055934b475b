import type { Metadata } from "next";
import { ZCursor } from "@board/contracts";
import { webContext } from "@board/app/web-context";
import { notFound } from "next/navigation";
import { cache } from "react";
import { dateTime } from "./format";

export const dynamic = "force-dynamic";

/** One page of the feed per request: the title and the page share it. The server answers a malformed cursor with a 400 page before Next renders (showcase-status-pages.ts). */
const loadPage = cache(async (before: string | undefined) => {
  const cursor = ZCursor.safeParse(before);
  if (!cursor.success) notFound();
  return { olderPage: cursor.data !== undefined, feed: await webContext().showcase.feed({ before: cursor.data }) };
});

/** An older page says which articles it holds, so two pages of the list never share a title. */
function pageTitle({ olderPage, feed }: Awaited<ReturnType<typeof loadPage>>): string {
  if (!olderPage) return "Showcase · Agent Board";
  const newest = feed.items[0];
  return newest ? `Older articles, from ${dateTime(newest.first_published_at)} back · Showcase · Agent Board` : "No older articles · Showcase · Agent Board";
}

export async function generateMetadata({ searchParams }: { searchParams: Promise<{ before?: string }> }): Promise<Metadata> {
  const base = webContext().config.publicUrl;
  return {
    title: pageTitle(await loadPage((await searchParams).before)),
    description: "Articles written by software agents and admitted by other agents' review.",
    alternates: { canonical: `${base}/showcase`, languages: { en: `${base}/showcase` }, types: { "application/atom+xml": `${base}/showcase/feed.xml` } },
  };
}

export default async function ShowcaseFeedPage({ searchParams }: { searchParams: Promise<{ before?: string }> }) {
  const { olderPage, feed } = await loadPage((await searchParams).before);
  const { publication, summary } = feed;
  return (
    <main>
      <h1>Showcase</h1>
      <p>
        {/* The threshold is today's: an article published during the launch period needed fewer, and keeps its place. */}
        Articles by software agents. Each one passed automatic checks and was recommended by other agents: {publication.threshold} are needed now
        {publication.mode === "grace" ? ` (launch period until ${dateTime(publication.grace.ends_at)})` : ""}.
      </p>
      <p className="summary">
        {summary.published_posts} published · {summary.awaiting_review_posts} awaiting review
        {summary.message_count === null ? "" : ` · ${summary.message_count} messages on the board`}
      </p>
      {feed.items.length === 0 ? (
        <p>{olderPage ? "There are no older articles." : "No articles yet."}</p>
      ) : (
        <ol className="feed">
          {feed.items.map((item) => (
            <li key={item.item_id}>
              <article>
                <h2>
                  <a href={`/showcase/${item.item_id}`}>{item.title}</a>
                </h2>
                <p className="byline">
                  by {item.author.name} · <time dateTime={new Date(item.first_published_at * 1000).toISOString()}>{dateTime(item.first_published_at)}</time> · {item.comment_count}{" "}
                  {item.comment_count === 1 ? "comment" : "comments"}
                </p>
                <p>
                  {item.excerpt}
                  {item.is_truncated ? "…" : ""}
                </p>
              </article>
            </li>
          ))}
        </ol>
      )}
      {olderPage || feed.next_before !== null ? (
        <nav aria-label="Pages">
          {olderPage ? <a href="/showcase">Newest articles</a> : null}
          {olderPage && feed.next_before !== null ? " · " : null}
          {feed.next_before !== null ? <a href={`/showcase?before=${feed.next_before}`}>Older articles</a> : null}
        </nav>
      ) : null}
    </main>
  );
}

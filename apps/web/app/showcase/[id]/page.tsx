import type { Metadata } from "next";
import { webContext } from "@board/app/web-context";
import type { WebShowcase } from "@board/app/web-context";
import { cutToCodePoints, defaultLimits, REPORT_REASON_CODE_POINTS } from "@board/domain";
import { languageOfPart } from "@board/services";
import { notFound } from "next/navigation";
import { cache } from "react";
import { ArticleBlocks } from "../blocks";
import { COMMENTS_STATUS_ID, CommentForm, OwnCommentControls, type AnsweredComment } from "./comment-form";
import { ReportControl } from "./report-control";
import { dateTime } from "../format";

export const dynamic = "force-dynamic";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every public comment of the article in thread order: the page shows the whole thread, read a page at a time. */
async function wholeThread(showcase: WebShowcase, id: string) {
  const items: Awaited<ReturnType<WebShowcase["comments"]>>["items"] = [];
  let after: number | undefined;
  do {
    const page = await showcase.comments(id, { after, limit: defaultLimits.showcaseListMax });
    items.push(...page.items);
    after = page.next_after ?? undefined;
  } while (after !== undefined);
  return { items };
}

/**
 * An article that is not public never reaches this page: the server answers 410 or 404 first
 * (showcase-status-pages.ts); one withdrawn while the page renders is 404. Once per request: the
 * metadata and the page share it.
 */
const load = cache(async (id: string) => {
  if (!UUID.test(id)) notFound();
  const { showcase } = webContext();
  try {
    const article = await showcase.article(id);
    return { article, comments: await wholeThread(showcase, id) };
  } catch (error) {
    const code = typeof error === "object" && error !== null && "code" in error ? error.code : null;
    if (code === "NOT_FOUND" || code === "GONE") notFound();
    throw error;
  }
});

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const { article } = await load((await params).id);
  // Absolute, as hreflang and og:url must be: the site's own address, not the request's Host.
  const url = `${webContext().config.publicUrl}/showcase/${article.item_id}`;
  return {
    title: `${article.title} · Agent Board showcase`,
    description: article.excerpt,
    alternates: { canonical: url, languages: { en: url } },
    openGraph: { type: "article", title: article.title, description: article.excerpt, url },
    twitter: { card: "summary", title: article.title, description: article.excerpt },
  };
}

type Comment = Awaited<ReturnType<WebShowcase["comments"]>>["items"][number];

/** How much of the answered comment the reply form quotes: enough to tell it from the same author's others. */
const REPLY_QUOTE_CODE_POINTS = 80;

function answeredComment(comment: Comment): AnsweredComment {
  const text = comment.blocks.map((block) => block.text).find((value): value is string => typeof value === "string") ?? "";
  const start = cutToCodePoints(text.replace(/\s+/g, " ").trim(), REPLY_QUOTE_CODE_POINTS);
  return { id: comment.item_id, author: comment.author.name, quote: start.is_truncated ? `${start.text}…` : start.text };
}

/** Guests write in any language (§4.7): their text is marked with the language it reliably reads as, so it is voiced as such (WCAG 3.1.2). */
function guestLanguage(comment: Comment): string | undefined {
  const text = comment.blocks.map((block) => block.text).filter((value): value is string => typeof value === "string").join("\n");
  return languageOfPart(text) ?? undefined;
}

/** Replies indent up to this level; deeper ones line up with it and name whom they answer, so 32 levels fit a phone. */
const INDENTED_LEVELS = 8;

/** `repliesOpen`: whether readers may comment here; closed, no Reply link leads to a form that is not there. */
function CommentThread({ comments, parentId, parentName, repliesOpen }: { comments: Comment[]; parentId: string | null; parentName: string | null; repliesOpen: boolean }) {
  const children = comments.filter((c) => c.parent_id === parentId);
  if (children.length === 0) return null;
  const flat = children[0]!.reply_depth > INDENTED_LEVELS;
  return (
    <ol className={flat ? "comments flat" : "comments"}>
      {children.map((comment) => (
        <li key={comment.item_id} id={`comment-${comment.item_id}`}>
          <article aria-label={`Comment by ${comment.author.name}`}>
            <p className="byline">
              {comment.author.name} <span className="author-type">({comment.author_type === "agent" ? "agent" : "guest"})</span> ·{" "}
              <time dateTime={new Date(comment.created_at * 1000).toISOString()}>{dateTime(comment.created_at)}</time>
              {flat && parentName ? <> · in reply to {parentName}</> : null}
            </p>
            <div className={comment.author_type === "human_guest" ? "guest-text" : undefined} lang={comment.author_type === "human_guest" ? guestLanguage(comment) : undefined}>
              <ArticleBlocks blocks={comment.blocks} runtimeBuild={comment.runtime_build} keyPrefix={comment.item_id} topHeadingLevel={3} />
            </div>
            <p className="comment-actions">
              {repliesOpen && comment.reply_depth < 32 ? <a href={`?reply_to=${comment.item_id}#comment-form`}>Reply</a> : null}{" "}
              {comment.author_type === "human_guest" ? <OwnCommentControls commentId={comment.item_id} /> : null}{" "}
              <ReportControl targetId={comment.item_id} label="comment" maxReasonCodePoints={REPORT_REASON_CODE_POINTS} />
            </p>
          </article>
          <CommentThread comments={comments} parentId={comment.item_id} parentName={comment.author.name} repliesOpen={repliesOpen} />
        </li>
      ))}
    </ol>
  );
}

export default async function ShowcaseArticlePage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ reply_to?: string }> }) {
  const { article, comments } = await load((await params).id);
  const { reply_to } = await searchParams;
  const parent = reply_to ? (comments.items.find((c) => c.item_id === reply_to) ?? null) : null;
  const repliesOpen = webContext().showcase.commentsOpen();
  return (
    <main>
      <article>
        <header>
          <h1>{article.title}</h1>
          <p className="byline">
            by {article.author.name} · published <time dateTime={new Date(article.first_published_at * 1000).toISOString()}>{dateTime(article.first_published_at)}</time>
            {article.published_at !== article.first_published_at ? <> · updated {dateTime(article.published_at)}</> : null}
          </p>
        </header>
        <ArticleBlocks blocks={article.blocks} runtimeBuild={article.runtime_build} keyPrefix="block" topHeadingLevel={2} />
        <p className="article-actions">
          <ReportControl targetId={article.item_id} label="article" maxReasonCodePoints={REPORT_REASON_CODE_POINTS} />
        </p>
      </article>
      <section aria-labelledby="comments-heading">
        <h2 id="comments-heading" tabIndex={-1}>
          {article.comment_count} {article.comment_count === 1 ? "comment" : "comments"}
        </h2>
        <p id={COMMENTS_STATUS_ID} role="status" className="form-status" />
        <CommentThread comments={comments.items} parentId={null} parentName={null} repliesOpen={repliesOpen} />
      </section>
      <CommentForm postId={article.item_id} articleRevisionId={article.revision_id} answered={parent ? answeredComment(parent) : null} goneReplyTo={reply_to && !parent && UUID.test(reply_to) ? reply_to : null} />
      <p>
        <a href="/showcase">All articles</a>
      </p>
    </main>
  );
}

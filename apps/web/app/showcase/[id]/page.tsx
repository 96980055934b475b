import type { Metadata } from "next";
import { webContext } from "@board/app/web-context";
import type { WebShowcase } from "@board/app/web-context";
import { notFound } from "next/navigation";
import { ArticleBlocks } from "../blocks";
import { dateTime } from "../format";

export const dynamic = "force-dynamic";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A withdrawn article never reaches this page (the server answers 410 first); anything else not public is 404. */
async function load(id: string) {
  if (!UUID.test(id)) notFound();
  const { showcase } = webContext();
  try {
    const article = await showcase.article(id);
    const comments = await showcase.comments(id, { limit: 100 });
    return { article, comments };
  } catch (error) {
    const code = typeof error === "object" && error !== null && "code" in error ? error.code : null;
    if (code === "NOT_FOUND" || code === "GONE") notFound();
    throw error;
  }
}

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const { article } = await load((await params).id);
  return {
    title: `${article.title} · Agent Board showcase`,
    description: article.excerpt,
    alternates: { languages: { en: `/showcase/${article.item_id}` } },
    openGraph: { type: "article", title: article.title, description: article.excerpt },
    twitter: { card: "summary", title: article.title, description: article.excerpt },
  };
}

type Comment = Awaited<ReturnType<WebShowcase["comments"]>>["items"][number];

function CommentThread({ comments, parentId }: { comments: Comment[]; parentId: string | null }) {
  const children = comments.filter((c) => c.parent_id === parentId);
  if (children.length === 0) return null;
  return (
    <ol className="comments">
      {children.map((comment) => (
        <li key={comment.item_id} id={`comment-${comment.item_id}`}>
          <article aria-label={`Comment by ${comment.author.name}`}>
            <p className="byline">
              {comment.author.name} <span className="author-type">({comment.author_type === "agent" ? "agent" : "guest"})</span> ·{" "}
              <time dateTime={new Date(comment.created_at * 1000).toISOString()}>{dateTime(comment.created_at)}</time>
            </p>
            <ArticleBlocks blocks={comment.blocks} runtimeBuild={null} keyPrefix={comment.item_id} />
          </article>
          <CommentThread comments={comments} parentId={comment.item_id} />
        </li>
      ))}
    </ol>
  );
}

export default async function ShowcaseArticlePage({ params }: { params: Promise<{ id: string }> }) {
  const { article, comments } = await load((await params).id);
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
        <ArticleBlocks blocks={article.blocks} runtimeBuild={article.runtime_build} keyPrefix="block" />
      </article>
      <section aria-labelledby="comments-heading">
        <h2 id="comments-heading">
          {article.comment_count} {article.comment_count === 1 ? "comment" : "comments"}
        </h2>
        <CommentThread comments={comments.items} parentId={null} />
      </section>
      <p>
        <a href="/showcase">All articles</a>
      </p>
    </main>
  );
}

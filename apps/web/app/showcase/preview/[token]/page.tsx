import type { Metadata } from "next";
import { webContext } from "@board/app/web-context";
import { notFound } from "next/navigation";
import { cache } from "react";
import { ArticleBlocks } from "../../blocks";
import { dateTime } from "../../format";

export const dynamic = "force-dynamic";

/** An expired, revoked or unknown link never reaches this page: the server answers 410 or 404 first (showcase-status-pages.ts). */
const load = cache(async (token: string) => {
  try {
    return await webContext().showcase.preview(token);
  } catch (error) {
    const code = typeof error === "object" && error !== null && "code" in error ? error.code : null;
    if (code === "NOT_FOUND" || code === "GONE") notFound();
    throw error;
  }
});

export const metadata: Metadata = { title: "Preview · Agent Board showcase", robots: { index: false, follow: false }, referrer: "no-referrer" };

/** One exact revision on the article template, marked as a preview: what humans would see if it were published. */
export default async function PreviewPage({ params }: { params: Promise<{ token: string }> }) {
  const preview = await load((await params).token);
  const content = preview.content as { title?: string; blocks?: Array<Record<string, unknown>> };
  return (
    <main>
      <p className="preview-banner" role="note">
        Preview of an unpublished or current revision, visible only through this link until {dateTime(preview.expires_at)}. It is not indexed.
      </p>
      <article>
        {preview.title ? <h1>{preview.title}</h1> : <h1>Comment preview</h1>}
        <ArticleBlocks blocks={content.blocks ?? []} runtimeBuild={preview.runtime_build} keyPrefix="preview" topHeadingLevel={2} />
      </article>
    </main>
  );
}

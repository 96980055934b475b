import type { MetadataRoute } from "next";
import { webContext } from "@board/app/web-context";

export const dynamic = "force-dynamic";

/** The site's pages and every public article (withdrawn ones leave it with their next read). */
export default async function sitemap(): Promise<MetadataRoute.Sitemap> {
  const { showcase, config } = webContext();
  const pages: MetadataRoute.Sitemap = [
    { url: `${config.publicUrl}/`, changeFrequency: "weekly" },
    { url: `${config.publicUrl}/showcase`, changeFrequency: "hourly" },
  ];
  let before: number | undefined;
  for (;;) {
    const page = await showcase.feed({ before, limit: 50 });
    for (const item of page.items) pages.push({ url: item.url, lastModified: new Date(item.published_at * 1000), changeFrequency: "weekly" });
    if (page.next_before === null) return pages;
    before = page.next_before;
  }
}

/** The showcase articles the benchmark submits. */
import { randomBytes } from "node:crypto";

/** A typical showcase article: six paragraphs and one interactive SVG of about 30 KB. */
export function typicalArticle(): string {
  const shapes = Array.from({ length: 560 }, (_, i) => `<rect x="${i % 40}" y="${Math.floor(i / 40)}" width="1" height="1" fill="#36c"/>`).join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100"><rect id="button" x="10" y="10" width="80" height="40" rx="6" fill="#36c" tabindex="0" role="button" aria-label="Add one"/><text id="count" x="120" y="38" font-size="20">0</text><title>Picture VARIANT</title>${shapes}<script type="text/javascript"><![CDATA[ let n = 0; showcase.on("button", "click", () => { n += 1; showcase.setText("count", String(n)); }); ]]></script></svg>`;
  const paragraph = "A scheduler wakes every minute, reads its queue and hands each job to the first idle worker; when a dependency is down it retries with backoff and never loses an acknowledged job.";
  return JSON.stringify({
    title: "How a small scheduler drains its queue",
    blocks: [...Array.from({ length: 6 }, () => ({ type: "paragraph", text: paragraph })), { type: "svg", source: svg, description: "A counter with a button that adds one.", runtime: "showcase-svg-v1" }],
  });
}

/** One picture of the largest article: 256 KiB, 9,360 elements. */
export const largestPicture = (variant = "VARIANT") =>
  `<svg xmlns='http://www.w3.org/2000/svg'><title>Picture ${variant}</title>${"<rect width='1' height='1'/>".repeat(Math.floor((256 * 1024 - 200) / 28))}</svg>`;

/** The largest article §8 allows: 16 SVGs of 256 KiB (4 MiB together) and about 126 KiB of text. */
export function largestArticle(): string {
  const svg = largestPicture();
  const text = "A scheduler wakes every minute and hands each job to the first idle worker. ".repeat(1700).slice(0, 126 * 1024);
  return JSON.stringify({ title: "The largest article", blocks: [{ type: "paragraph", text }, ...Array.from({ length: 16 }, () => ({ type: "svg", source: svg, description: "A grid of small squares.", runtime: "showcase-svg-v1" }))] });
}

/**
 * A showcase submission body with a fresh idempotency key around a fixed article; `VARIANT` in the
 * article becomes a random number, so no two requests carry the same picture.
 */
export const withKey = (article: string) => () =>
  `{"schema_version":1,"language":"en","publication_intent":"show_to_humans","idempotency_key":"bench_${randomBytes(12).toString("hex")}",${article.slice(1).replace("VARIANT", String(Math.floor(Math.random() * 1e9)))}`;

import { randomBytes } from "node:crypto";
import type { ContentChecker, Verdict } from "@board/services";
import type { BoardClient } from "./client";

export const showcaseKey = () => `sc_${randomBytes(12).toString("hex")}`;

/** English prose long enough for the language check. */
export const ENGLISH_PARAGRAPH =
  "This article explains how a small scheduler drains its queue every minute and hands each job to the first idle worker, retrying with backoff when a dependency is down.";

export const SIMPLE_SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect x="10" y="10" width="80" height="80" fill="teal"/></svg>';

export function articleBody(overrides: Record<string, unknown> = {}) {
  return {
    schema_version: 1,
    language: "en",
    publication_intent: "show_to_humans",
    idempotency_key: showcaseKey(),
    title: "How a small scheduler drains its queue",
    blocks: [
      { type: "heading", level: 2, text: "The loop" },
      { type: "paragraph", text: ENGLISH_PARAGRAPH },
      { type: "svg", source: SIMPLE_SVG, description: "A teal square standing for one worker.", runtime: "showcase-svg-v1", caption: "One worker" },
    ],
    ...overrides,
  };
}

export function commentBody(overrides: Record<string, unknown> = {}) {
  return {
    schema_version: 1,
    language: "en",
    publication_intent: "show_to_humans",
    idempotency_key: showcaseKey(),
    blocks: [{ type: "paragraph", text: "A clear explanation; the part about retrying with backoff when the database is down was the most useful to me." }],
    ...overrides,
  };
}

export async function postArticle(client: BoardClient, overrides: Record<string, unknown> = {}) {
  const res = await client.post("/v1/showcase/posts", articleBody(overrides));
  if (res.status !== 202) throw new Error(`article submission failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { revision_id: string; item_id: string; post_id: string; state: string; content_hash: string };
}

/** A content checker whose verdict the test sets; the pipeline around it is the real one. */
export function scriptedChecker() {
  let next: Verdict | Error = { outcome: "pass" };
  const checker: ContentChecker & { set(verdict: Verdict | Error): void; calls: number } = {
    calls: 0,
    /** The next answer; an Error is thrown instead, as a crashing checker would. */
    set(verdict) {
      next = verdict;
    },
    async check() {
      checker.calls++;
      if (next instanceof Error) throw next;
      return next;
    },
  };
  return checker;
}

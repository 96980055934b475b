import type { Metadata } from "next";
import { NOT_FOUND } from "../neutral-page";

export const metadata: Metadata = { title: `${NOT_FOUND.title} · Agent Board`, robots: { index: false } };

/**
 * The page of an address no route matches, rendered on the server. A page's own notFound() gets
 * Next's error shell instead, empty without JavaScript, so the showcase's pages that are not there
 * are answered before Next renders (showcase-status-pages.ts).
 */
export default function NotFound() {
  return (
    <main>
      <h1>{NOT_FOUND.title}</h1>
      <p>{NOT_FOUND.message}</p>
      <p>
        <a href="/showcase">All articles</a>
      </p>
    </main>
  );
}

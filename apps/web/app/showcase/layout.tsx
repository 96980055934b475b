import type { ReactNode } from "react";

/** Every showcase page leads back to the site's home and to the article list. */
export default function ShowcaseLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <header>
        <nav aria-label="Site">
          <a href="/">Agent Board</a> · <a href="/showcase">Showcase</a>
        </nav>
      </header>
      {children}
    </>
  );
}

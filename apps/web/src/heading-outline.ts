/**
 * Rendered heading levels for an author's declared ones (1-6), so the page outline never skips a
 * level: an author's level 1 followed by level 3 must not turn into h2 then h4 under a page whose
 * h1 is the title. Each heading sits one level below the nearest earlier heading the author
 * declared shallower, and at `top` when there is none; deeper than h6 stays h6.
 */
export function outlineHeadingLevels(declared: readonly number[], top: number): number[] {
  const open: Array<{ declared: number; rendered: number }> = [];
  return declared.map((level) => {
    while (open.length > 0 && open[open.length - 1]!.declared >= level) open.pop();
    const parent = open[open.length - 1];
    const rendered = parent ? Math.min(6, parent.rendered + 1) : top;
    open.push({ declared: level, rendered });
    return rendered;
  });
}

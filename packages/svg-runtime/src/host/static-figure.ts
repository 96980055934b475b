/** Class names shared by the server-rendered figure and the player's, so both lay out alike. */
export const FIGURE_CLASS = "showcase-svg";
export const STAGE_CLASS = "showcase-svg-stage";

export interface StaticPicture {
  /** `admitSvg`'s `staticMarkup`: the canonical form without its script and the elements inside title/desc. */
  staticMarkup: string;
  /** Accessible name of the picture (the block's `description`). */
  description: string;
  /** Visible caption (the block's optional `caption`). */
  caption?: string;
}

/** Set on the stage while the player holds the picture's CSS animations still (see `STAGE_CSS`). */
export const MOTION_HELD_ATTRIBUTE = "data-motion-held";

const CANONICAL_ROOT_START = '<svg xmlns="http://www.w3.org/2000/svg"';
const ROOT_SIZING_CSS = ":host>svg{max-width:100%;height:auto}";
// `!important` so that an author's own animation-play-state cannot keep the picture moving.
const HOLD_CSS_ANIMATIONS = "*{animation-play-state:paused!important}";

/**
 * The style sheet of the player's shadow root: the page's own CSS does not reach inside it, so a
 * pause (or prefers-reduced-motion) holds the picture's CSS animations from here.
 */
export const STAGE_CSS = `${ROOT_SIZING_CSS}:host([${MOTION_HELD_ATTRIBUTE}]) ${HOLD_CSS_ANIMATIONS}`;

/**
 * Without JavaScript no player can pause the picture (WCAG 2.2.2 asks for a way to stop motion), so
 * nothing in it moves: its CSS animations are held here, and its SMIL is not in the static markup.
 */
const STATIC_STAGE_CSS = `${ROOT_SIZING_CSS}${HOLD_CSS_ANIMATIONS}`;

/** Escapes text for HTML text and double- or single-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * The picture as a page shows it without JavaScript, as HTML for the server to render inside the
 * picture's container. `staticMarkup` goes into a declarative shadow root, so its CSS and ids
 * stay inside as they do in the player; the root gets `role="img"` and the description as its
 * name (put first: an HTML parser keeps the first of duplicate attributes, so an author's own
 * `aria-label` cannot replace it), and the figure none of its own, so the name is announced once; the caption is a visible `figcaption`. With JavaScript the
 * player replaces this figure with its own, built the same way.
 */
export function staticFigureHtml(picture: StaticPicture): string {
  if (!picture.staticMarkup.startsWith(CANONICAL_ROOT_START)) {
    throw new Error("staticMarkup must be admitSvg's canonical form (root <svg xmlns=...> first)");
  }
  const description = escapeHtml(picture.description);
  const root = `<svg role="img" aria-label="${description}"${picture.staticMarkup.slice("<svg".length)}`;
  const caption = picture.caption ? `<figcaption>${escapeHtml(picture.caption)}</figcaption>` : "";
  return `<figure class="${FIGURE_CLASS}" data-state="static">`
    + `<div class="${STAGE_CLASS}"><template shadowrootmode="open"><style>${STATIC_STAGE_CSS}</style>${root}</template></div>`
    + `${caption}</figure>`;
}

import type { ReactNode } from "react";
import { outlineHeadingLevels } from "../../src/heading-outline";
import { SvgPictures } from "../components/svg-pictures";
import { articlePicture, type SvgBlock } from "./pictures";

type Block = Record<string, unknown>;

const text = (value: unknown) => (typeof value === "string" ? value : "");

/**
 * Canonical blocks as semantic HTML. React escapes every text; nothing is turned into a link, so a
 * URL in an article stays text. Block headings start at `topHeadingLevel` (h2 under an article
 * title, h3 in the comments section) and never skip a level.
 */
export function ArticleBlocks({ blocks, runtimeBuild, keyPrefix, topHeadingLevel }: { blocks: Block[]; runtimeBuild: string | null; keyPrefix: string; topHeadingLevel: 2 | 3 }) {
  const headings = blocks.filter((block) => block.type === "heading");
  const levels = outlineHeadingLevels(headings.map((block) => Number(block.level)), topHeadingLevel);
  const renderedLevel = new Map(headings.map((block, index) => [block, levels[index]!]));
  return <>{blocks.map((block, index) => renderBlock(block, `${keyPrefix}-${index}`, runtimeBuild, renderedLevel.get(block)))}</>;
}

function renderBlock(block: Block, key: string, runtimeBuild: string | null, headingLevel: number | undefined): ReactNode {
  switch (block.type) {
    case "paragraph":
      return <p key={key}>{text(block.text)}</p>;
    case "heading": {
      const Heading = `h${headingLevel ?? 6}` as "h2" | "h3" | "h4" | "h5" | "h6";
      return <Heading key={key}>{text(block.text)}</Heading>;
    }
    case "quote":
      return <blockquote key={key}>{text(block.text)}</blockquote>;
    case "code":
      return (
        // Focusable, so a keyboard can scroll a long line on a narrow screen.
        <pre key={key} tabIndex={0}>
          <code>{text(block.text)}</code>
        </pre>
      );
    case "list": {
      const items = Array.isArray(block.items) ? block.items.map(text) : [];
      const List = block.ordered ? "ol" : "ul";
      return (
        <List key={key}>
          {items.map((item, i) => (
            <li key={i}>{item}</li>
          ))}
        </List>
      );
    }
    case "svg": {
      const rendered = articlePicture(key, block as unknown as SvgBlock, runtimeBuild);
      return rendered ? <SvgPictures key={key} pictures={[rendered.picture]} staticHtml={rendered.staticHtml} /> : null;
    }
    default:
      return null;
  }
}

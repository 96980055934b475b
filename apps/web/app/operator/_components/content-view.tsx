type Block = Record<string, unknown>;

const text = (value: unknown) => (typeof value === "string" ? value : "");

/**
 * The target's content as text, for the operator to read before acting. Nothing in it runs: an
 * SVG is shown as its source, which is what a report about a picture needs to be judged.
 */
function BlockView({ block }: { block: Block }) {
  switch (block.type) {
    case "heading":
      return (
        <p>
          <strong>{text(block.text)}</strong>
        </p>
      );
    case "quote":
      return <blockquote>{text(block.text)}</blockquote>;
    case "code":
      return <pre>{text(block.text)}</pre>;
    case "list": {
      const items = Array.isArray(block.items) ? block.items.map(text) : [];
      const entries = items.map((item, index) => <li key={index}>{item}</li>);
      return block.ordered ? <ol>{entries}</ol> : <ul>{entries}</ul>;
    }
    case "svg":
      return (
        <details>
          <summary>
            SVG picture: {text(block.description)}
            {block.caption ? ` (caption: ${text(block.caption)})` : ""}
          </summary>
          <pre>{text(block.source)}</pre>
        </details>
      );
    default:
      return <p className="content-text">{text(block.text)}</p>;
  }
}

export function ContentView({ content }: { content: { text: string } | { blocks: Block[] } | null }) {
  if (!content) return null;
  return (
    <section aria-labelledby="content-heading">
      <h2 id="content-heading">Content</h2>
      <div className="content-view">
        {"text" in content ? <p className="content-text">{content.text}</p> : content.blocks.map((block, index) => <BlockView key={index} block={block} />)}
      </div>
    </section>
  );
}

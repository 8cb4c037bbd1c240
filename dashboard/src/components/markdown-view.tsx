// Renders the Markdown tree as Preact elements: text is always escaped, no HTML string is ever injected.
import type { ComponentChildren } from "preact";
import { parseMarkdown, type Block, type Inline } from "../../../core/markdown/parse-markdown.ts";

function inlines(nodes: Inline[]): ComponentChildren {
  return nodes.map((node, i) => {
    switch (node.t) {
      case "text":
        return node.text;
      case "code":
        return <code key={i}>{node.text}</code>;
      case "strong":
        return <strong key={i}>{inlines(node.children)}</strong>;
      case "em":
        return <em key={i}>{inlines(node.children)}</em>;
      case "del":
        return <del key={i}>{inlines(node.children)}</del>;
      case "br":
        return <br key={i} />;
      case "a": {
        const external = /^(https?:)?\/\//i.test(node.href);
        return (
          <a key={i} href={node.href} rel={external ? "noopener noreferrer nofollow" : undefined} target={external ? "_blank" : undefined}>
            {inlines(node.children)}
          </a>
        );
      }
    }
  });
}

function block(node: Block, i: number): ComponentChildren {
  switch (node.t) {
    case "h": {
      const Tag = `h${Math.min(6, node.level + 1)}` as "h2";
      return <Tag key={i}>{inlines(node.children)}</Tag>;
    }
    case "p":
      return <p key={i}>{inlines(node.children)}</p>;
    case "ul":
      return (
        <ul key={i}>
          {node.items.map((item, j) => (
            <li key={j}>{inlines(item)}</li>
          ))}
        </ul>
      );
    case "ol":
      return (
        <ol key={i} start={node.start}>
          {node.items.map((item, j) => (
            <li key={j}>{inlines(item)}</li>
          ))}
        </ol>
      );
    case "pre":
      return (
        <pre key={i} class="code">
          <code>{node.text}</code>
        </pre>
      );
    case "blockquote":
      return <blockquote key={i}>{node.children.map(block)}</blockquote>;
    case "hr":
      return <hr key={i} />;
  }
}

export function MarkdownView({ source }: { source: string }) {
  return <div class="markdown">{parseMarkdown(source).map(block)}</div>;
}

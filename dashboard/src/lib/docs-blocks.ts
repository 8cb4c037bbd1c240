// Splits the text reference (GET /api/docs) into headings, prose and runnable examples, so the docs page can give
// each example a copy button. Headings are cut by the splitter the Worker uses (core/docs/sections.ts); an example
// is an indented `curl` line and its `\`-continued lines. Pure.
import { splitAtHeadings } from "../../../core/docs/sections.ts";

export type DocsBlock = { kind: "heading"; level: number; text: string } | { kind: "text"; text: string } | { kind: "example"; text: string };

const EXAMPLE_START = /^\s{2,}curl\s/;

/** The prose and examples of the lines under one heading. */
function bodyBlocks(lines: string[]): DocsBlock[] {
  const blocks: DocsBlock[] = [];
  let prose: string[] = [];
  const flush = () => {
    const text = prose.join("\n").replace(/^\n+|\n+$/g, "");
    if (text) blocks.push({ kind: "text", text });
    prose = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (EXAMPLE_START.test(line)) {
      flush();
      const example = [line];
      while (/\\\s*$/.test(example.at(-1) ?? "") && i + 1 < lines.length) example.push(lines[++i] ?? "");
      const indent = Math.min(...example.filter((l) => l.trim()).map((l) => /^\s*/.exec(l)?.[0].length ?? 0));
      blocks.push({ kind: "example", text: example.map((l) => l.slice(indent)).join("\n") });
      continue;
    }
    prose.push(line);
  }
  flush();
  return blocks;
}

export function docsBlocks(source: string): DocsBlock[] {
  return splitAtHeadings(source, 3).flatMap((part) => [...(part.heading ? [{ kind: "heading" as const, ...part.heading }] : []), ...bodyBlocks(part.lines)]);
}

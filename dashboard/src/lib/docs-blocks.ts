// Splits the text reference (GET /api/docs) into headings, prose and runnable examples, so the docs page can give
// each example a copy button. An example is an indented `curl` line and its `\`-continued lines. Pure.

export type DocsBlock = { kind: "heading"; level: number; text: string } | { kind: "text"; text: string } | { kind: "example"; text: string };

const EXAMPLE_START = /^\s{2,}curl\s/;

export function docsBlocks(source: string): DocsBlock[] {
  const blocks: DocsBlock[] = [];
  let prose: string[] = [];
  const flush = () => {
    const text = prose.join("\n").replace(/^\n+|\n+$/g, "");
    if (text) blocks.push({ kind: "text", text });
    prose = [];
  };
  const lines = source.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const heading = /^(#{1,3}) (.+)$/.exec(line);
    if (heading) {
      flush();
      blocks.push({ kind: "heading", level: heading[1]?.length ?? 1, text: heading[2] ?? "" });
      continue;
    }
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

// What the Worker evaluates when an isolate starts is what worker/index.ts reaches through static imports; a module
// reached only through `await import()` is evaluated on its first use. The heavy packages that serve few requests
// (the HTML parser and its entity tables, the linter's JavaScript and CSS parsers, the MCP SDK, the OAuth provider,
// the OpenAPI generator) must stay off that path: one static import of a module that imports them puts them back into
// every isolate's startup CPU (bench/README.md, "Worker startup"). esbuild's metafile gives the import graph the
// deploy's bundler sees; the test walks its static edges from the entry.
import { join } from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../scripts/lib/wrangler.ts";

/** Packages the Worker loads on first use only (each behind an `await import()`). */
const LAZY_PACKAGES = ["htmlparser2", "entities", "acorn", "css-tree", "@modelcontextprotocol/sdk", "@cloudflare/workers-oauth-provider", "@asteasolutions/zod-to-openapi"];

/** Every input reached from the entry by static imports, with the chain that first reached it. */
async function staticImports(entry: string): Promise<Map<string, string[]>> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    format: "esm",
    platform: "neutral",
    conditions: ["workerd", "worker", "browser"],
    mainFields: ["browser", "module", "main"],
    external: ["cloudflare:*", "node:*"],
    // wrangler.toml's Text rules: the docs' Markdown and the page runtime's built scripts are strings.
    loader: { ".md": "text" },
    plugins: [{ name: "text-scripts", setup: (b) => b.onLoad({ filter: /page-runtime\/dist\/.*\.js$/ }, () => ({ contents: "", loader: "text" })) }],
    logLevel: "silent",
  });
  const inputs = result.metafile.inputs;
  const start = Object.keys(inputs).find((path) => path.endsWith("worker/index.ts"))!;
  const reached = new Map<string, string[]>([[start, [start]]]);
  const queue = [start];
  while (queue.length > 0) {
    const from = queue.shift()!;
    for (const edge of inputs[from]?.imports ?? []) {
      if (edge.kind !== "import-statement" || reached.has(edge.path)) continue;
      reached.set(edge.path, [...reached.get(from)!, edge.path]);
      queue.push(edge.path);
    }
  }
  return reached;
}

describe("the Worker's startup imports", () => {
  it("reach none of the packages loaded on first use", { timeout: 60_000 }, async () => {
    const reached = await staticImports(join(ROOT, "worker", "index.ts"));
    expect(reached.size).toBeGreaterThan(100);
    const offending = [...reached].filter(([path]) => LAZY_PACKAGES.some((name) => path.includes(`node_modules/${name}/`)));
    // The first chain names the static import to make lazy.
    expect(offending.slice(0, 1).map(([, chain]) => chain.join("\n  -> "))).toEqual([]);
  });
});

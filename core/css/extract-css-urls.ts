/// <reference path="./css-tree-parts.d.ts" />
// Finds the URLs a piece of CSS would load: url(...) values (comments skipped, escapes decoded) and @import targets.
import parse from "css-tree/parser";
import walk from "css-tree/walker";

/** Each URL referenced by `url(...)` in a stylesheet (or, with "declarationList", a style attribute), in order. */
export function extractCssUrls(css: string, context: "stylesheet" | "declarationList" = "stylesheet"): string[] {
  const urls: string[] = [];
  walk(parse(css, { context, onParseError: () => {} }), (node) => {
    if (node.type === "Url" && node.value.trim()) urls.push(node.value.trim());
  });
  return urls;
}

/** The target of an @import prelude: `url(x)`, `"x"` or `'x'`; null when unreadable. */
export function readImportTarget(prelude: string): string | null {
  let tree;
  try {
    tree = parse(prelude, { context: "atrulePrelude", atrule: "import", onParseError: () => {} });
  } catch {
    return null; // an empty or unreadable prelude (css-tree throws for a missing target)
  }
  let target: string | null = null;
  walk(tree, (node) => {
    if (target === null && (node.type === "Url" || node.type === "String")) target = node.value;
  });
  return target;
}

/// <reference path="./css-tree-parts.d.ts" />
// Finds the URLs a piece of CSS would load: url(...) values (comments skipped, escapes decoded) and @import targets.
import parse from "css-tree/parser";
import walk from "css-tree/walker";
import { attempt } from "../parse-text.ts";

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
  // css-tree reports recoverable errors to onParseError (ignored: a forgiving read) and throws for a missing target.
  const read = attempt(() => parse(prelude, { context: "atrulePrelude", atrule: "import", onParseError: () => {} }));
  if (!read.ok) return null; // an empty or unreadable prelude imports nothing
  const tree = read.value;
  let target: string | null = null;
  walk(tree, (node) => {
    if (target === null && (node.type === "Url" || node.type === "String")) target = node.value;
  });
  return target;
}

// A small forgiving CSS reader: enough structure for lint rules (selectors, declarations, at-rules), not a full
// CSS Syntax implementation. Unbalanced input never throws; the unreadable rest is dropped.

export interface CssDeclaration {
  property: string;
  value: string;
  important: boolean;
}

export type CssNode =
  | { kind: "rule"; selector: string; declarations: CssDeclaration[] }
  | { kind: "at-rule"; name: string; prelude: string; declarations: CssDeclaration[]; children: CssNode[] };

// At-rules whose block holds further style rules; every other block at-rule (e.g. @font-face) holds declarations.
const GROUPING_AT_RULES = new Set(["media", "supports", "layer", "container", "document", "scope", "starting-style"]);

/** Parse a stylesheet into rules and at-rules. */
export function parseCss(css: string): CssNode[] {
  return parseBlockContents(stripCssComments(css));
}

export function stripCssComments(css: string): string {
  return css.replace(/\/\*[\s\S]*?(?:\*\/|$)/g, " ");
}

/** Index of the first char in `stops` at nesting depth 0, skipping strings and parentheses; -1 when none. */
function findTopLevel(text: string, from: number, stops: string): number {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const ch = text[i] ?? "";
    if (ch === '"' || ch === "'") {
      const end = text.indexOf(ch, i + 1);
      i = end === -1 ? text.length : end;
    } else if (ch === "(") depth++;
    else if (ch === ")") depth = Math.max(0, depth - 1);
    else if (depth === 0 && stops.includes(ch)) return i;
  }
  return -1;
}

/** Index of the `}` that closes the block opened at `open`, or the text length when unclosed. */
function findBlockEnd(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const stop = findTopLevel(text, i, "{}");
    if (stop === -1) return text.length;
    if (text[stop] === "{") depth++;
    else if (--depth === 0) return stop;
    i = stop;
  }
  return text.length;
}

function parseBlockContents(text: string): CssNode[] {
  const nodes: CssNode[] = [];
  let index = 0;
  while (index < text.length) {
    const stop = findTopLevel(text, index, "{;}");
    const head = text.slice(index, stop === -1 ? text.length : stop).trim();
    if (stop === -1 || text[stop] !== "{") {
      // A statement such as `@import url(x.css);`, or stray text we skip.
      if (head.startsWith("@")) nodes.push(readAtRule(head, ""));
      if (stop === -1) break;
      index = stop + 1;
      continue;
    }
    const end = findBlockEnd(text, stop);
    const body = text.slice(stop + 1, end);
    if (head.startsWith("@")) nodes.push(readAtRule(head, body));
    else if (head) nodes.push({ kind: "rule", selector: head, declarations: parseDeclarations(body) });
    index = end + 1;
  }
  return nodes;
}

function readAtRule(head: string, body: string): CssNode {
  const match = /^@([\w-]+)\s*([\s\S]*)$/.exec(head);
  const name = (match?.[1] ?? "").toLowerCase();
  const prelude = (match?.[2] ?? "").trim();
  if (GROUPING_AT_RULES.has(name)) return { kind: "at-rule", name, prelude, declarations: [], children: parseBlockContents(body) };
  // @keyframes blocks hold keyframe selectors, not style rules: keep them out of `children` so scope rules skip them.
  if (/keyframes$/.test(name)) return { kind: "at-rule", name, prelude, declarations: [], children: [] };
  return { kind: "at-rule", name, prelude, declarations: parseDeclarations(body), children: [] };
}

/** Parse `a: b; c: d !important` into declarations; nested rules inside the block are ignored. */
export function parseDeclarations(body: string): CssDeclaration[] {
  const declarations: CssDeclaration[] = [];
  let index = 0;
  while (index < body.length) {
    const stop = findTopLevel(body, index, ";{");
    const end = stop === -1 ? body.length : stop;
    if (stop !== -1 && body[stop] === "{") {
      index = findBlockEnd(body, stop) + 1;
      continue;
    }
    const text = body.slice(index, end);
    const colon = text.indexOf(":");
    if (colon > 0) {
      const property = text.slice(0, colon).trim().toLowerCase();
      let value = text.slice(colon + 1).trim();
      const important = /!\s*important\s*$/i.test(value);
      if (important) value = value.replace(/!\s*important\s*$/i, "").trim();
      if (property) declarations.push({ property, value, important });
    }
    index = end + 1;
  }
  return declarations;
}

/** Every style rule, including those nested in @media and similar blocks. */
export function listStyleRules(nodes: CssNode[]): Array<Extract<CssNode, { kind: "rule" }>> {
  const out: Array<Extract<CssNode, { kind: "rule" }>> = [];
  for (const node of nodes) {
    if (node.kind === "rule") out.push(node);
    else out.push(...listStyleRules(node.children));
  }
  return out;
}

/** Every at-rule at any depth. */
export function listAtRules(nodes: CssNode[]): Array<Extract<CssNode, { kind: "at-rule" }>> {
  const out: Array<Extract<CssNode, { kind: "at-rule" }>> = [];
  for (const node of nodes) {
    if (node.kind !== "at-rule") continue;
    out.push(node, ...listAtRules(node.children));
  }
  return out;
}

/** Split a selector list on top-level commas (commas inside :is(...) or [attr="a,b"] stay). */
export function splitSelectorList(selector: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  let quote = "";
  for (let i = 0; i < selector.length; i++) {
    const ch = selector[i];
    if (quote) {
      if (ch === quote) quote = "";
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === "(" || ch === "[") depth++;
    else if (ch === ")" || ch === "]") depth--;
    else if (ch === "," && depth === 0) {
      parts.push(selector.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(selector.slice(start).trim());
  return parts.filter(Boolean);
}

/// <reference path="./css-tree-parts.d.ts" />
// Stylesheets as the lint rules see them (selectors, declarations, at-rules), read by css-tree, which follows CSS
// Syntax's error recovery: unbalanced or broken input never throws, the unreadable parts are dropped.
import type { Atrule, Block, CssNode as TreeNode, List, Rule } from "css-tree";
import parse from "css-tree/parser";

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

// Preludes and values stay text: the rules read them as written.
const RAW = { parseRulePrelude: false, parseAtrulePrelude: false, parseValue: false, parseCustomProperty: false, onParseError: () => {} };

/** The text of a prelude or value that css-tree kept raw. */
const rawText = (node: TreeNode | null | undefined): string => (node && node.type === "Raw" ? node.value.trim() : "");

/** Parse a stylesheet into rules and at-rules. */
export function parseCss(css: string): CssNode[] {
  const sheet = parse(css, { ...RAW, context: "stylesheet" });
  return sheet.type === "StyleSheet" ? readNodes(sheet.children) : [];
}

function readNodes(children: List<TreeNode>): CssNode[] {
  const nodes: CssNode[] = [];
  for (const child of children) {
    if (child.type === "Rule") nodes.push(readRule(child));
    else if (child.type === "Atrule") nodes.push(readAtRule(child));
  }
  return nodes;
}

function readRule(rule: Rule): CssNode {
  return { kind: "rule", selector: rawText(rule.prelude), declarations: readDeclarations(rule.block) };
}

function readAtRule(rule: Atrule): CssNode {
  const name = rule.name.toLowerCase();
  const prelude = rawText(rule.prelude);
  if (GROUPING_AT_RULES.has(name)) return { kind: "at-rule", name, prelude, declarations: [], children: rule.block ? readNodes(rule.block.children) : [] };
  // @keyframes blocks hold keyframe selectors, not style rules: keep them out of `children` so scope rules skip them.
  if (/keyframes$/.test(name)) return { kind: "at-rule", name, prelude, declarations: [], children: [] };
  return { kind: "at-rule", name, prelude, declarations: readDeclarations(rule.block), children: [] };
}

function readDeclarations(block: Block | null): CssDeclaration[] {
  const declarations: CssDeclaration[] = [];
  for (const child of block?.children ?? []) {
    if (child.type !== "Declaration") continue;
    declarations.push({ property: child.property.toLowerCase(), value: rawText(child.value), important: Boolean(child.important) });
  }
  return declarations;
}

/** Parse `a: b; c: d !important` into declarations; nested rules inside the block are ignored. */
export function parseDeclarations(body: string): CssDeclaration[] {
  const list = parse(body, { ...RAW, context: "declarationList" });
  return list.type === "DeclarationList" ? readDeclarations({ type: "Block", children: list.children }) : [];
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

/** Split a selector list on top-level commas (commas inside :is(...) or [attr="a,b"] stay), each part as written. */
export function splitSelectorList(selector: string): string[] {
  const list = parse(selector, { context: "selectorList", positions: true, onParseError: () => {} });
  if (list.type !== "SelectorList") return [];
  const parts: string[] = [];
  for (const part of list.children) {
    if (part.loc) parts.push(selector.slice(part.loc.start.offset, part.loc.end.offset).trim());
  }
  return parts.filter(Boolean);
}

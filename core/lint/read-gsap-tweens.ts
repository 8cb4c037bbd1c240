// Reads GSAP tween calls (to/from/fromTo/set on gsap or on a timeline) out of a script's syntax tree, so rules can
// ask which properties a tween animates on which selector. Only what is written literally is seen: a selector in a
// variable or a vars object built at run time is skipped rather than guessed.
import { parse, type Node } from "acorn";
import type { ScriptBlock } from "./load-composition.ts";
import { attempt } from "../parse-text.ts";

export type TweenMethod = "to" | "from" | "fromTo" | "set";

export interface GsapTween {
  method: TweenMethod;
  /** `gsap.to(...)` runs on the global clock; `tl.to(...)` (any other receiver) on a timeline. */
  global: boolean;
  /** The target when written as a string literal, e.g. `"#title"`; null for elements, arrays, variables. */
  selector: string | null;
  /** Property names of the vars object(s); for fromTo both the from and the to vars. */
  properties: string[];
  /** The call as written, for messages. */
  text: string;
}

const METHODS = new Set<string>(["to", "from", "fromTo", "set"]);

interface AnyNode extends Node {
  [key: string]: unknown;
}

function isNode(value: unknown): value is AnyNode {
  return typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string";
}

/** Every node of the tree, depth first. */
function* walk(node: AnyNode): Generator<AnyNode> {
  yield node;
  for (const key of Object.keys(node)) {
    const value = node[key];
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) yield* walk(item);
    } else if (isNode(value)) yield* walk(value);
  }
}

function stringValue(node: AnyNode | undefined): string | null {
  if (!node) return null;
  if (node.type === "Literal" && typeof node.value === "string") return node.value;
  if (node.type === "TemplateLiteral" && (node.expressions as unknown[]).length === 0) {
    const quasi = (node.quasis as Array<{ value: { cooked: string | null } }>)[0];
    return quasi?.value.cooked ?? null;
  }
  return null;
}

function propertyNames(node: AnyNode | undefined): string[] {
  if (!node || node.type !== "ObjectExpression") return [];
  const names: string[] = [];
  for (const property of node.properties as AnyNode[]) {
    if (property.type !== "Property" || property.computed) continue;
    const key = property.key as AnyNode;
    if (key.type === "Identifier") names.push(String(key.name));
    else if (key.type === "Literal") names.push(String(key.value));
  }
  return names;
}

function parseScript(text: string, isModule: boolean): AnyNode | null {
  const tree = attempt(() => parse(text, { ecmaVersion: "latest", sourceType: isModule ? "module" : "script" }) as unknown as AnyNode);
  // A script that does not parse is reported by script_syntax_error; it runs nothing, so it tweens nothing.
  return tree.ok ? tree.value : null;
}

/** The tween calls of one script, in source order. */
export function readGsapTweens(script: ScriptBlock): GsapTween[] {
  if (script.text === null) return [];
  const tree = parseScript(script.text, script.isModule);
  if (!tree) return [];
  const tweens: GsapTween[] = [];
  for (const node of walk(tree)) {
    if (node.type !== "CallExpression") continue;
    const callee = node.callee as AnyNode;
    if (callee.type !== "MemberExpression" || callee.computed) continue;
    const method = String((callee.property as AnyNode).name);
    if (!METHODS.has(method)) continue;
    const receiver = callee.object as AnyNode;
    const args = node.arguments as AnyNode[];
    const vars = method === "fromTo" ? [args[1], args[2]] : [args[1]];
    if (!vars.some((v) => v?.type === "ObjectExpression")) continue;
    tweens.push({
      method: method as TweenMethod,
      global: receiver.type === "Identifier" && receiver.name === "gsap",
      selector: stringValue(args[0]),
      properties: [...new Set(vars.flatMap(propertyNames))],
      // From the method on: a chain `tl.to(a).to(b)` reads `.to(b)`, not the whole chain.
      text: `${receiver.type === "Identifier" ? String(receiver.name) : ""}.${script.text.slice((callee.property as AnyNode).start, node.end)}`,
    });
  }
  return tweens;
}

import { logIgnored } from "./log-ignored.ts";
// A sub-composition's stylesheet made to apply inside its host only, as HyperFrames does: every selector is
// prefixed with the host's, and the file's own root (named by its data-composition-id or its id) becomes the host.

/** How a file names its own root. */
export interface RootNames {
  authoredId: string | null;
  rootId: string | null;
}

// Splits "a, b:is(c, d)" at top-level commas only.
export function splitSelectors(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === "\\") i++;
      else if (ch === quote) quote = null;
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === "(" || ch === "[") depth++;
    else if (ch === ")" || ch === "]") depth--;
    else if (ch === "," && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// How a file names its own root in selectors: [data-composition-id="<its id>"], or #<the root's id>. Unwrapped
// into the host, that root is the host.
function rootPatterns(names: RootNames): RegExp[] {
  const out: RegExp[] = [];
  if (names.authoredId) {
    const id = escapeRegExp(names.authoredId);
    out.push(new RegExp("\\[\\s*data-composition-id\\s*=\\s*(?:\"" + id + "\"|'" + id + "'|" + id + ")\\s*\\]", "g"));
  }
  if (names.rootId) out.push(new RegExp("#" + escapeRegExp(names.rootId) + "(?![\\w-])", "g"));
  return out;
}

export function aliasRoot(selector: string, hostSel: string, names: RootNames): string {
  return rootPatterns(names).reduce((text, pattern) => text.replace(pattern, hostSel), selector);
}

/** One selector of a sub-composition's stylesheet, made to apply inside its host only. */
function scopeSelector(selector: string, hostSel: string, names: RootNames): string {
  const text = selector.trim();
  if (!text || text === "*") return selector;
  if (/^(html|body|:root)$/i.test(text)) return hostSel;
  const namesRoot = rootPatterns(names).some((pattern) => pattern.test(text));
  return namesRoot ? aliasRoot(text, hostSel, names) : hostSel + " " + text;
}

function scopeRules(rules: CSSRuleList, hostSel: string, names: RootNames): void {
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i]!;
    if (rule.type === 1 /* style rule */) {
      const style = rule as CSSStyleRule;
      style.selectorText = splitSelectors(style.selectorText).map((s) => scopeSelector(s, hostSel, names)).join(", ");
    } else {
      const nested = (rule as { cssRules?: CSSRuleList }).cssRules;
      if (nested && !(window.CSSKeyframesRule && rule instanceof CSSKeyframesRule)) scopeRules(nested, hostSel, names); // @media, @supports, @layer, @container
    }
  }
}

/** A sub-composition's stylesheet text with every selector scoped to its host (the browser parses it). */
export function scopeCss(css: string, hostSel: string, names: RootNames): string {
  let sheet: CSSStyleSheet;
  try {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
  } catch (error) {
    // Text the browser will not parse as a stylesheet is kept as written: it styles nothing scoped either way.
    logIgnored("a sub-composition stylesheet does not parse; kept unscoped", error);
    return css;
  }
  // replaceSync drops @import: keep those lines as written, first.
  const imports: string[] = css.match(/@import[^;]+;/g) || [];
  scopeRules(sheet.cssRules, hostSel, names);
  return imports.concat(Array.prototype.map.call(sheet.cssRules, (r: CSSRule) => r.cssText) as string[]).join("\n");
}

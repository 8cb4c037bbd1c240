// The kinds of value a setting may hold, each a zod schema from the variable's text to its typed value. A value
// that does not fit is an issue whose message says what was expected and what came, e.g. `expected a positive
// integer number of bytes, got "5GB"`; the setting's name is put in front by parse-config.ts. Each schema's
// description is what it expects, which docs/configuration.md lists. Pure.
import * as z from "zod";

/** A value's text as it appears in a message: quoted, and a secret's never shown, only its length. */
export function shown(text: string, secret = false): string {
  return secret ? `${text.length} characters` : JSON.stringify(text);
}

/** The issue every kind reports: what was expected and what it got instead. */
function refuse(ctx: z.RefinementCtx, expected: string, got: string): typeof z.NEVER {
  ctx.addIssue({ code: "custom", message: `expected ${expected}, got ${got}` });
  return z.NEVER;
}

/** Whole numbers written plainly ("30000", never "3e4", "0x10" or "30 000"), within [min, max]. */
export function wholeNumber(o: { min: number; max?: number; expected: string }) {
  return z.string().transform((text, ctx) => {
    const n = /^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN;
    if (!Number.isSafeInteger(n) || n < o.min || (o.max !== undefined && n > o.max)) return refuse(ctx, o.expected, shown(text));
    return n;
  }).describe(o.expected);
}

/** Decimal numbers ("0.5", "3600") greater than zero. */
export function positiveNumber(expected: string) {
  return z.string().transform((text, ctx) => {
    const n = /^\d+(\.\d+)?$/.test(text.trim()) ? Number(text.trim()) : NaN;
    if (!Number.isFinite(n) || n <= 0) return refuse(ctx, expected, shown(text));
    return n;
  }).describe(expected);
}

/** "true" or "false", nothing else (a typo must not quietly mean either). */
export function flag() {
  return z.string().transform((text, ctx) => {
    const t = text.trim();
    if (t === "true") return true;
    if (t === "false") return false;
    return refuse(ctx, `"true" or "false"`, shown(text));
  }).describe(`"true" or "false"`);
}

/**
 * An http(s) origin such as `https://studio.example.com`, returned without a trailing slash. A path, query or
 * fragment is refused rather than dropped: links are built from the origin alone, so they would be silently lost.
 */
export function origin() {
  const expected = "an http(s) origin such as https://studio.example.com (scheme, host and port only)";
  return z.string().transform((text, ctx) => {
    let url: URL;
    try {
      url = new URL(text.trim());
    } catch {
      return refuse(ctx, expected, shown(text));
    }
    const bare = url.pathname === "/" && !url.search && !url.hash && !url.username && !url.password;
    if ((url.protocol !== "http:" && url.protocol !== "https:") || !bare) return refuse(ctx, expected, shown(text));
    return url.origin;
  }).describe(expected);
}

/** Text of at least `minLength` characters (secrets: the message gives only the length, never the text). */
export function text(o: { minLength: number; secret: boolean }) {
  return z.string().transform((value, ctx) => {
    if (value.length < o.minLength) return refuse(ctx, `at least ${o.minLength} characters`, shown(value, o.secret));
    return value;
  }).describe(o.minLength > 1 ? `text of at least ${o.minLength} characters` : "text");
}

/**
 * A comma-separated list; blanks around entries and empty entries are ignored. Each entry is read by `entry`, which
 * returns null for one it cannot read: the message names that entry.
 */
export function commaList<T>(o: { expected: string; entry: (text: string) => T | null; atLeastOne?: boolean }) {
  return z.string().transform((value, ctx) => {
    const entries = value.split(",").map((s) => s.trim()).filter(Boolean);
    if (o.atLeastOne && entries.length === 0) return refuse(ctx, o.expected, shown(value));
    const out: T[] = [];
    for (const e of entries) {
      const read = o.entry(e);
      if (read === null) return refuse(ctx, o.expected, `${shown(e)}${entries.length > 1 ? ` in ${shown(value)}` : ""}`);
      out.push(read);
    }
    return out;
  }).describe(o.expected);
}

/** A list entry that is a number of at least zero ("5", "0.5"), or null. */
export function nonNegativeNumberEntry(text: string): number | null {
  return /^\d+(\.\d+)?$/.test(text) ? Number(text) : null;
}

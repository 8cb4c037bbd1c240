// The kinds of value a setting may hold, each a reader from the variable's text to its typed value. A value that
// does not fit is an issue whose message says what was expected and what came, e.g. `expected a positive integer
// number of bytes, got "5GB"`; the setting's name is put in front by parse-config.ts. Each kind's description is what
// it expects, which docs/configuration.md lists. Plain functions rather than zod schemas: the configuration is read
// on every isolate's first request and its schema is built when the Worker starts, where some 40 zod schemas cost
// several milliseconds of CPU (bench/README.md, "Worker startup"). Pure.
import { parseUrl } from "../../core/parse-text.ts";

/** A kind of value: what it expects, and its reading of a variable's text. */
export interface ValueKind<T> {
  /** What the kind expects, in words: docs/configuration.md's "Value". */
  readonly description: string;
  /** The value of `text`, or the issue naming what was expected and what came. */
  read(text: string): { ok: true; value: T } | { ok: false; message: string };
}

/** The value type a kind reads. */
export type KindValue<K> = K extends ValueKind<infer T> ? T : never;

/** A value's text as it appears in a message: quoted, and a secret's never shown, only its length. */
export function shown(text: string, secret = false): string {
  return secret ? `${text.length} characters` : JSON.stringify(text);
}

/** The issue every kind reports: what was expected and what it got instead. */
const refuse = (expected: string, got: string) => ({ ok: false as const, message: `expected ${expected}, got ${got}` });
const accept = <T>(value: T) => ({ ok: true as const, value });

/** Whole numbers written plainly ("30000", never "3e4", "0x10" or "30 000"), within [min, max]. */
export function wholeNumber(o: { min: number; max?: number; expected: string }) {
  return {
    description: o.expected,
    read(text: string) {
      const n = /^\d+$/.test(text.trim()) ? Number(text.trim()) : NaN;
      if (!Number.isSafeInteger(n) || n < o.min || (o.max !== undefined && n > o.max)) return refuse(o.expected, shown(text));
      return accept(n);
    },
  } satisfies ValueKind<number>;
}

/** Decimal numbers ("0.5", "3600") greater than zero. */
export function positiveNumber(expected: string) {
  return {
    description: expected,
    read(text: string) {
      const n = /^\d+(\.\d+)?$/.test(text.trim()) ? Number(text.trim()) : NaN;
      if (!Number.isFinite(n) || n <= 0) return refuse(expected, shown(text));
      return accept(n);
    },
  } satisfies ValueKind<number>;
}

/**
 * A duration as Cloudflare Containers write `sleepAfter`: whole seconds, minutes or hours ("15s", "5m", "1h"),
 * returned as written (the Container class reads that text itself) with its length in seconds.
 */
export function duration() {
  const expected = 'a duration such as "15s", "5m" or "1h" (a whole number of seconds, minutes or hours)';
  const unitSeconds: Record<string, number> = { s: 1, m: 60, h: 3600 };
  return {
    description: expected,
    read(text: string) {
      const match = /^(\d+)([smh])$/.exec(text.trim());
      const seconds = match ? Number(match[1]) * unitSeconds[match[2]!]! : NaN;
      if (!Number.isSafeInteger(seconds) || seconds <= 0) return refuse(expected, shown(text));
      return accept({ text: text.trim(), seconds });
    },
  } satisfies ValueKind<{ text: string; seconds: number }>;
}

/** "true" or "false", nothing else (a typo must not quietly mean either). */
export function flag() {
  const expected = `"true" or "false"`;
  return {
    description: expected,
    read(text: string) {
      const t = text.trim();
      if (t === "true") return accept(true);
      if (t === "false") return accept(false);
      return refuse(expected, shown(text));
    },
  } satisfies ValueKind<boolean>;
}

/**
 * An http(s) origin such as `https://studio.example.com`, returned without a trailing slash. A path, query or
 * fragment is refused rather than dropped: links are built from the origin alone, so they would be silently lost.
 */
export function origin() {
  const expected = "an http(s) origin such as https://studio.example.com (scheme, host and port only)";
  return {
    description: expected,
    read(text: string) {
      const read = parseUrl(text.trim());
      if (!read.ok) return refuse(expected, shown(text));
      const url = read.value;
      const bare = url.pathname === "/" && !url.search && !url.hash && !url.username && !url.password;
      if ((url.protocol !== "http:" && url.protocol !== "https:") || !bare) return refuse(expected, shown(text));
      return accept(url.origin);
    },
  } satisfies ValueKind<string>;
}

/** Text of at least `minLength` characters (secrets: the message gives only the length, never the text). */
export function text(o: { minLength: number; secret: boolean }) {
  return {
    description: o.minLength > 1 ? `text of at least ${o.minLength} characters` : "text",
    read(value: string) {
      if (value.length < o.minLength) return refuse(`at least ${o.minLength} characters`, shown(value, o.secret));
      return accept(value);
    },
  } satisfies ValueKind<string>;
}

/**
 * A comma-separated list; blanks around entries and empty entries are ignored. Each entry is read by `entry`, which
 * returns null for one it cannot read: the message names that entry.
 */
export function commaList<T>(o: { expected: string; entry: (text: string) => T | null; atLeastOne?: boolean }) {
  return {
    description: o.expected,
    read(value: string) {
      const entries = value.split(",").map((s) => s.trim()).filter(Boolean);
      if (o.atLeastOne && entries.length === 0) return refuse(o.expected, shown(value));
      const out: T[] = [];
      for (const e of entries) {
        const read = o.entry(e);
        if (read === null) return refuse(o.expected, `${shown(e)}${entries.length > 1 ? ` in ${shown(value)}` : ""}`);
        out.push(read);
      }
      return accept(out);
    },
  } satisfies ValueKind<T[]>;
}

/** A list entry that is a number of at least zero ("5", "0.5"), or null. */
export function nonNegativeNumberEntry(text: string): number | null {
  return /^\d+(\.\d+)?$/.test(text) ? Number(text) : null;
}

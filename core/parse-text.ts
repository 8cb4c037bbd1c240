// Reading text that may not parse (JSON, a URL, percent-encoding, base64, a script) as a declared outcome rather than
// an exception: the platform's parsers throw, and a `catch {}` beside each call hid which failures were expected.
// Here the one try of each parser turns its throw into `{ ok: false, problem }`; the caller handles that branch in
// the open, saying why it answers as it does.

/** A parse that worked, or what was wrong with the text (the parser's own message). */
export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

function problemOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Runs a parser that throws on bad input; its result or its problem. Only for parsers: any throw is bad input. */
export function attempt<T>(parse: () => T): Parsed<T> {
  try {
    return { ok: true, value: parse() };
  } catch (error) {
    return { ok: false, problem: problemOf(error) };
  }
}

/** As attempt, for a parser that answers asynchronously (decryption, a body read as JSON). */
export async function attemptAsync<T>(parse: () => Promise<T>): Promise<Parsed<T>> {
  try {
    return { ok: true, value: await parse() };
  } catch (error) {
    return { ok: false, problem: problemOf(error) };
  }
}

/** JSON text as an unknown value (parse it further with zod or by hand). */
export function parseJson(text: string): Parsed<unknown> {
  return attempt(() => JSON.parse(text) as unknown);
}

/** An absolute URL, or one relative to `base`. */
export function parseUrl(text: string, base?: string | URL): Parsed<URL> {
  return attempt(() => new URL(text, base));
}

/** decodeURIComponent's answer: a lone or malformed `%` sequence is a problem. */
export function decodeComponent(text: string): Parsed<string> {
  return attempt(() => decodeURIComponent(text));
}

/** encodeURIComponent's answer: text with a lone surrogate is a problem. */
export function encodeComponent(text: string): Parsed<string> {
  return attempt(() => encodeURIComponent(text));
}

/** atob's answer: binary text, or the problem with the base64. */
export function decodeBase64Text(text: string): Parsed<string> {
  return attempt(() => atob(text));
}

// Finds the URLs a piece of CSS would load: url(...) values and @import targets.

/** Each URL referenced by `url(...)` in CSS text (quoted or bare), in order. */
export function extractCssUrls(css: string): string[] {
  const urls: string[] = [];
  for (const match of css.matchAll(/url\(\s*(?:"([^"]*)"|'([^']*)'|([^)'"]*?))\s*\)/gi)) {
    const url = (match[1] ?? match[2] ?? match[3] ?? "").trim();
    if (url) urls.push(url);
  }
  return urls;
}

/** The target of an @import prelude: `url(x)`, `"x"` or `'x'`; null when unreadable. */
export function readImportTarget(prelude: string): string | null {
  const fromUrl = extractCssUrls(prelude)[0];
  if (fromUrl) return fromUrl;
  const quoted = /^\s*(?:"([^"]*)"|'([^']*)')/.exec(prelude);
  return quoted ? (quoted[1] ?? quoted[2] ?? null) : null;
}

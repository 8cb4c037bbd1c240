// Which images the dashboard shows from a URL someone else wrote (a research record's cover): only the studio's own,
// on the dashboard's origin. Any other would be a request from every viewer's browser to a site of the writer's
// choosing (a tracking pixel, the thing the Markdown sanitizer keeps out of comments); it is shown as a link the
// person may choose to open. The dashboard's CSP (img-src) refuses third-party images too. Pure.

/** `raw` as an image source when it is on `origin` (the dashboard's own), else null. */
export function ownImageSrc(raw: string, origin: string): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim(), origin);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  return url.origin === origin ? url.href : null;
}

// Which images the dashboard shows from a URL someone else wrote (a research record's cover): only the studio's own,
// on the dashboard's origin. Any other would be a request from every viewer's browser to a site of the writer's
// choosing (a tracking pixel, the thing the Markdown sanitizer keeps out of comments); it is shown as a link the
// person may choose to open. The dashboard's CSP (img-src) refuses third-party images too. Pure.
import { parseUrl } from "../../../core/parse-text.ts";

/** `raw` as an image source when it is on `origin` (the dashboard's own), else null. */
export function ownImageSrc(raw: string, origin: string): string | null {
  const parsed = parseUrl(raw.trim(), origin);
  if (!parsed.ok) return null; // not a URL at all: nothing to show
  const url = parsed.value;
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  return url.origin === origin ? url.href : null;
}

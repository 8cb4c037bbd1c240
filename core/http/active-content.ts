// Which content types a browser could execute when it opens them. A project file of an "active" type (HTML, SVG,
// XML, JavaScript, PDF, anything unknown) must never render inline on the API origin, where it would run with the
// dashboard's cookies; "passive" types (images, audio, video, fonts, JSON, plain text, CSS) display or play but
// cannot run script. An allowlist: a type not known to be passive counts as active.

/** Passive media families: every subtype of these is decoded as data, never as a document. */
const PASSIVE_FAMILIES = new Set(["audio", "video", "font"]);

/** Passive types outside those families. image/svg+xml is deliberately absent: SVG is a document with script. */
const PASSIVE_TYPES = new Set([
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "image/avif",
  "image/bmp",
  "image/x-icon",
  "image/vnd.microsoft.icon",
  "application/json",
  "text/plain",
  "text/css",
  "text/markdown",
  "text/csv",
]);

/** The bare media type of a Content-Type value: lower case, without parameters. */
export function mediaTypeOf(contentType: string): string {
  return (contentType.split(";")[0] ?? "").trim().toLowerCase();
}

/** True when a browser may display the type inline without running anything from it. */
export function isPassiveContentType(contentType: string): boolean {
  const type = mediaTypeOf(contentType);
  const family = type.slice(0, type.indexOf("/"));
  return PASSIVE_FAMILIES.has(family) || PASSIVE_TYPES.has(type);
}

/** True when a browser could execute the type as a document or script (the complement of passive). */
export function isActiveContentType(contentType: string): boolean {
  return !isPassiveContentType(contentType);
}

// Which link targets the dashboard puts in an href: http(s), mailto and same-site relative ones. Pure.

export function safeHref(raw: string): string | null {
  const href = raw.trim();
  // Browsers ignore tabs, newlines and control characters inside a scheme, so judge the URL without them.
  const squeezed = href.replace(/[\u0000-\u0020\u007f]/g, "");
  if (!squeezed) return null;
  // "//host/x" (and "\\host") is relative in name only: it leaves the site.
  if (/^[\\/]{2}/.test(squeezed)) return null;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(squeezed);
  if (!scheme) return href;
  return /^(https?|mailto)$/i.test(scheme[1] ?? "") ? href : null;
}

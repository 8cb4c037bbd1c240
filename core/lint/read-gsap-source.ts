// Recognises GSAP script URLs. Render nodes have no internet and answer `.../gsap@<version>/dist/*.js`
// (and the cdnjs equivalent) from the npm package, so only those URL shapes can load in a render.

export const GSAP_VERSION = "3.14.2";
export const GSAP_CDN_URL = `https://cdn.jsdelivr.net/npm/gsap@${GSAP_VERSION}/dist/gsap.min.js`;

export interface GsapSource {
  /** The pinned version, or null when the URL asks for "latest". */
  version: string | null;
  /** The file under dist/, e.g. `gsap.min.js` or `ScrollTrigger.min.js`. */
  fileName: string;
}

const PACKAGE_CDN = /^(?:https?:)?\/\/(?:cdn\.jsdelivr\.net|fastly\.jsdelivr\.net|unpkg\.com)\/(?:npm\/)?gsap(?:@([^/]+))?\/dist\/([\w.-]+\.js)(?:[?#].*)?$/i;
const CDNJS = /^(?:https?:)?\/\/cdnjs\.cloudflare\.com\/ajax\/libs\/gsap\/([^/]+)\/([\w.-]+\.js)(?:[?#].*)?$/i;

/** The version and file of a package-CDN GSAP URL; null for anything else. */
export function readGsapSource(url: string): GsapSource | null {
  const trimmed = url.trim();
  const match = PACKAGE_CDN.exec(trimmed) ?? CDNJS.exec(trimmed);
  if (!match?.[2]) return null;
  const version = match[1] && match[1] !== "latest" ? match[1] : null;
  return { version, fileName: match[2] };
}

/** True for the core library file (not a plugin such as ScrollTrigger). */
export function isGsapCore(fileName: string): boolean {
  return /^gsap(?:\.min)?\.js$/i.test(fileName);
}

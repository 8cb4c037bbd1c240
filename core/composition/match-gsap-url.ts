// Recognises CDN URLs of GSAP files (jsDelivr, unpkg, cdnjs styles). Pure.

export interface GsapRequest {
  version: string;
  /** Path inside the package's dist/ folder, e.g. "gsap.min.js" or "ScrollTrigger.min.js". */
  file: string;
}

// jsDelivr/unpkg: .../gsap@3.14.2/dist/gsap.min.js; cdnjs: .../ajax/libs/gsap/3.14.2/gsap.min.js
const NPM_STYLE = /\/gsap@([0-9][0-9A-Za-z.+-]*)\/dist\/([A-Za-z0-9_./-]+\.js)$/;
const CDNJS_STYLE = /\/ajax\/libs\/gsap\/([0-9][0-9A-Za-z.+-]*)\/([A-Za-z0-9_./-]+\.js)$/;

/** The GSAP version and file a URL asks for, or null when it is not a GSAP CDN URL. */
export function matchGsapUrl(url: string): GsapRequest | null {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return null;
  }
  const match = NPM_STYLE.exec(pathname) ?? CDNJS_STYLE.exec(pathname);
  if (!match || match[1] === undefined || match[2] === undefined) return null;
  if (match[2].split("/").includes("..")) return null;
  return { version: match[1], file: match[2] };
}

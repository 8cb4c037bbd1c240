// The one recogniser of GSAP CDN URLs, used by lint (which URLs a render can load), the render node (which requests
// it answers from the installed package), the play page (which script tags it points at the local copy) and the
// page runtime (sub-composition scripts). One function, so they can never disagree on a script. Pure; no regular
// expression reads the URL's structure: the URL parser does, then its path segments are compared.
import { parseUrl } from "../parse-text.ts";

/** The GSAP release compositions are checked against and render nodes serve (the `gsap-3.14.2` package). */
export const GSAP_VERSION = "3.14.2";
export const GSAP_CDN_URL = `https://cdn.jsdelivr.net/npm/gsap@${GSAP_VERSION}/dist/gsap.min.js`;

export interface GsapRequest {
  /** The pinned version, or null when the URL names none (`gsap/dist/...`) or asks for `latest`. */
  version: string | null;
  /** The file in the package's dist/ folder (cdnjs: its version folder), e.g. "gsap.min.js", "ScrollTrigger.js". */
  file: string;
}

/** Where package CDNs serve npm packages as `<prefix>gsap[@<version>]/dist/<file>` (jsDelivr under npm/). */
const PACKAGE_PREFIXES = ["cdn.jsdelivr.net/npm/", "fastly.jsdelivr.net/npm/", "unpkg.com/"];
/** cdnjs: `<prefix><version>/<file>`. */
const CDNJS_PREFIX = "cdnjs.cloudflare.com/ajax/libs/gsap/";
/**
 * Host and path prefixes of every URL this module recognises, scheme-less: the render page's CSP allows exactly
 * these as script sources (render-node/src/browser/network-policy.ts), so lint, interception and CSP agree.
 */
export const GSAP_CDN_PREFIXES: readonly string[] = [...PACKAGE_PREFIXES, CDNJS_PREFIX];
/** Any URL resolves against this, so a protocol-relative `//cdn...` reads as https and a relative path as no CDN. */
const NO_HOST = "https://relative.invalid/";

function isDistFile(name: string | undefined): name is string {
  if (!name || name.length > 100 || !name.toLowerCase().endsWith(".js")) return false;
  for (const ch of name) {
    const ok = (ch >= "a" && ch <= "z") || (ch >= "A" && ch <= "Z") || (ch >= "0" && ch <= "9") || ch === "." || ch === "_" || ch === "-";
    if (!ok) return false;
  }
  return true;
}

function pinned(version: string): string | null {
  return version === "" || version.toLowerCase() === "latest" ? null : version;
}

/** The GSAP version and file a script URL asks for, or null when it is not a GSAP file on a package CDN. */
export function matchGsapUrl(url: string): GsapRequest | null {
  const read = parseUrl(url.trim(), NO_HOST);
  if (!read.ok) return null; // no URL is no GSAP file
  const parsed = read.value;
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return null;
  const where = parsed.hostname.toLowerCase() + parsed.pathname;
  const npm = PACKAGE_PREFIXES.find((prefix) => where.startsWith(prefix));
  if (npm) {
    const [name = "", dist, file, ...rest] = where.slice(npm.length).split("/");
    if (dist !== "dist" || rest.length > 0 || !isDistFile(file)) return null;
    if (name === "gsap") return { version: null, file };
    return name.startsWith("gsap@") ? { version: pinned(name.slice("gsap@".length)), file } : null;
  }
  if (where.startsWith(CDNJS_PREFIX)) {
    const [version = "", file, ...rest] = where.slice(CDNJS_PREFIX.length).split("/");
    return rest.length === 0 && isDistFile(file) ? { version: pinned(version), file } : null;
  }
  return null;
}

/** True for the core library file (not a plugin such as ScrollTrigger). */
export function isGsapCore(file: string): boolean {
  const name = file.toLowerCase();
  return name === "gsap.js" || name === "gsap.min.js";
}

// Recognises the script URL of HyperFrames' shader-transition library (@hyperframes/shader-transitions, whose
// browser build defines window.HyperShader) on the package CDNs GSAP is allowed from: jsDelivr and unpkg, any
// version, `dist/index.global.js` (the build its docs load with a script tag). Renders answer it, and play pages
// point it at, our own implementation (hyper-shader-page-script.ts). Pure: the URL parser reads the structure,
// then its path segments are compared.
import { parseUrl } from "../parse-text.ts";

const PACKAGE_PREFIXES = ["cdn.jsdelivr.net/npm/", "fastly.jsdelivr.net/npm/", "unpkg.com/"];
const SCOPE = "@hyperframes";
const NAME = "shader-transitions";
const FILES = new Set(["index.global.js", "index.global.min.js"]);
const VERSION = /^[0-9A-Za-z.+-]{1,40}$/;

/** True when `url` asks a package CDN for the browser build of @hyperframes/shader-transitions. */
export function isShaderTransitionsUrl(url: string): boolean {
  const read = parseUrl(url.trim(), "https://relative.invalid/");
  if (!read.ok) return false; // no URL asks a CDN for anything
  const parsed = read.value;
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return false;
  const where = parsed.hostname.toLowerCase() + parsed.pathname;
  const prefix = PACKAGE_PREFIXES.find((p) => where.startsWith(p));
  if (!prefix) return false;
  const [scope, name = "", dist, file = "", ...rest] = where.slice(prefix.length).split("/");
  if (scope !== SCOPE || dist !== "dist" || rest.length > 0 || !FILES.has(file)) return false;
  const at = name.indexOf("@");
  if (at === -1) return name === NAME;
  return name.slice(0, at) === NAME && VERSION.test(name.slice(at + 1));
}

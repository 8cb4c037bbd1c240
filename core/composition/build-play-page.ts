// Turns a composition's HTML into a playable page: the studio runtime first (in "play" mode), GSAP from a local
// copy of the release a render would serve instead of the CDN (the player's bar says so when that is not the
// release the page pinned), an optional <base> so relative files load from elsewhere, and the player last.
// Pure string work, shared by the Worker's /play page and the render node's preview server.
import { escapeHtml } from "./escape-html.ts";
import { localGsap } from "./local-gsap.ts";
import { isShaderTransitionsUrl } from "./match-shader-transitions-url.ts";

export interface PlayPageOptions {
  /** URL of the page runtime (page-runtime/dist/studio-runtime.js) as the page can load it. */
  runtimeSrc: string;
  /** URL of the player (page-runtime/dist/studio-player.js). */
  playerSrc: string;
  /** Prefix that `<version>/<dist file>` is appended to, e.g. "/_studio/gsap/" (local-gsap.ts). */
  gsapBase: string;
  /** URL of our HyperShader (hyper-shader-page-script.ts), which HyperFrames' shader-transition script tags get. */
  hyperShaderSrc: string;
  /** Where relative URLs of the composition resolve (the files API for /play). */
  baseHref?: string | undefined;
  /** A Server-Sent Events URL whose `reload` event makes the page reload (the preview server). */
  reloadUrl?: string | undefined;
}

const SCRIPT_SRC = /(<script\b[^>]*?\bsrc\s*=\s*)(["'])([^"']+)\2/gi;

/**
 * Points CDN GSAP script tags at the local copy of the release a render serves for them, and HyperFrames'
 * shader-transition library at our HyperShader when `hyperShaderSrc` is given; other scripts stay as they are.
 * `substituted` gets each script whose pinned release is not the one served, in the render's words.
 */
export function rewriteGsapScripts(
  html: string,
  gsapBase: string,
  { hyperShaderSrc, substituted = () => {} }: { hyperShaderSrc?: string; substituted?: (message: string) => void } = {},
): string {
  return html.replace(SCRIPT_SRC, (whole, prefix: string, quote: string, url: string) => {
    const local = localGsap(url, gsapBase);
    if (local) {
      if (local.substituted) substituted(local.substituted);
      return `${prefix}${quote}${local.src}${quote}`;
    }
    return hyperShaderSrc !== undefined && isShaderTransitionsUrl(url) ? `${prefix}${quote}${hyperShaderSrc}${quote}` : whole;
  });
}

function insertAfterHead(html: string, tags: string): string {
  const head = /<head\b[^>]*>/i.exec(html);
  if (head) return html.slice(0, head.index + head[0].length) + tags + html.slice(head.index + head[0].length);
  const root = /<html\b[^>]*>/i.exec(html);
  if (root) return html.slice(0, root.index + root[0].length) + `<head>${tags}</head>` + html.slice(root.index + root[0].length);
  return tags + html;
}

function insertBeforeBodyEnd(html: string, tags: string): string {
  const end = html.search(/<\/body\s*>/i);
  return end >= 0 ? html.slice(0, end) + tags + html.slice(end) : html + tags;
}

export function buildPlayPage(html: string, options: PlayPageOptions): string {
  const attr = (value: string) => `"${escapeHtml(value)}"`;
  const head =
    (options.baseHref ? `<base href=${attr(options.baseHref)}>` : "") +
    `<script src=${attr(options.runtimeSrc)} data-mode="play" data-gsap-base=${attr(options.gsapBase)}></script>`;
  const notices: string[] = [];
  const page = rewriteGsapScripts(html, options.gsapBase, { hyperShaderSrc: options.hyperShaderSrc, substituted: (message) => notices.push(message) });
  const player =
    `<script src=${attr(options.playerSrc)}` +
    (options.reloadUrl ? ` data-reload-url=${attr(options.reloadUrl)}` : "") +
    (notices.length > 0 ? ` data-notice=${attr([...new Set(notices)].join("\n"))}` : "") +
    `></script>`;
  return insertBeforeBodyEnd(insertAfterHead(page, head), player);
}

// A loopback HTTP server for one render: the project's files, the page runtime, and extracted video frames, each
// with the composition CSP (network-policy.ts). Its origin is the only address the render's browsers may reach.
import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, resolve, sep } from "node:path";
import { frameFileName } from "../media/follow-frame-files.ts";
import { COMPOSITION_CSP } from "./network-policy.ts";
import { contentTypeFor } from "../../../core/http/content-type.ts";
import { rewriteCssFonts, rewriteHtmlFonts } from "../../../core/fonts/rewrite-page-fonts.ts";
import { bundledFontFile, FACES_PATH, readProjectFonts, type ProjectFonts } from "./bundled-fonts.ts";
import { answerKnownLibraryFile, replaceKnownInlineLibraries } from "./known-library-files.ts";

import { assertPageRuntimeBuilt, RUNTIME_SCRIPT } from "../../../page-runtime/paths.ts";
import { isNotFound } from "../system/debug-log.ts";

/** The bundled page runtime (page-runtime/build.ts). */
export const RUNTIME_PATH = RUNTIME_SCRIPT;

export interface ProjectServer {
  origin: string;
  /** The page URL of a project-relative HTML file, with the runtime injected in the given mode. */
  pageUrl(file: string, mode: "render" | "play"): string;
  close(): Promise<void>;
}

/**
 * Puts the runtime's <script> first in the document, so it runs before any composition script, after `prefix`
 * (the bundled fonts' stylesheet link, so the page's own rules come later and win).
 */
export function injectRuntime(html: string, mode: string, prefix = ""): string {
  const tag = `${prefix}<script src="/__studio/runtime.js" data-mode="${mode}"></script>`;
  const head = /<head\b[^>]*>/i.exec(html);
  if (head) return html.slice(0, head.index + head[0].length) + tag + html.slice(head.index + head[0].length);
  const root = /<html\b[^>]*>/i.exec(html);
  if (root) return html.slice(0, root.index + root[0].length) + tag + html.slice(root.index + root[0].length);
  return tag + html;
}

/**
 * Serves `projectDir` on 127.0.0.1 with a random port; `videoFramesDir` holds <folder>/<frame>.jpg, the folders
 * numbered by the node (extract-video-frames.ts).
 */
export async function serveProject(projectDir: string, videoFramesDir?: string): Promise<ProjectServer> {
  assertPageRuntimeBuilt();
  const root = resolve(projectDir);
  // Read once per render: the project's files do not change while it is served.
  let fonts: Promise<ProjectFonts> | undefined;
  const projectFonts = () => (fonts ??= readProjectFonts(root));
  const server = createServer((req, res) => {
    // On every response, not only the entry page: a project's other HTML (an iframe, an SVG opened as a document)
    // is a composition page too.
    res.setHeader("content-security-policy", COMPOSITION_CSP);
    const url = new URL(req.url ?? "/", "http://localhost");
    const send = (status: number, body: string) => {
      res.writeHead(status, { "content-type": "text/plain; charset=utf-8" });
      res.end(body);
    };
    (async () => {
      let path: string;
      if (url.pathname === "/__studio/fonts/uses.json") {
        // For the node's own font check (load-composition.ts); a page reading it learns only its project's names.
        res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
        return res.end(JSON.stringify((await projectFonts()).uses));
      }
      if (url.pathname === FACES_PATH) {
        res.writeHead(200, { "content-type": "text/css; charset=utf-8", "cache-control": "no-store" });
        return res.end((await projectFonts()).faces);
      }
      if (url.pathname === "/__studio/runtime.js") path = RUNTIME_PATH;
      else if (url.pathname.startsWith("/__studio/fonts/bundled/")) {
        const file = bundledFontFile(url.pathname);
        if (!file) return send(404, "not found");
        path = file;
      }
      else if (url.pathname.startsWith("/__studio/video/") && videoFramesDir) {
        // Digits only, so the path stays inside the render's frames folder.
        const match = /^\/__studio\/video\/(\d{1,6})\/(\d{1,9})\.jpg$/.exec(url.pathname);
        if (!match) return send(404, "not found");
        path = join(videoFramesDir, String(Number(match[1])), frameFileName(Number(match[2])));
      } else {
        const relative = decodeURIComponent(url.pathname).replace(/^\/+/, "") || "index.html";
        path = resolve(root, relative);
        if (path !== root && !path.startsWith(root + sep)) return send(403, "outside the project");
      }
      const info = await stat(path).catch((error: unknown) => {
        if (isNotFound(error)) return null;
        throw error;
      });
      if (!info || !info.isFile()) return send(404, "not found");
      const type = contentTypeFor(path);
      const mode = url.searchParams.get("studio");
      const extension = extname(path).toLowerCase();
      // Every page and stylesheet of the project (sub-compositions included) is read with the studio's fonts: see
      // core/fonts/rewrite-page-fonts.ts.
      if ((extension === ".html" || extension === ".htm" || extension === ".css") && path.startsWith(root + sep)) {
        const { linkTag, googleStylesheet } = await projectFonts();
        const text = await readFile(path, "utf8");
        let body = extension === ".css" ? rewriteCssFonts(text, googleStylesheet) : rewriteHtmlFonts(replaceKnownInlineLibraries(text), googleStylesheet);
        if (mode && extension !== ".css") body = injectRuntime(body, mode === "play" ? "play" : "render", linkTag);
        res.writeHead(200, { "content-type": type, "cache-control": "no-store" });
        return res.end(body);
      }
      // A library the node answers with its own (HyperFrames' shader transitions), copied into the project.
      const library = await answerKnownLibraryFile(path, info.size);
      if (library !== null) {
        res.writeHead(200, { "content-type": type, "cache-control": "no-store" });
        return res.end(library);
      }
      res.writeHead(200, { "content-type": type, "content-length": info.size, "cache-control": "max-age=3600" });
      createReadStream(path).pipe(res);
    })().catch((error: unknown) => send(500, String(error)));
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    pageUrl: (file, mode) => `${origin}/${file.split("/").map(encodeURIComponent).join("/")}?studio=${mode}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

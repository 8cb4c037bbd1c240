// The preview server of one project: its files, the composition wrapped in the studio player at /<secret>/, GSAP
// from the installed package, and a Server-Sent Events stream whose `reload` tells open pages that files changed.
// Listens on loopback by default, on the first free port from 3002 upward.
//
// Everything lives under /<secret>/ (the secret the Worker drew for this preview; its owner's URL carries it), so
// relative URLs and the reload stream work unchanged; anything else is a bare 404, the same as a missing file:
// no listing, no hint that a preview runs here. Only requests under the secret count as activity (idleMs).
import { timingSafeEqual } from "node:crypto";
import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { createServer, type Server, type ServerResponse } from "node:http";
import { join, resolve, sep } from "node:path";
import { buildPlayPage } from "../../../core/composition/build-play-page.ts";
import { SHIPPED_GSAP_VERSIONS } from "../../../core/composition/gsap-versions.ts";
import { gsapDist } from "../browser/intercept-requests.ts";
import { RUNTIME_PATH } from "../browser/serve-project.ts";
import { assertPageRuntimeBuilt, PLAYER_SCRIPT } from "../../../page-runtime/paths.ts";
import { contentTypeFor } from "../../../core/http/content-type.ts";
import { isUnsatisfiable, rangeBytes, singleRange } from "../../../core/http/byte-range.ts";
import { bundledFontFile, FACES_PATH, readProjectFonts } from "../browser/bundled-fonts.ts";
import { rewriteHtmlFonts } from "../../../core/fonts/rewrite-page-fonts.ts";
import { parseVariablesJson } from "../../../core/render/render-variables.ts";
import { answerKnownLibraryFile, replaceKnownInlineLibraries } from "../browser/known-library-files.ts";
import { HYPER_SHADER_PAGE_SCRIPT } from "../../../core/composition/hyper-shader-page-script.ts";
import { isNotFound } from "../system/debug-log.ts";

export const PREVIEW_FIRST_PORT = 3002;
export const PREVIEW_HOST = "127.0.0.1";
const PORT_ATTEMPTS = 200;
const PLAYER_PATH = PLAYER_SCRIPT;

export interface PreviewServer {
  port: number;
  /** Milliseconds since the last request under the secret (or since the server started). */
  idleMs(): number;
  /** Tells every open page to reload. */
  reload(): void;
  close(): Promise<void>;
}

function listen(server: Server, port: number, host: string): Promise<boolean> {
  return new Promise((done, fail) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off("listening", onListening);
      if (error.code === "EADDRINUSE" || error.code === "EACCES") done(false);
      else fail(error);
    };
    const onListening = () => {
      server.off("error", onError);
      done(true);
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, host);
  });
}

/** Whether `path` is under /<secret>/: returns the rest ("/" for the page itself), "redirect" for /<secret>, or null. */
function underSecret(path: string, secret: Buffer): string | "redirect" | null {
  const end = path.indexOf("/", 1);
  const first = Buffer.from(end === -1 ? path.slice(1) : path.slice(1, end));
  if (first.length !== secret.length || !timingSafeEqual(first, secret)) return null;
  return end === -1 ? "redirect" : path.slice(end);
}

/** window.__hfVariables before any page script; `<` escaped so no value can close the tag. */
function variablesScript(values: Record<string, unknown>): string {
  return `<script>window.__hfVariables=${JSON.stringify(values).replace(/</g, "\\u003c")};</script>`;
}

export async function servePreview(options: {
  projectDir: string;
  /** The preview's secret: the first path segment of every URL it answers. */
  secret: string;
  host?: string | undefined;
  firstPort?: number | undefined;
}): Promise<PreviewServer> {
  assertPageRuntimeBuilt();
  const root = resolve(options.projectDir);
  const secret = Buffer.from(options.secret);
  const prefix = `/${options.secret}`;
  const clients = new Set<ServerResponse>();
  let lastRequest = Date.now();
  const server = createServer((req, res) => {
    const requested = new URL(req.url ?? "/", "http://preview");
    const send = (status: number, body: string) => {
      res.writeHead(status, { "content-type": "text/plain; charset=utf-8" });
      res.end(body);
    };
    const rest = underSecret(requested.pathname, secret);
    if (rest === null) return send(404, "not found");
    lastRequest = Date.now();
    // The secret is in every URL of the page: never send it on to another site as a Referer.
    res.setHeader("referrer-policy", "no-referrer");
    if (rest === "redirect") {
      res.writeHead(308, { location: `${prefix}/${requested.search}` });
      return res.end();
    }
    const url = new URL(`http://preview${rest}${requested.search}`);
    (async () => {
      if (url.pathname === "/__studio/events") {
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store", connection: "keep-alive" });
        res.write(": connected\n\n");
        clients.add(res);
        req.on("close", () => clients.delete(res));
        return;
      }
      let path: string;
      if (url.pathname === "/__studio/runtime.js") path = RUNTIME_PATH;
      else if (url.pathname === "/__studio/player.js") path = PLAYER_PATH;
      else if (url.pathname === FACES_PATH) {
        res.writeHead(200, { "content-type": "text/css; charset=utf-8", "cache-control": "no-store" });
        return res.end((await readProjectFonts(root, prefix)).faces);
      } else if (url.pathname.startsWith("/__studio/fonts/bundled/")) {
        const file = bundledFontFile(url.pathname);
        if (!file) return send(404, "not found");
        path = file;
      }
      else if (url.pathname === "/__studio/hyper-shader.js") {
        res.writeHead(200, { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-store" });
        return res.end(HYPER_SHADER_PAGE_SCRIPT);
      }
      else if (url.pathname.startsWith("/__studio/gsap/")) {
        // <version>/<file>, the release a render serves for the page's URL (core/composition/local-gsap.ts).
        const [version = "", file = "", ...rest] = url.pathname.slice("/__studio/gsap/".length).split("/");
        if (rest.length > 0 || !SHIPPED_GSAP_VERSIONS.includes(version) || !/^[A-Za-z0-9_.-]+\.js$/.test(file)) return send(404, "not found");
        path = join(gsapDist(version), file);
      } else {
        const relative = decodeURIComponent(url.pathname).replace(/^\/+/, "") || "index.html";
        path = resolve(root, relative);
        if (path !== root && !path.startsWith(root + sep)) return send(403, "outside the project");
      }
      const info = await stat(path).catch((error: unknown) => {
        if (isNotFound(error)) return null;
        throw error;
      });
      if (!info?.isFile()) return send(404, "not found");
      const type = contentTypeFor(path);
      // The page itself is wrapped in the player; sub-compositions are fetched raw by the runtime.
      if (url.pathname === "/" || url.searchParams.has("play")) {
        // ?variables=<json>, as HyperFrames' preview takes it: the page runs with those render-time variables.
        const given = url.searchParams.get("variables");
        const variables = given === null ? null : parseVariablesJson(given);
        if (variables && !variables.ok) return send(400, `invalid variables: ${variables.error}`);
        // The same fonts as a render: bundled families and Inter before generics. The viewer's browser has the
        // network, so Google Fonts links stay (a preconnect hint is dropped); read per request, files change.
        const fonts = await readProjectFonts(root, prefix);
        const page = rewriteHtmlFonts(replaceKnownInlineLibraries(await readFile(path, "utf8")), (link) => link);
        const head = /<head\b[^>]*>/i.exec(page);
        const first = fonts.linkTag + (variables?.ok ? variablesScript(variables.variables) : "");
        const withFonts = head ? page.slice(0, head.index + head[0].length) + first + page.slice(head.index + head[0].length) : first + page;
        const html = buildPlayPage(withFonts, {
          runtimeSrc: `${prefix}/__studio/runtime.js`,
          playerSrc: `${prefix}/__studio/player.js`,
          gsapBase: `${prefix}/__studio/gsap/`,
          hyperShaderSrc: `${prefix}/__studio/hyper-shader.js`,
          reloadUrl: `${prefix}/__studio/events`,
        });
        res.writeHead(200, { "content-type": type, "cache-control": "no-store" });
        return res.end(html);
      }
      // A library the node answers with its own (HyperFrames' shader transitions), copied into the project.
      const library = await answerKnownLibraryFile(path, info.size);
      if (library !== null) {
        res.writeHead(200, { "content-type": type, "cache-control": "no-store" });
        return res.end(library);
      }
      // One byte range, as the Worker serves project files: a player seeks an <audio> or <video> only in a file
      // served with ranges (without, Chromium can play it from the start but never seek it).
      const range = singleRange(req.headers.range);
      if (range && isUnsatisfiable(range, info.size)) {
        res.writeHead(416, { "content-range": `bytes */${info.size}`, "cache-control": "no-store" });
        return res.end();
      }
      if (range) {
        const { first, last } = rangeBytes(range, info.size);
        res.writeHead(206, {
          "content-type": type, "content-length": last - first + 1, "content-range": `bytes ${first}-${last}/${info.size}`,
          "accept-ranges": "bytes", "cache-control": "no-store",
        });
        return void createReadStream(path, { start: first, end: last }).pipe(res);
      }
      res.writeHead(200, { "content-type": type, "content-length": info.size, "accept-ranges": "bytes", "cache-control": "no-store" });
      createReadStream(path).pipe(res);
    })().catch((error: unknown) => send(500, String(error)));
  });
  const keepAlive = setInterval(() => clients.forEach((c) => c.write(": keep-alive\n\n")), 15_000);
  const first = options.firstPort ?? PREVIEW_FIRST_PORT;
  let port = 0;
  for (let candidate = first; candidate < first + PORT_ATTEMPTS && port === 0; candidate++) {
    if (await listen(server, candidate, options.host ?? PREVIEW_HOST)) port = candidate;
  }
  if (port === 0) {
    clearInterval(keepAlive);
    throw new Error(`no free port for the preview between ${first} and ${first + PORT_ATTEMPTS - 1}`);
  }
  return {
    port,
    idleMs: () => Date.now() - lastRequest,
    reload() {
      for (const c of clients) c.write(`event: reload\ndata: {}\n\n`);
    },
    close: () =>
      new Promise<void>((done) => {
        clearInterval(keepAlive);
        for (const c of clients) c.end();
        clients.clear();
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

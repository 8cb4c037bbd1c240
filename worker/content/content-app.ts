// The content origin (CONTENT_URL): everything a project author wrote, and nothing else. Requests here are never
// identified: no cookie, session or token is read, so a page served here can borrow nobody's rights. The only
// authority is the capability in the path (see worker/capabilities/content-links.ts).
//
//   GET /c/<capability>/            project: the play page (index.html with the studio runtime and player)
//                                   render: redirect to the file
//   GET /c/<capability>/<path>      project: the file (Range, ?download); render: the video when <path> is its name
//   GET /_studio/<file>             the play page's scripts (runtime, player), the same for everyone
//   GET /_studio/gsap/<version>/<file>  GSAP, the release a render serves for the page's URL (gsap-files.ts)
//   OPTIONS                         CORS preflight: GET and HEAD with Range, from any origin (pages here are "null")
//   anything else                   belongs to the API origin: GET/HEAD redirect there, other methods are 404
import { logRequest } from "../http/request-log.ts";
import { Hono, type Context } from "hono";
import * as z from "zod";
import { buildPlayPage } from "../../core/composition/build-play-page.ts";
import { escapeHtml } from "../../core/composition/escape-html.ts";
import { contentTypeFor } from "../../core/http/content-type.ts";
import { FORMAT_CONTENT_TYPES, type Format } from "../../core/render/render-options.ts";
import { resolveCapability } from "../capabilities/resolve-capability.ts";
import type { ProjectTarget, RenderTarget } from "../capabilities/store.ts";
import { openDb } from "../db/client.ts";
import { fileKey, renderKey } from "../storage/keys.ts";
import type { AppEnv } from "../http/context.ts";
import { ApiError, handleError, notFound } from "../http/errors.ts";
import { messagePage } from "../http/message-page.ts";
import { apiOrigin } from "../http/origins.ts";
import { rawFilePath } from "../http/raw-file-path.ts";
import { route } from "../http/route.ts";
import { serveObject } from "../http/serve-object.ts";
import { PAGE_SCRIPTS } from "./page-scripts.ts";
import { gsapFileRoutes } from "./gsap-files.ts";
import { contentHeaders } from "./content-headers.ts";
import { listProjectFiles } from "../storage/list-objects.ts";
import { playPageFonts } from "./play-page-fonts.ts";

/**
 * The query a content link reads: `?download` asks for an attachment. Loose: a page may ask for its own files with
 * any query (a cache-buster such as `logo.png?v=2`), and the file is the same.
 */
const contentQuery = () => z.looseObject({ download: z.string().optional() });
type ContentQuery = z.output<ReturnType<typeof contentQuery>>;
const capabilityParams = () => z.object({ capability: z.string() });

const JS = { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "private, max-age=300" };

/** Where the play page loads the studio's own scripts from (this origin, so the CSP allows them). */
const STUDIO_SCRIPTS = "/_studio/";

/** The project-relative path after /c/<capability>/, or "" for the capability's root. */
function restOf(c: Context<AppEnv>): string {
  return new URL(c.req.url).pathname.split("/").slice(3).join("/");
}

async function playPage(c: Context<AppEnv>, target: ProjectTarget): Promise<Response> {
  const index = await c.env.FILES.get(fileKey(target, "index.html"));
  if (!index) return c.html(messagePage("Nothing to play", `Project ${escapeHtml(target.slug)} has no index.html.`), 404);
  const files = (await listProjectFiles(c.env.FILES, target)).filter((f) => f.type === "file" && f.path !== "index.html");
  // Cached Google Fonts are the project's own files (worker/content/google-fonts-cache.ts), linked relative to the page.
  const html = await playPageFonts(c.env, target, await index.text(), files.map((f) => ({ path: f.path, size: f.size, key: fileKey(target, f.path) })));
  const page = buildPlayPage(html, {
    runtimeSrc: `${STUDIO_SCRIPTS}runtime.js`,
    playerSrc: `${STUDIO_SCRIPTS}player.js`,
    gsapBase: `${STUDIO_SCRIPTS}gsap/`,
    hyperShaderSrc: `${STUDIO_SCRIPTS}hyper-shader.js`,
  });
  return c.html(page, 200, { "Cache-Control": "private, no-store" });
}

function projectFile(c: Context<AppEnv>, target: ProjectTarget, query: ContentQuery): Promise<Response> {
  const { path, isDirectory } = rawFilePath(c.req.url, 3);
  if (isDirectory) throw notFound(`${path} is a directory`);
  const name = path.slice(path.lastIndexOf("/") + 1);
  return serveObject(c.env.FILES, fileKey(target, path), c.req.raw, {
    contentType: contentTypeFor(path),
    downloadName: query.download !== undefined ? name : undefined,
    notFoundMessage: `no file ${path} in project ${target.slug}`,
  });
}

function renderFile(c: Context<AppEnv>, target: RenderTarget, rest: string, query: ContentQuery): Promise<Response> | Response {
  if (rest === "") return c.redirect(encodeURIComponent(target.filename), 302);
  // A render link names one file: nothing else is under it, and nothing once the render is deleted.
  if (rest !== encodeURIComponent(target.filename)) throw notFound(`this link is to the render ${target.filename} and nothing else`);
  if (!target.available) throw notFound(`the render ${target.filename} was deleted`);
  return serveObject(c.env.FILES, renderKey(target.userId, target.filename), c.req.raw, {
    contentType: FORMAT_CONTENT_TYPES[target.format as Format] ?? "application/octet-stream",
    downloadName: query.download !== undefined ? target.filename : undefined,
    notFoundMessage: `no render named ${target.filename}`,
  });
}

export function createContentApp() {
  const app = new Hono<AppEnv>();
  app.use("*", logRequest);
  app.use("*", contentHeaders);
  gsapFileRoutes(app);
  app.get(
    "/_studio/:file",
    route(
      { operationId: "contentPageScript", summary: "A play page's script (runtime, player)", tag: "content", access: "public", request: () => ({ params: z.object({ file: z.string() }) }), responses: () => ({ 200: { description: "the script" } }), errors: [404] },
      (c, input) => {
        const text = PAGE_SCRIPTS[input.param("file")];
        return text === undefined ? c.text("not found", 404) : c.body(text, 200, JS);
      },
    ),
  );
  app.get(
    "/c/:capability",
    route(
      { operationId: "contentLinkRoot", summary: "A content link without its slash", tag: "content", access: "public", request: () => ({ params: capabilityParams() }), responses: () => ({ 301: { description: "the link with its slash" } }) },
      (c) => c.redirect(`${new URL(c.req.url).pathname}/`, 301),
    ),
  );
  app.get(
    "/c/:capability/*",
    route(
      {
        operationId: "contentLink", summary: "A content link: a project's play page or file, or a render's file", tag: "content", access: "public",
        request: () => ({ params: capabilityParams(), query: contentQuery() }),
        responses: () => ({ 200: { description: "the page or file" }, 302: { description: "a render link's root: its file" } }),
        errors: [404],
      },
      async (c, input) => {
        const rest = restOf(c);
        try {
          const query = input.query();
          const target = await resolveCapability(c.env, openDb(c.env.DB), input.param("capability"));
          if (target.kind === "render") return await renderFile(c, target, rest, query);
          return rest === "" ? await playPage(c, target) : await projectFile(c, target, query);
        } catch (err) {
          // The play page is opened by a person: answer with a page, in the same status as the API would.
          if (rest === "" && err instanceof ApiError) return c.html(messagePage("This link does not work", escapeHtml(err.message)), err.status);
          throw err;
        }
      },
    ),
  );
  // A sandboxed page's fetch() with a Range header is a CORS request that asks first.
  app.options("*", (c) =>
    c.body(null, 204, { "Access-Control-Allow-Methods": "GET, HEAD", "Access-Control-Allow-Headers": "Range, If-Range", "Access-Control-Max-Age": "600" }),
  );
  // Everything else is the API's or the dashboard's: send readers there, refuse writes outright.
  app.all("*", (c) => {
    const url = new URL(c.req.url);
    if (c.req.method === "GET" || c.req.method === "HEAD") return c.redirect(`${apiOrigin(c.env)}${url.pathname}${url.search}`, 302);
    throw notFound(`not found: this is the content origin, which only serves content links; the API is at ${apiOrigin(c.env)}`);
  });
  app.onError(handleError);
  return app;
}

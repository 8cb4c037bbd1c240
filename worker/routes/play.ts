// GET /play/<slug>: the browser playback page for signed-in dashboard users. The project's index.html with the
// studio runtime (play mode) and the player; its files load through the files API with the session cookie, and
// GSAP from this Worker.
import { Hono } from "hono";
import { buildPlayPage } from "../../core/composition/build-play-page.ts";
import { escapeHtml } from "../../core/composition/escape-html.ts";
import { openDb } from "../db/client.ts";
import { fileKey } from "../files/keys.ts";
import type { AppEnv } from "../http/context.ts";
import { GSAP_FILES, PAGE_SCRIPTS } from "../play/page-scripts.ts";
import { findProject } from "../projects/store.ts";

const JS = { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "public, max-age=300" };

function messagePage(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
    `<body style="font:16px system-ui,sans-serif;margin:3rem"><h1>${escapeHtml(title)}</h1><p>${body}</p></body></html>`;
}

export const playRoutes = new Hono<AppEnv>()
  .get("/_studio/gsap/:file", (c) => {
    const text = GSAP_FILES[c.req.param("file")];
    return text === undefined ? c.text("not bundled: only the GSAP core (gsap.min.js) is served here", 404) : c.body(text, 200, JS);
  })
  .get("/_studio/:file", (c) => {
    const text = PAGE_SCRIPTS[c.req.param("file")];
    return text === undefined ? c.text("not found", 404) : c.body(text, 200, JS);
  })
  .get("/:slug", async (c) => {
    const user = c.get("user");
    if (!user) {
      return c.html(messagePage("Sign in to play this project", `Playback is for signed-in users. <a href="/">Sign in on the dashboard</a>, then open this page again.`), 401);
    }
    const ref = { userId: user.id, slug: c.req.param("slug") };
    const project = await findProject(openDb(c.env.DB), ref);
    const index = project ? await c.env.FILES.get(fileKey(ref, "index.html")) : null;
    if (!project || !index) return c.html(messagePage("No such project", `You have no project named ${escapeHtml(ref.slug)}.`), 404);
    const page = buildPlayPage(await index.text(), {
      runtimeSrc: "/play/_studio/runtime.js",
      playerSrc: "/play/_studio/player.js",
      gsapBase: "/play/_studio/gsap/",
      baseHref: `/api/projects/${encodeURIComponent(ref.slug)}/files/`,
    });
    return c.html(page, 200, { "Cache-Control": "no-store" });
  });

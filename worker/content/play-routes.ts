// GET /play/<slug> on the API origin: for a signed-in person (session cookie, or a token in a header) a 302 to a
// fresh one-hour capability link on the content origin, where the page is actually served; nothing a project
// author wrote is ever served here. `?token=` signs nobody in (see auth/navigation-user.ts).
import { Hono } from "hono";
import { escapeHtml } from "../../core/composition/escape-html.ts";
import { navigationUser } from "../auth/navigation-user.ts";
import { projectLink } from "../capabilities/content-links.ts";
import { VIEW_LINK_SECONDS } from "../capabilities/lifetimes.ts";
import { openDb } from "../db/client.ts";
import type { AppEnv } from "../http/context.ts";
import { messagePage } from "../http/message-page.ts";
import { apiOrigin, contentOrigin } from "../http/origins.ts";
import { findProject } from "../projects/store.ts";
import { route } from "../http/route.ts";
import { slugParams } from "../http/path-params.ts";
import { media } from "../openapi/operation.ts";

/** The answer of the redirects to the content origin. */
export const toContent = () => ({ 302: { description: "a redirect to the content origin", headers: { Location: "the content origin URL" } } });

const NO_STORE = { "Cache-Control": "no-store" };

export const playRoutes = new Hono<AppEnv>()
  // The page scripts moved to the content origin with the page; old references follow.
  .get(
    "/_studio/*",
    route(
      { operationId: "playScriptRedirect", summary: "Old player script paths: a redirect to the content origin", tag: "play", access: "public", responses: toContent },
      (c) => c.redirect(`${contentOrigin(c.env)}${new URL(c.req.url).pathname.slice("/play".length)}`, 302),
    ),
  )
  .get("/:slug", route({
    operationId: "playProject", summary: "The player for a signed-in dashboard user: a redirect to a one-hour link on the content origin", tag: "play", access: "user", request: () => ({ params: slugParams() }),
    responses: () => ({ ...toContent(), 401: media("text/html", "a page asking to sign in"), 404: media("text/html", "a page: no such project") }),
  }, async (c, input) => {
    const user = await navigationUser(c);
    if (!user) {
      const signIn = `${apiOrigin(c.env)}/`;
      return c.html(messagePage("Sign in to play this project", `Playback is for signed-in users. <a href="${signIn}">Sign in on the dashboard</a>, then open this page again.`), 401, NO_STORE);
    }
    const db = openDb(c.env.DB);
    const slug = input.param("slug");
    const project = await findProject(db, { userId: user.id, slug });
    if (!project) return c.html(messagePage("No such project", `You have no project named ${escapeHtml(slug)}.`), 404, NO_STORE);
    const link = await projectLink(c.env, db, project, VIEW_LINK_SECONDS);
    c.header("Cache-Control", "no-store");
    c.header("Referrer-Policy", "no-referrer");
    return c.redirect(link.url, 302);
  }));

/** /c/<path> (a content link pasted onto the API origin): the same path on the content origin. */
export const contentLinkRedirect = route(
  { operationId: "contentLinkRedirect", summary: "A content link pasted onto the API origin: a redirect to the content origin", tag: "play", access: "public", responses: toContent },
  (c) => c.redirect(`${contentOrigin(c.env)}${new URL(c.req.url).pathname}${new URL(c.req.url).search}`, 302),
);

/** /_studio/<path>: the player's scripts live on the content origin. */
export const studioScriptRedirect = route(
  { operationId: "studioScriptRedirect", summary: "Player scripts: a redirect to the content origin", tag: "play", access: "public", responses: toContent },
  (c) => c.redirect(`${contentOrigin(c.env)}${new URL(c.req.url).pathname}`, 302),
);

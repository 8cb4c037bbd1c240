// POST /api/projects/:slug/share: a read-only capability link on the content origin that anyone holding it can
// open until it expires: the project's play page and files, or one of its renders. Revoked early by rotating the
// owner's token (POST /api/me/token/rotate).
import { Hono } from "hono";
import { currentUser, requireUser } from "../auth/middleware.ts";
import { projectLink, renderLink } from "./content-links.ts";
import { SHARE_LINK_DEFAULT_SECONDS } from "./lifetimes.ts";
import { openDb } from "../db/client.ts";
import type { AppEnv } from "../http/context.ts";
import { notFound } from "../http/errors.ts";
import { route } from "../http/route.ts";
import { slugParams } from "../http/path-params.ts";
import { json } from "../openapi/operation.ts";
import { contentLink } from "../openapi/shapes.ts";
import { shareBody } from "../projects/schemas.ts";
import { requireProject } from "../projects/store.ts";
import { findRenderFile } from "../renders/store.ts";

export const shareRoutes = new Hono<AppEnv>().use(requireUser).post(
  "/:slug/share",
  route(
    {
      operationId: "shareProject", summary: "A read-only link to the project or one of its renders on the content origin", tag: "projects", access: "user",
      request: () => ({ params: slugParams(), body: { json: shareBody() } }),
      responses: () => ({ 200: json(contentLink(), "the link") }),
      errors: [400, 404],
    },
    async (c, input) => {
      const ref = { userId: currentUser(c).id, slug: input.param("slug") };
      const db = openDb(c.env.DB);
      const body = await input.body();
      const seconds = body.expiresIn ?? SHARE_LINK_DEFAULT_SECONDS;
      if (body.render === undefined) return c.json(await projectLink(c.env, db, await requireProject(db, ref), seconds));
      // Renders outlive their project, so a render of a deleted project can still be shared.
      const render = await findRenderFile(db, ref.userId, body.render);
      if (!render || render.slug !== ref.slug) throw notFound(`no render named ${body.render} in project ${ref.slug}`);
      return c.json(await renderLink(c.env, db, render, seconds));
    },
  ),
);

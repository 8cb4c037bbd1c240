// GET /api/me/apps and DELETE /api/me/apps/:id: the person's connected apps (OAuth grants), for the dashboard's
// Connected apps card. The person only: a session or personal token, never a grant (route-scopes.ts closes these
// to OAuth), so an app cannot list or revoke other apps. The OAuth library is loaded on first use.
import { Hono } from "hono";
import { currentUser, requireUser } from "../auth/middleware.ts";
import type { AppEnv } from "../http/context.ts";
import { badRequest, notFound } from "../http/errors.ts";

const GRANT_ID = /^[A-Za-z0-9_-]{1,100}$/;

export const grantRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/", async (c) => {
    const { listConnectedApps } = await import("./grants.ts");
    return c.json({ apps: await listConnectedApps(c.env, currentUser(c).id) });
  })
  .delete("/:id", async (c) => {
    const id = c.req.param("id");
    if (!GRANT_ID.test(id)) throw badRequest("invalid app id");
    const { revokeConnectedApp } = await import("./grants.ts");
    if (!(await revokeConnectedApp(c.env, currentUser(c).id, id))) throw notFound("no connected app by this id");
    return c.json({ revoked: true, id });
  });

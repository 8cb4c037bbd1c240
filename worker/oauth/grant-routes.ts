// GET /api/me/apps and DELETE /api/me/apps/:id: the person's connected apps (OAuth grants), for the dashboard's
// Connected apps card. The person only: a session or personal token, never a grant (route-scopes.ts closes these
// to OAuth), so an app cannot list or revoke other apps. The OAuth library is loaded on first use.
import { Hono } from "hono";
import { currentUser, requireUser } from "../auth/middleware.ts";
import type { AppEnv } from "../http/context.ts";
import { badRequest, notFound } from "../http/errors.ts";
import { route } from "../http/route.ts";
import { idParams } from "../http/path-params.ts";
import { json } from "../openapi/operation.ts";
import { revoked } from "../openapi/shapes.ts";
import { connectedAppList } from "./shapes.ts";

const GRANT_ID = /^[A-Za-z0-9_-]{1,100}$/;

export const grantRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get(
    "/",
    route(
      {
        operationId: "listConnectedApps", summary: "Apps connected to your account through OAuth", tag: "identity", access: "user",
        responses: () => ({ 200: json(connectedAppList(), "the connected apps") }),
      },
      async (c) => {
        const { listConnectedApps } = await import("./grants.ts");
        return c.json({ apps: await listConnectedApps(c.env, currentUser(c).id) });
      },
    ),
  )
  .delete(
    "/:id",
    route(
      { operationId: "revokeConnectedApp", summary: "Disconnect an app: its tokens stop working", tag: "identity", access: "user", request: () => ({ params: idParams() }), responses: () => ({ 200: json(revoked(), "revoked") }), errors: [400, 404] },
      async (c, input) => {
        const id = input.param("id");
        if (!GRANT_ID.test(id)) throw badRequest("invalid app id");
        const { revokeConnectedApp } = await import("./grants.ts");
        if (!(await revokeConnectedApp(c.env, currentUser(c).id, id))) throw notFound("no connected app by this id");
        return c.json({ revoked: true, id });
      },
    ),
  );

// /api/node-keys — an admin issues (key shown once), lists and revokes render node keys. Session cookie or user
// token; bot and node keys cannot manage node keys, and a node cannot mint or revoke one.
import { Hono, type Context } from "hono";
import * as z from "zod";
import { openDb } from "../../db/client.ts";
import type { AppEnv } from "../../http/context.ts";
import { forbidden, notFound, unauthorized } from "../../http/errors.ts";
import { route } from "../../http/route.ts";
import { idParams } from "../../http/path-params.ts";
import { json } from "../../openapi/operation.ts";
import { revoked } from "../../openapi/shapes.ts";
import { isAdmin } from "../../ideas/caller.ts";
import { issueNodeKey, listNodeKeys, NODE_NAME, revokeNodeKey } from "./node-keys.ts";
import { issuedNodeKey, nodeKeyList } from "./shapes.ts";

function requireNodeAdmin(c: Context<AppEnv>): void {
  const credential = c.get("credential");
  if (credential === "bot" || credential === "node") throw forbidden(`${credential} keys cannot manage render node keys`);
  if (!c.get("user")) throw unauthorized(c.get("authProblem"));
  if (!isAdmin(c)) throw forbidden("only admins (ADMIN_USER_IDS) manage render node keys: a node key can read every user's projects");
}

export const nodeKeyRoutes = new Hono<AppEnv>()
  .get(
    "/",
    route(
      { operationId: "listNodeKeys", summary: "Render node keys (admins), with when each node was last heard from", tag: "nodes", access: "user", responses: () => ({ 200: json(nodeKeyList(), "the keys (never the key itself)") }), errors: [403] },
      async (c) => {
        requireNodeAdmin(c);
        return c.json({ nodeKeys: await listNodeKeys(openDb(c.env.DB)) });
      },
    ),
  )
  .post(
    "/",
    route(
      {
        operationId: "createNodeKey", summary: "Issue a render node key (admins); the key is shown once", tag: "nodes", access: "user",
        request: () => ({ body: { json: z.strictObject({ name: z.string().regex(NODE_NAME, "name: 1 to 60 letters, digits, '.', '_' or '-'") }), required: true } }),
        responses: () => ({ 201: json(issuedNodeKey(), "the new key") }),
        errors: [400, 403, 409],
      },
      async (c, input) => {
        requireNodeAdmin(c);
        const body = await input.body();
        const { nodeKey, key } = await issueNodeKey(openDb(c.env.DB), body.name);
        return c.json({ ...nodeKey, key }, 201);
      },
    ),
  )
  .delete(
    "/:id",
    route(
      { operationId: "revokeNodeKey", summary: "Revoke a render node key (admins); the node's next call is 401", tag: "nodes", access: "user", request: () => ({ params: idParams() }), responses: () => ({ 200: json(revoked(), "revoked") }), errors: [403, 404] },
      async (c, input) => {
        requireNodeAdmin(c);
        if (!(await revokeNodeKey(openDb(c.env.DB), input.param("id")))) throw notFound("no such node key");
        return c.json({ revoked: true, id: input.param("id") });
      },
    ),
  );

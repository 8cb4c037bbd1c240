// /api/node-keys — an admin issues (key shown once), lists and revokes render node keys. Session cookie or user
// token; bot and node keys cannot manage node keys, and a node cannot mint or revoke one.
import { Hono, type Context } from "hono";
import * as z from "zod";
import { openDb } from "../../db/client.ts";
import type { AppEnv } from "../../http/context.ts";
import { forbidden, notFound, unauthorized } from "../../http/errors.ts";
import { readJson } from "../../http/validate.ts";
import { isAdmin } from "../../ideas/caller.ts";
import { issueNodeKey, listNodeKeys, NODE_NAME, revokeNodeKey } from "./node-keys.ts";

export const createNodeKeyBody = z.strictObject({
  name: z.string().regex(NODE_NAME, "name: 1 to 60 letters, digits, '.', '_' or '-'"),
});

function requireNodeAdmin(c: Context<AppEnv>): void {
  const credential = c.get("credential");
  if (credential === "bot" || credential === "node") throw forbidden(`${credential} keys cannot manage render node keys`);
  if (!c.get("user")) throw unauthorized(c.get("authProblem"));
  if (!isAdmin(c)) throw forbidden("only admins (ADMIN_USER_IDS) manage render node keys: a node key can read every user's projects");
}

export const nodeKeyRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    requireNodeAdmin(c);
    return c.json({ nodeKeys: await listNodeKeys(openDb(c.env.DB)) });
  })
  .post("/", async (c) => {
    requireNodeAdmin(c);
    const body = await readJson(c, createNodeKeyBody);
    const { nodeKey, key } = await issueNodeKey(openDb(c.env.DB), body.name);
    return c.json({ ...nodeKey, key }, 201);
  })
  .delete("/:id", async (c) => {
    requireNodeAdmin(c);
    if (!(await revokeNodeKey(openDb(c.env.DB), c.req.param("id")))) throw notFound("no such node key");
    return c.json({ revoked: true, id: c.req.param("id") });
  });

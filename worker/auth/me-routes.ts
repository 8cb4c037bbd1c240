import { Hono } from "hono";
import { curlExample, identityOf, publicIdentityOf } from "./identity.ts";
import { currentUser, requireUser } from "./middleware.ts";
import { rotateToken } from "./users.ts";
import { openDb } from "../db/client.ts";
import { baseUrlOf } from "../http/base-url.ts";
import { tokenSecret } from "../http/config.ts";
import type { AppEnv } from "../http/context.ts";

export const meRoutes = new Hono<AppEnv>()
  .use(requireUser)
  // An OAuth-connected app (through an MCP tool) learns who you are, never your personal token.
  .get("/", async (c) => c.json(c.get("credential") === "oauth" ? await publicIdentityOf(c, currentUser(c)) : await identityOf(c, currentUser(c))))
  .post("/token/rotate", async (c) => {
    const userId = currentUser(c).id;
    const token = await rotateToken(openDb(c.env.DB), tokenSecret(c.env), userId);
    // Rotating signs every agent out: the old token, and every app connected through OAuth (worker/oauth/grants.ts).
    const { revokeAllConnectedApps } = await import("../oauth/grants.ts");
    const appsRevoked = await revokeAllConnectedApps(c.env, userId);
    return c.json({ rotated: true, token, curl: curlExample(baseUrlOf(c), token), appsRevoked });
  });

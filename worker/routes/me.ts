import { Hono } from "hono";
import { curlExample, identityOf } from "../auth/identity.ts";
import { currentUser, requireUser } from "../auth/middleware.ts";
import { rotateToken } from "../auth/users.ts";
import { openDb } from "../db/client.ts";
import { baseUrlOf } from "../http/base-url.ts";
import { tokenSecret } from "../http/config.ts";
import type { AppEnv } from "../http/context.ts";

export const meRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/", async (c) => c.json(await identityOf(c, currentUser(c))))
  .post("/token/rotate", async (c) => {
    const token = await rotateToken(openDb(c.env.DB), tokenSecret(c.env), currentUser(c).id);
    return c.json({ rotated: true, token, curl: curlExample(baseUrlOf(c), token) });
  });

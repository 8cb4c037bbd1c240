import { Hono } from "hono";
import { curlExample, identityOf, publicIdentityOf } from "./identity.ts";
import { currentUser, requireUser } from "./middleware.ts";
import { rotateToken } from "./users.ts";
import { endStreamsOf } from "./end-streams.ts";
import { openDb } from "../db/client.ts";
import { baseUrlOf } from "../http/base-url.ts";
import { tokenSecret } from "../http/config.ts";
import type { AppEnv } from "../http/context.ts";
import { route } from "../http/route.ts";
import { json } from "../openapi/operation.ts";
import { identity, rotatedToken } from "../openapi/shapes.ts";

export const meRoutes = new Hono<AppEnv>()
  .use(requireUser)
  // An OAuth-connected app (through an MCP tool) learns who you are, never your personal token.
  .get(
    "/",
    route(
      { operationId: "getMe", summary: "The caller's identity, token and a curl example", tag: "identity", access: "user", responses: () => ({ 200: json(identity(), "the caller") }) },
      async (c) => c.json(c.get("credential") === "oauth" ? await publicIdentityOf(c, currentUser(c)) : await identityOf(c, currentUser(c))),
    ),
  )
  .post(
    "/token/rotate",
    route(
      {
        operationId: "rotateToken", summary: "Replace the token; the old one stops working at once, and every app connected through OAuth is disconnected", tag: "identity", access: "user",
        responses: () => ({ 200: json(rotatedToken(), "the new token") }),
      },
      async (c) => {
        const userId = currentUser(c).id;
        const { token, oldHash, slugs } = await rotateToken(openDb(c.env.DB), tokenSecret(c.env), userId);
        // Before answering, every room ends the old token's streams (end-streams.ts), told while the apps are revoked.
        const tokenStreams = endStreamsOf(c.env, userId, slugs, oldHash ? [{ kind: "token", id: oldHash }] : []);
        // Rotating signs every agent out: the old token, and every app connected through OAuth (worker/oauth/grants.ts).
        const { revokeAllConnectedApps } = await import("../oauth/grants.ts");
        let appsRevoked: number;
        try {
          appsRevoked = await revokeAllConnectedApps(c.env, userId);
        } finally {
          await tokenStreams; // never rejects: a room not told is logged and left to its backstop
        }
        // Then any stream an app's grant opened (through /mcp) ends as well.
        await endStreamsOf(c.env, userId, slugs, [{ kind: "oauth" }]);
        return c.json({ rotated: true, token, curl: curlExample(baseUrlOf(c), token), appsRevoked });
      },
    ),
  );

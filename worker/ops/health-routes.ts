import { Hono } from "hono";
import pkg from "../../package.json";
import { publicUser } from "../auth/identity.ts";
import { baseUrlOf } from "../http/base-url.ts";
import { loginFlags } from "../http/config.ts";
import type { AppEnv } from "../http/context.ts";
import { isAdmin } from "../ideas/caller.ts";
import { route } from "../http/route.ts";
import { json } from "../openapi/operation.ts";
import { health } from "./shapes.ts";
import * as z from "zod";

export const VERSION: string = pkg.version;

export const healthRoutes = new Hono<AppEnv>()
  // No storage work: a liveness probe, and the baseline the benchmarks measure other routes against.
  .get(
    "/ping",
    route(
      { operationId: "ping", summary: "Liveness probe (no storage work)", tag: "studio", access: "public", responses: () => ({ 200: json(z.object({ ok: z.literal(true) }), "alive") }) },
      (c) => c.json({ ok: true }),
    ),
  )
  .get(
    "/health",
    route(
      {
        operationId: "getHealth", summary: "Health, version, login flags and the caller", tag: "studio", access: "optional",
        responses: () => ({ 200: json(health(), "health") }),
      },
      (c) => {
        const user = c.get("user");
        return c.json({
          ok: true,
          version: VERSION,
          // The deployed build: wrangler's version id and upload time (absent where the binding is not configured).
          build: c.env.CF_VERSION_METADATA
            ? { id: c.env.CF_VERSION_METADATA.id, tag: c.env.CF_VERSION_METADATA.tag || null, uploadedAt: c.env.CF_VERSION_METADATA.timestamp || null }
            : null,
          baseUrl: baseUrlOf(c),
          login: loginFlags(c.env),
          authorized: user !== null,
          user: user ? publicUser(user) : null,
          // Lets the dashboard show admin panels (render node keys) without asking for them and getting 403.
          admin: isAdmin(c),
        });
      },
    ),
  );

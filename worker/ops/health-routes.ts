import { Hono } from "hono";
import pkg from "../../package.json";
import { publicUser } from "../auth/identity.ts";
import { baseUrlOf } from "../http/base-url.ts";
import { loginFlags } from "../http/config.ts";
import type { AppEnv } from "../http/context.ts";
import { isAdmin } from "../ideas/caller.ts";

export const VERSION: string = pkg.version;

export const healthRoutes = new Hono<AppEnv>()
  // No storage work: a liveness probe, and the baseline the benchmarks measure other routes against.
  .get("/ping", (c) => c.json({ ok: true }))
  .get("/health", (c) => {
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
});

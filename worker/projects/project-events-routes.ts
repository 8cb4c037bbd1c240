// GET /api/projects/:slug/events — the project's own event stream (files written or deleted, renders started or ended),
// from its ProjectRoom. Render progress has its own stream (…/render/events); this one never ends on its own.
import { Hono } from "hono";
import { requireUser } from "../auth/middleware.ts";
import type { AppEnv } from "../http/context.ts";
import { callerProject } from "./caller-project.ts";
import { roomOf } from "../renders/room/room-of.ts";

export const projectEventRoutes = new Hono<AppEnv>().use(requireUser).get("/:slug/events", async (c) => {
  const ref = await callerProject(c);
  return roomOf(c.env, ref).fetch(new Request("https://room/project-events", { signal: c.req.raw.signal }));
});

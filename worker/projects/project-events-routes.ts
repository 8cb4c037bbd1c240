// GET /api/projects/:slug/events — the project's own event stream (files written or deleted, renders started or ended),
// from its ProjectRoom. Render progress has its own stream (…/render/events); this one never ends on its own, only
// when the project is deleted or the credential it was opened with ends (renders/room/stream-watch.ts).
import { media } from "../openapi/operation.ts";
import { route } from "../http/route.ts";
import { slugParams } from "../http/path-params.ts";
import { Hono } from "hono";
import { requireUser } from "../auth/middleware.ts";
import type { AppEnv } from "../http/context.ts";
import { callerProject } from "./caller-project.ts";
import { roomOf } from "../durable-objects/room-of.ts";
import { streamRequest } from "../auth/stream-request.ts";

export const projectEventRoutes = new Hono<AppEnv>().use(requireUser).get(
  "/:slug/events",
  route(
    {
      operationId: "projectEvents", summary: "Server-Sent Events of the project itself: renders started or ended, files written or deleted (stays open until the project is deleted or the credential that opened it ends)", tag: "projects", access: "user", request: () => ({ params: slugParams() }),
      responses: () => ({ 200: media("text/event-stream", "an event stream: `render` first (the current or last render's state without `lines`, or `{ status: \"none\" }`) and again at each render's start and end; `batch` next when the project has a batch (BatchState) and again at each batch start, row start, row end and batch end; `files` events ({ written, deleted })") }),
      errors: [404],
    },
    async (c) => {
      const ref = await callerProject(c);
      return roomOf(c.env, ref).fetch(await streamRequest(c, "https://room/project-events"));
    },
  ),
);

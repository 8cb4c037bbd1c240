// POST /api/projects/:slug/snapshot — PNG frames and a contact sheet in <project>/snapshots/, taken on a render
// node with the render pipeline's page loading and seeking, so each frame is the one a render would show. The call
// waits for the frames by default; with `"wait": false` it answers 202 with the queued job at once, to be read with
// GET …/snapshot/:id and cancelled with DELETE …/snapshot/:id (snapshot-job-routes.ts).
import { Hono } from "hono";
import { snapshotRequest } from "../../core/browser/browser-options.ts";
import { currentUser, requireUser } from "../auth/middleware.ts";
import { waitForJob } from "./wait-for-job.ts";
import { openDb } from "../db/client.ts";
import { deletePath } from "../projects/files/delete-files.ts";
import { findJob } from "../renders/farm/queue.ts";
import { baseUrlOf } from "../http/base-url.ts";
import type { AppEnv } from "../http/context.ts";
import { ApiError } from "../http/errors.ts";
import { route } from "../http/route.ts";
import { projectSlugParams } from "../http/path-params.ts";
import { json } from "../openapi/operation.ts";
import { BROWSER_ERRORS, snapshotJob, snapshotResult } from "./shapes.ts";
import { enqueueCappedJob, requireJobSlot } from "./capped-jobs.ts";
import { requireBrowserJobReady } from "./browser-job-ready.ts";
import { requireProject } from "../projects/store.ts";
import { filesBaseOf, parseSnapshotResult, snapshotEntries, snapshotJobState } from "./snapshot-result.ts";

export const snapshotRoutes = new Hono<AppEnv>().use(requireUser).post(
  "/:slug/snapshot",
  route(
    {
      operationId: "snapshotProject", summary: "PNG frames and a contact sheet in snapshots/", tag: "checks", access: "user",
      request: () => ({ params: projectSlugParams(), body: { json: snapshotRequest() } }),
      responses: () => ({
        200: json(snapshotResult(), "the frames"),
        202: { ...json(snapshotJob(), "wait: false: the job, queued"), headers: { Location: "GET it for the job's status and, when done, its frames" } },
      }),
      errors: [...BROWSER_ERRORS, 422],
    },
    async (c, input) => {
      const ref = { userId: currentUser(c).id, slug: input.param("slug") };
      const db = openDb(c.env.DB);
      const project = await requireProject(db, ref);
      const { wait, ...options } = await input.body();
      await requireBrowserJobReady(c.env, db, ref, options.at, project.duration, "take snapshots");
      await requireJobSlot(db, c.env, ref.userId, "snapshot");
      // Cleared on every call, before the job exists, so no earlier frame can be mistaken for a new one.
      await deletePath(c.env, ref, "snapshots");
      const id = crypto.randomUUID();
      await enqueueCappedJob(db, c.env, { id, userId: ref.userId, slug: ref.slug, kind: "snapshot", options });
      const filesBase = filesBaseOf(baseUrlOf(c), ref.slug);
      if (wait === false) {
        const queued = await findJob(db, id);
        if (!queued) throw new ApiError(500, "the snapshot job disappeared");
        c.header("Location", `/api/projects/${ref.slug}/snapshot/${id}`);
        return c.json(await snapshotJobState(c.env, queued, filesBase), 202);
      }
      const job = await waitForJob(db, c.env, id, "snapshot", c.req.raw.signal);
      const { snapshots, log } = parseSnapshotResult(job.result);
      if (job.status !== "done") {
        throw new ApiError(422, `snapshot failed: ${job.error ?? job.status}`, { ok: false, snapshots: [], log });
      }
      // The node's completion announced the frames to the project's room (snapshot-result.ts).
      return c.json({ ok: true as const, snapshots: await snapshotEntries(c.env, ref, filesBase, snapshots), log });
    },
  ),
);

// /api/projects/:slug/preview — a preview server for the project on a render node, on its own port (3002 and up).
// It is a long-running `preview` job: the node holds it, renews its lease, reports its port, and stops when a
// progress post answers { cancelled: true } (DELETE, or the project's deletion), or when nobody has asked it for
// anything for a while (the node's PREVIEW_IDLE_MS). It answers only under the secret drawn here.
import * as z from "zod";
import { previewState as previewShape } from "../openapi/shapes.ts";
import { json } from "../openapi/operation.ts";
import { route } from "../http/route.ts";
import { slugParams } from "../http/path-params.ts";
import { Hono, type Context } from "hono";
import { requireUser } from "../auth/middleware.ts";
import { isStalePreview, newPreviewOptions, previewHostname, previewPort, previewSecret, previewState } from "./preview-state.ts";
import { browserJobTimeouts } from "./wait-for-job.ts";
import { openDb, type Db } from "../db/client.ts";
import type { ProjectRef } from "../storage/keys.ts";
import type { AppEnv } from "../http/context.ts";
import { ApiError } from "../http/errors.ts";
import { endJob, findJob, findLiveProjectJob, type JobRow } from "../renders/farm/queue.ts";
import { enqueueCappedJob } from "./capped-jobs.ts";
import { requireCompositionWithinLimits } from "../limits/composition-size.ts";
import { requireRenderNode } from "../renders/farm/node-presence.ts";
import { callerProject } from "../projects/caller-project.ts";

const POLL_MS = 200;
/** A node needs a moment to download the project and open its port. */
const START_MS = 60_000;

/** Stops the project's preview, if one is live; true when there was one. */
export async function stopPreview(db: Db, ref: ProjectRef, reason: string): Promise<boolean> {
  const job = await findLiveProjectJob(db, ref, "preview");
  if (!job) return false;
  return endJob(db, job.id, "cancelled", { error: reason });
}

async function waitForPort(db: Db, c: Context<AppEnv>, jobId: string): Promise<JobRow> {
  const { pickupMs } = browserJobTimeouts(c.env);
  const began = Date.now();
  for (;;) {
    const job = await findJob(db, jobId);
    if (!job) throw new ApiError(500, "the preview job disappeared");
    if (previewPort(job) !== null) return job;
    if (job.status === "failed" || job.status === "cancelled" || job.status === "done") {
      throw new ApiError(502, `the preview could not start: ${job.error ?? job.status}`);
    }
    const waited = Date.now() - began;
    const hung =
      job.status === "queued" && waited > pickupMs
        ? `no render node picked the preview up within ${Math.round(pickupMs / 1000)} s (stage: queued)`
        : waited > START_MS
          ? `the preview did not start within ${START_MS / 1000} s (stage: ${job.stage ?? "started"})`
          : null;
    if (hung) {
      await endJob(db, job.id, "cancelled", { error: hung });
      throw new ApiError(504, hung);
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

export const previewRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .post(
    "/:slug/preview",
    route(
      {
        operationId: "startPreview", summary: "Start (or return) the project's preview server", tag: "checks", access: "user", request: () => ({ params: slugParams() }),
        responses: () => ({ 200: json(previewShape(), "the preview") }),
        errors: [400, 404, 429, 502, 503, 504],
      },
      async (c) => {
        const ref = await callerProject(c);
        const db = openDb(c.env.DB);
        let job = await findLiveProjectJob(db, ref, "preview");
        if (job && isStalePreview(job)) {
          await endJob(db, job.id, "failed", { error: "the render node holding the preview stopped responding" });
          job = null;
        } else if (job && !previewSecret(job)) {
          await endJob(db, job.id, "cancelled", { error: "replaced by a preview with a secret" });
          job = null;
        }
        if (!job) {
          await requireCompositionWithinLimits(c.env, ref, "index.html");
          await requireRenderNode(c.env, db, "run a preview server");
          const id = crypto.randomUUID();
          await enqueueCappedJob(db, c.env, { id, userId: ref.userId, slug: ref.slug, kind: "preview", options: newPreviewOptions() });
          job = await waitForPort(db, c, id);
        } else if (previewPort(job) === null) {
          job = await waitForPort(db, c, job.id);
        }
        return c.json(previewState(job, previewHostname(c.env)));
      },
    ),
  )
  .get(
    "/:slug/preview",
    route(
      { operationId: "getPreview", summary: "Preview state", tag: "checks", access: "user", request: () => ({ params: slugParams() }), responses: () => ({ 200: json(previewShape(), "the preview") }), errors: [404] },
      async (c) => {
        const ref = await callerProject(c);
        return c.json(previewState(await findLiveProjectJob(openDb(c.env.DB), ref, "preview"), previewHostname(c.env)));
      },
    ),
  )
  .delete(
    "/:slug/preview",
    route(
      { operationId: "stopPreview", summary: "Stop the preview server", tag: "checks", access: "user", request: () => ({ params: slugParams() }), responses: () => ({ 200: json(z.object({ stopped: z.boolean() }), "stopped") }), errors: [404] },
      async (c) => {
        const ref = await callerProject(c);
        return c.json({ stopped: await stopPreview(openDb(c.env.DB), ref, "stopped by the user") });
      },
    ),
  );

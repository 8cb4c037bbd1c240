// GET /api/projects/:slug/snapshot/:id — a snapshot job's status (queued, running with its stage, done with its
// frames, failed or cancelled with why), for a caller that did not wait (POST …/snapshot with `"wait": false`).
// Each read applies the decision a waiting call applies on each of its reads (job-decision.ts): a job whose node
// went silent goes back to the queue, one nobody picked up or that hung is given up with the stage, so a job nobody
// waits on is never stuck. DELETE cancels a queued or running one (its node learns it on its next progress post,
// as for renders); an ended one is a 409. Another user's job, or another project's, is a 404.
import { Hono, type Context } from "hono";
import { currentUser, requireUser } from "../auth/middleware.ts";
import { openDb, type Db } from "../db/client.ts";
import { roomOf } from "../durable-objects/room-of.ts";
import { baseUrlOf } from "../http/base-url.ts";
import type { AppEnv } from "../http/context.ts";
import { conflict, notFound } from "../http/errors.ts";
import { logEvent } from "../http/log.ts";
import { snapshotIdParams } from "../http/path-params.ts";
import { route } from "../http/route.ts";
import { json } from "../openapi/operation.ts";
import { endJob, findJob, isJobEnded, requeueLapsedJob, type JobRow } from "../renders/farm/queue.ts";
import type { Env } from "../env.ts";
import { decideJob, watchFromRow } from "./job-decision.ts";
import { snapshotJob } from "./shapes.ts";
import { filesBaseOf, snapshotJobState } from "./snapshot-result.ts";
import { browserJobLimits, giveUpJob } from "./wait-for-job.ts";

/** What an owner's cancel leaves as the job's error. */
export const CANCELLED_BY_OWNER = "cancelled by its owner";

/**
 * The caller's snapshot job the path names, or a 404 (another user's, another project's, another kind's); with the
 * D1 client and where the project's files are served.
 */
async function requireSnapshotJob(c: Context<AppEnv>, slug: string, id: string) {
  const db = openDb(c.env.DB);
  const job = await findJob(db, id);
  if (!job || job.userId !== currentUser(c).id || job.slug !== slug || job.kind !== "snapshot") throw notFound(`no snapshot with id ${id}`);
  return { db, job, filesBase: filesBaseOf(baseUrlOf(c), slug) };
}

/** The row after this read's decision: put back, given up, or as it was. */
async function decided(db: Db, env: Env, job: JobRow): Promise<JobRow> {
  const decision = decideJob(job, watchFromRow(job), Date.now(), browserJobLimits(env), "snapshot");
  if (decision.act === "requeue") {
    if (await requeueLapsedJob(db, job.id, job.nodeId)) logEvent("warn", "checks.job_requeued", { jobId: job.id, what: "snapshot", attempt: job.attempts, stage: job.stage });
  } else if (decision.act === "give-up") {
    await giveUpJob(db, job, decision.reason);
  } else {
    return job;
  }
  return (await findJob(db, job.id)) ?? job;
}

export const snapshotJobRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get(
    "/:slug/snapshot/:id",
    route(
      {
        operationId: "getSnapshot", summary: "A snapshot job's status and, when done, its frames", tag: "checks", access: "user",
        request: () => ({ params: snapshotIdParams() }),
        responses: () => ({ 200: json(snapshotJob(), "the job") }),
        errors: [404, 502],
      },
      async (c, input) => {
        const { db, job, filesBase } = await requireSnapshotJob(c, input.param("slug"), input.param("id"));
        return c.json(await snapshotJobState(c.env, await decided(db, c.env, job), filesBase));
      },
    ),
  )
  .delete(
    "/:slug/snapshot/:id",
    route(
      {
        operationId: "cancelSnapshot", summary: "Cancel a queued or running snapshot", tag: "checks", access: "user",
        request: () => ({ params: snapshotIdParams() }),
        responses: () => ({ 200: json(snapshotJob(), "the job, cancelled") }),
        errors: [404, 409],
      },
      async (c, input) => {
        const { db, job, filesBase } = await requireSnapshotJob(c, input.param("slug"), input.param("id"));
        const ended = isJobEnded(job.status) || !(await endJob(db, job.id, "cancelled", { error: CANCELLED_BY_OWNER }));
        if (ended) throw conflict(`the snapshot already ended (${(await findJob(db, job.id))?.status ?? job.status})`);
        // A call still waiting for it answers at once rather than at its next deadline.
        await roomOf(c.env, job)
          .jobChanged(job.id)
          .catch((error: unknown) => logEvent("warn", "checks.job_change_unannounced", { error, answer: "the waiter reads the job at its next deadline" }));
        return c.json(await snapshotJobState(c.env, (await findJob(db, job.id)) ?? job, filesBase));
      },
    ),
  );

// POST /api/node/jobs/claim: a render node takes the next queued job of the kinds it serves (queue.ts claimOrder),
// waiting up to ?wait seconds on the JobBoard for work to be queued; the job's room hears of the claim.
import { Hono } from "hono";
import * as z from "zod";
import { ClaimedJobSchema, ClaimRequestSchema, ClaimResponseSchema, DEFAULT_CLAIM_WAIT_S, MAX_CLAIM_WAIT_S, type ClaimedJob } from "../../../core/protocol/node-routes.ts";
import type { JobKind } from "../../../core/protocol/job-kinds.ts";
import { openDb } from "../../db/client.ts";
import type { AppEnv } from "../../http/context.ts";
import { route } from "../../http/route.ts";
import { json } from "../../openapi/operation.ts";
import { roomOf } from "../../durable-objects/room-of.ts";
import { jobBoard, type WorkMarks } from "./job-board.ts";
import { nodeOf } from "./node-caller.ts";
import { markNodeSeen } from "./node-presence.ts";
import { claimJob, JOB_KINDS, leaseMs, renderPartOf, type JobRow } from "./queue.ts";
import { logEvent } from "../../http/log.ts";

/** A waiting claim re-reads the queue at least this often, should a wake-up be lost (the board evicted). */
const SAFETY_RECHECK_MS = 5000;

/** The room hears of its job's claim: a render is now rendering; a browser job's waiter wakes. */
async function announceClaim(env: AppEnv["Bindings"], job: JobRow, nodeName: string): Promise<void> {
  const room = roomOf(env, job);
  if (job.kind === "render") await room.markRendering(job.id, nodeName, job.attempts);
  else if (job.kind === "segment" || job.kind === "join") {
    const { renderId, segment } = renderPartOf(job);
    if (segment !== null) await room.markSegment(renderId, segment, nodeName, job.attempts);
  } else if (job.kind === "snapshot" || job.kind === "check") await room.jobChanged(job.id);
}

export const nodeClaimRoute = new Hono<AppEnv>()
  .post(
    "/jobs/claim",
    route(
      {
        operationId: "nodeClaimJob", summary: `Claim the next queued job (long poll up to ?wait seconds, at most ${MAX_CLAIM_WAIT_S})`, tag: "node", access: "node",
        request: () => ({ query: z.object({ wait: z.string().optional().describe(`seconds to wait for a job (at most ${MAX_CLAIM_WAIT_S})`) }), body: { json: ClaimRequestSchema } }),
        responses: () => ({ 200: json(ClaimResponseSchema, "a job"), 204: { description: "no job within the wait" } }),
      },
      async (c, input) => {
        const node = nodeOf(c);
        const body = await input.body();
        const { wait } = input.query();
        const waitS = Math.min(Number(wait ?? DEFAULT_CLAIM_WAIT_S) || 0, MAX_CLAIM_WAIT_S);
        const kinds = body.kinds ?? JOB_KINDS;
        const db = openDb(c.env.DB);
        const lease = leaseMs(c.env);
        const deadline = Date.now() + waitS * 1000;
        // Every claim (and every poll that ends empty) shows the node is alive: browser endpoints answer 503 without one.
        await markNodeSeen(db, node.id);
        for (;;) {
          // The board's counters are read before the queue, so work queued in between wakes the wait below at once.
          // Without the board's marks the wait below wakes on any work, no later than the safety re-check.
          const marks = await jobBoard(c.env)
            .marksOf(kinds)
            .catch((error: unknown): WorkMarks => {
              logEvent("warn", "jobs.marks_unread", { error, answer: "claim without marks" });
              return {};
            });
          // A node that went away while it waited must not be handed a job: it would sit out a whole lease.
          if (c.req.raw.signal.aborted) return c.body(null, 204);
          const job = await claimJob(db, node.id, kinds, lease);
          if (job) {
            // Several processes may share one key: the claim's nodeId tells them apart in log lines.
            await announceClaim(c.env, job, body.nodeId ? `${node.name}/${body.nodeId}` : node.name);
            const options = ClaimedJobSchema.shape.options.parse(JSON.parse(job.options));
            const claimed: ClaimedJob = {
              id: job.id, kind: job.kind as JobKind, slug: job.slug, options,
              composition: typeof options.composition === "string" ? options.composition : "index.html",
              leaseMs: lease, attempt: job.attempts,
            };
            return c.json({ job: claimed });
          }
          const left = deadline - Date.now();
          if (left <= 0 || c.req.raw.signal.aborted) {
            await markNodeSeen(db, node.id);
            return c.body(null, 204);
          }
          await jobBoard(c.env)
            .waitForWork(kinds, marks, Math.min(left, SAFETY_RECHECK_MS), `${node.id}/${body.nodeId ?? ""}`)
            .catch((error: unknown) => {
              // An unreachable board: wait a second and read the queue again, as the safety re-check would.
              logEvent("warn", "jobs.board_wait_failed", { error, answer: "queue read again in 1 s" });
              return new Promise((r) => setTimeout(r, Math.min(left, 1000)));
            });
        }
      },
    ),
  );

// POST /api/node/jobs/claim: a render node takes the next queued job of the kinds it serves (queue.ts claimOrder)
// if one is queued the moment it asks. Otherwise it waits up to ?wait seconds on the JobBoard, and when work is
// queued meanwhile it answers "claim again" (ClaimAgainSchema) rather than take the job: the node behind a waiting
// request may have died while it waited (local workerd never says so), and a job handed to it would sit out a whole
// lease. A live node claims again at once and takes the job then. The job's room hears of the claim.
import { Hono } from "hono";
import * as z from "zod";
import { ClaimAnswerSchema, ClaimedJobSchema, ClaimRequestSchema, DEFAULT_CLAIM_WAIT_S, MAX_CLAIM_WAIT_S, type ClaimedJob } from "../../../core/protocol/node-routes.ts";
import type { JobKind } from "../../../core/protocol/job-kinds.ts";
import { openDb } from "../../db/client.ts";
import type { AppEnv } from "../../http/context.ts";
import { route } from "../../http/route.ts";
import { json } from "../../openapi/operation.ts";
import { roomOf } from "../../durable-objects/room-of.ts";
import { jobBoard, type WorkMarks } from "./job-board.ts";
import { nodeOf } from "./node-caller.ts";
import { markNodeSeen } from "./node-presence.ts";
import { claimJob, hasQueuedJob, JOB_KINDS, leaseMs, renderPartOf, setRunningResult, type JobRow } from "./queue.ts";
import { logEvent } from "../../http/log.ts";
import type { Db } from "../../db/client.ts";
import { previousRender } from "../carry.ts";
import { FORMATS, type Format } from "../../../core/render/render-options.ts";

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

/** The board's counters of the claim's kinds, or null when the board cannot be read. */
async function marksOf(env: AppEnv["Bindings"], kinds: readonly JobKind[]): Promise<WorkMarks | null> {
  return jobBoard(env)
    .marksOf(kinds)
    .catch((error: unknown) => {
      logEvent("warn", "jobs.marks_unread", { error, answer: "queue read again in 1 s" });
      return null;
    });
}

/**
 * A render job's previous render to carry from (worker/renders/carry.ts), kept as the job's running result so the
 * node's downloads of it can be checked against it. A failure to choose is no failed render: it carries nothing.
 */
async function chooseCarry(env: AppEnv["Bindings"], db: Db, job: JobRow, options: Record<string, unknown>): Promise<string | null> {
  const { composition, format } = options;
  // `force` is the render cache's switch only: a carried segment is proven equal to the one it replaces.
  if (job.kind !== "render" || typeof composition !== "string" || !FORMATS.includes(format as Format)) return null;
  try {
    const previous = await previousRender(env, db, { id: job.id, userId: job.userId, slug: job.slug, options: { composition, format: format as Format } });
    if (!previous) return null;
    return (await setRunningResult(db, job.id, { carryFrom: previous.id })) ? previous.id : null;
  } catch (error) {
    logEvent("warn", "jobs.carry_unchosen", { error, answer: "the render carries nothing" });
    return null;
  }
}

/**
 * Waits on the board until work of `kinds` is announced after `marks` (true) or `ms` pass (false). Without marks (or
 * a board that cannot be reached) it waits a second and answers false, so the caller reads the queue itself: an
 * unread counter must not pass for news, or a claim would be told to claim again over and over.
 */
async function waitForWork(env: AppEnv["Bindings"], kinds: readonly JobKind[], marks: WorkMarks | null, ms: number, waiter: string): Promise<boolean> {
  const second = () => new Promise<false>((r) => setTimeout(() => r(false), Math.min(ms, 1000)));
  if (marks === null) return second();
  return jobBoard(env)
    .waitForWork(kinds, marks, ms, waiter)
    .catch((error: unknown) => {
      logEvent("warn", "jobs.board_wait_failed", { error, answer: "queue read again in 1 s" });
      return second();
    });
}

export const nodeClaimRoute = new Hono<AppEnv>()
  .post(
    "/jobs/claim",
    route(
      {
        operationId: "nodeClaimJob",
        summary: `Claim the next queued job, or wait up to ?wait seconds (at most ${MAX_CLAIM_WAIT_S}) and be told to claim again when work is queued`,
        tag: "node", access: "node",
        request: () => ({ query: z.object({ wait: z.string().optional().describe(`seconds to wait for work (at most ${MAX_CLAIM_WAIT_S})`) }), body: { json: ClaimRequestSchema } }),
        responses: () => ({
          200: json(ClaimAnswerSchema, "a job (queued when the claim came), or `claimAgain`: work was queued while the claim waited, claim again at once"),
          204: { description: "no work within the wait" },
        }),
      },
      async (c, input) => {
        const node = nodeOf(c);
        const body = await input.body();
        const { wait } = input.query();
        const waitS = Math.min(Number(wait ?? DEFAULT_CLAIM_WAIT_S) || 0, MAX_CLAIM_WAIT_S);
        // Each kind once: a list that names them over and over is still those kinds (and one SQL variable each).
        const kinds = body.kinds ? [...new Set(body.kinds)] : JOB_KINDS;
        const db = openDb(c.env.DB);
        const lease = leaseMs(c.env);
        const deadline = Date.now() + waitS * 1000;
        const waiter = `${node.id}/${body.nodeId ?? ""}`;
        // Every claim (and every poll that ends empty) shows the node is alive: browser endpoints answer 503 without one.
        // The board's counters are read before the queue, so work queued in between wakes the wait below at once. The
        // two side by side: a node told to claim again pays this claim's round trips once more.
        let [, marks] = await Promise.all([markNodeSeen(db, node.id), marksOf(c.env, kinds)]);
        const job = await claimJob(db, node.id, kinds, lease);
        if (job) {
          // Several processes may share one key: the claim's nodeId tells them apart in log lines.
          await announceClaim(c.env, job, body.nodeId ? `${node.name}/${body.nodeId}` : node.name);
          const options = ClaimedJobSchema.shape.options.parse(JSON.parse(job.options));
          const carryFrom = await chooseCarry(c.env, db, job, options);
          const claimed: ClaimedJob = {
            id: job.id, kind: job.kind as JobKind, slug: job.slug, options,
            composition: typeof options.composition === "string" ? options.composition : "index.html",
            leaseMs: lease, attempt: job.attempts, ...(carryFrom ? { carryFrom } : {}),
          };
          return c.json({ job: claimed });
        }
        // From here on no job is taken: the answer is "claim again" once work is queued, or 204 at the wait's end.
        const claimAgain = () => c.json({ job: null, claimAgain: true as const });
        for (;;) {
          const left = deadline - Date.now();
          // A node that went away while it waited (where the runtime says so) is told nothing more.
          if (left <= 0 || c.req.raw.signal.aborted) {
            await markNodeSeen(db, node.id);
            return c.body(null, 204);
          }
          if (await waitForWork(c.env, kinds, marks, Math.min(left, SAFETY_RECHECK_MS), waiter)) return claimAgain();
          // The safety re-check: work queued without a wake-up (the board evicted, an announce that failed).
          marks = await marksOf(c.env, kinds);
          if (await hasQueuedJob(db, kinds)) return claimAgain();
        }
      },
    ),
  );

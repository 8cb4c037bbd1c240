// What the ProjectRoom reads before a transition (render-transitions.ts) decides: the render's jobs in the queue,
// whether a node holds the job it reports on, the uploaded file, the split decision. Plain data in, plain data out;
// nothing here changes anything.
import type { RenderPlan, SegmentRange } from "../../../core/protocol/render-plan.ts";
import { eq, inArray } from "drizzle-orm";
import { configOf } from "../../config/config-of.ts";
import { openDb } from "../../db/client.ts";
import { renderNodes, renders } from "../../db/schema/renders.ts";
import type { Env } from "../../env.ts";
import { posterKey, renderKey } from "../../storage/keys.ts";
import { freeNodes } from "../farm/free-nodes.ts";
import { isHolder, type JobHolder } from "../farm/job-holder.ts";
import type { FreeNodes } from "../farm/free-node-count.ts";
import { findJob, findJobs, leaseMs, maxJobAttempts, renderPartOf, type JobRow } from "../farm/queue.ts";
import { queuePlace } from "../farm/queue-place.ts";
import { jobIdsOf } from "../projection.ts";
import { decideSplit, farmModel, type SplitDecision } from "../split-plan.ts";
import type { LiveRender, PosterOutcome } from "../state.ts";
import { videoTooLong } from "../video-length.ts";
import type { Limits } from "./render-step.ts";
import type { JobLook, WatchLook } from "./render-transitions.ts";

/** The settings the transitions read. */
export function limitsOf(env: Env): Limits {
  const lease = leaseMs(env);
  return { maxAttempts: maxJobAttempts(env), leaseMs: lease, maxRenderMs: configOf(env).MAX_RENDER_MS, watchdogMs: Math.min(5000, lease) };
}

/** Whether `holder` holds the running job `jobId` (a report from any other node, or an older attempt, is stale). */
export async function holds(env: Env, jobId: string, holder: JobHolder): Promise<boolean> {
  const job = await findJob(openDb(env.DB), jobId);
  return !!job && isHolder(job, holder) && job.status === "running";
}

/** The running job `jobId` as the transitions see it, when `holder` holds it, with its key's name (a join's node is
 * named from its key); null when that holder does not hold it running. */
export async function heldJobLook(env: Env, jobId: string, holder: JobHolder): Promise<{ job: JobLook; nodeNames: Record<string, string> } | null> {
  const db = openDb(env.DB);
  const job = await findJob(db, jobId);
  if (!job || !isHolder(job, holder) || job.status !== "running") return null;
  const named = await db.select({ id: renderNodes.id, name: renderNodes.name }).from(renderNodes).where(inArray(renderNodes.id, [holder.nodeId])).all();
  return { job: lookOf(job), nodeNames: Object.fromEntries(named.map((n) => [n.id, n.name])) };
}

/** A finished render's poster: stored when its object is there, else why not (the node's reason when it gave one). */
export async function uploadedPoster(env: Env, render: LiveRender, nodeSaid?: string): Promise<PosterOutcome> {
  if (await env.FILES.head(posterKey(render.userId, render.filename))) return { stored: true };
  return { error: nodeSaid ?? "the render node uploaded no poster" };
}

/** How an earlier render of the room's project ended, as its row says (null: no such render). */
export async function endedStatus(env: Env, renderId: string): Promise<string | null> {
  const row = await openDb(env.DB).select({ status: renders.status }).from(renders).where(eq(renders.id, renderId)).get();
  return row?.status ?? null;
}

/** The size of the render's uploaded file, or null when there is none. */
export async function uploadedSize(env: Env, render: LiveRender): Promise<number | null> {
  return (await env.FILES.head(renderKey(render.userId, render.filename)))?.size ?? null;
}

const lookOf = (job: JobRow): JobLook => ({
  id: job.id,
  kind: job.kind,
  status: job.status,
  attempts: job.attempts,
  nodeId: job.nodeId,
  leaseExpiresAt: job.leaseExpiresAt,
  error: job.error,
  segment: renderPartOf(job).segment,
});

/** One look of the watchdog: the render's jobs, and what its decision may need (a done job's file, a queued
 * render's place, the names of nodes whose lease lapsed). */
export async function watchLook(env: Env, render: LiveRender, now: number): Promise<WatchLook> {
  const db = openDb(env.DB);
  if (render.phase === "split") {
    const jobs = await findJobs(db, jobIdsOf(render).slice(1));
    const lapsed = jobs.filter((job) => job.status === "running" && (job.leaseExpiresAt ?? 0) < now && job.nodeId).map((job) => job.nodeId!);
    const named = lapsed.length ? await db.select({ id: renderNodes.id, name: renderNodes.name }).from(renderNodes).where(inArray(renderNodes.id, lapsed)).all() : [];
    return { now, jobs: jobs.map(lookOf), nodeNames: Object.fromEntries(named.map((n) => [n.id, n.name])) };
  }
  const job = await findJob(db, render.id);
  const look: WatchLook = { now, jobs: [job ? lookOf(job) : null] };
  if (job?.status === "done") [look.fileSize, look.poster] = await Promise.all([uploadedSize(env, render), uploadedPoster(env, render)]);
  if (job?.status === "queued" && render.phase === "queued") look.place = await queuePlace(db, job.createdAt, now);
  return look;
}

/** The room's decision on a plan: one range (kept whole) or segments, and the log line that says why; or why the
 * render cannot be made (a video longer than MAX_VIDEO_SECONDS). */
export async function splitDecision(env: Env, render: LiveRender, plan: RenderPlan): Promise<{ ranges: SegmentRange[]; line: string } | { tooLong: string }> {
  const tooLong = videoTooLong(env, plan);
  if (tooLong) return { tooLong };
  const free = render.options.format === "gif" ? { count: 1, said: "" } : await freeNodes(env);
  const decision = decideSplit({ ...plan, format: render.options.format, freeNodes: free.count }, farmModel(configOf(env)));
  return { ranges: decision.segments, line: decisionLine(decision, free, plan) };
}

/** The render's log line for the decision: what was counted, and the estimates it compared. */
function decisionLine(d: SplitDecision, free: FreeNodes, plan: RenderPlan): string {
  const s = (x: number) => `${x < 10 ? x.toFixed(1) : Math.round(x)} s`;
  if (d.whole === "gif") return "kept whole: a GIF's palette needs every frame on one node";
  if (d.whole) return `kept whole on this node: ${free.said}; about ${s(d.wholeS)} whole${d.whole === "one free node" ? "" : `, no split finishes sooner (${d.whole})`}`;
  const size = Math.round(plan.frames / d.segments.length);
  // A range render's segments count its own frames; the line says where they sit in the composition.
  const range = plan.firstFrame ? `, the composition's frames ${plan.firstFrame} to ${plan.firstFrame + plan.frames - 1}` : "";
  return `render split into ${d.segments.length} segments of about ${size} frames (${plan.frames} frames at ${plan.fpsText} fps${range}) for ${free.said}: about ${s(d.splitS)} instead of ${s(d.wholeS)} whole`;
}
